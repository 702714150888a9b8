// Creating a task: from the palette or the sidebar (objective, then optionally files already
// uploaded), and after an upload (the files attached). One idempotency key per task, so a retry
// after a lost answer never creates a second one.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import type { FileRecord, TaskRecord } from '../api/types';
import type { BudgetChoice, BudgetRequester } from '../commandSupport/budgetChoice';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { describeErrorForUser } from '../commandSupport/errorText';
import { fileOf, selectionOf } from '../commandSupport/nodeArgs';
import { shortenText } from '../common/format';
import { Commands } from '../common/ids';
import { mapLimited } from '../common/mapLimited';
import { askModal, notify } from '../common/notify';
import { visibleText } from '../common/visibleText';
import { askObjective } from './uploadPrompts';

export function registerCreateTaskCommands(deps: CommandDeps): vscode.Disposable[] {
  const { guard } = deps;
  return [
    vscode.commands.registerCommand(
      Commands.newTaskWithFiles,
      guard('New task with files', (clicked?: unknown, selected?: unknown) => {
        const files = selectionOf(clicked, selected, deps.selection('files'))
          .map(fileOf)
          .filter((f): f is FileRecord => f !== undefined);
        return createTaskFlow(deps, files);
      }),
    ),
    vscode.commands.registerCommand(
      Commands.createTask,
      guard('Create task', (options?: unknown) => {
        const given = givenTask(options);
        if (typeof given === 'string') {
          throw new UserFacingError(given);
        }
        return given.objective === undefined
          ? createTaskFlow(deps, given.files)
          : createGivenTask(deps, given.objective, given.files);
      }),
    ),
  ];
}

/**
 * `onFailure` may answer a failure itself (true: it did, nothing more is said or retried).
 * `budget`: who asks (the cap is chosen here), or the cap already chosen before an upload.
 */
export async function createTaskWithAttachments(
  deps: CommandDeps,
  objective: string,
  files: { id: string }[],
  onFailure?: (err: unknown) => Promise<boolean>,
  budget: BudgetRequester | BudgetChoice = 'person',
): Promise<TaskRecord | undefined> {
  const cap = typeof budget === 'string' ? await deps.budgets.choose(budget) : budget;
  if (cap.refused !== undefined) {
    deps.log.info(`No task was created: ${cap.refused}`);
    return undefined;
  }
  // One key for every attempt: a retry after a lost answer can never create a second task.
  const idempotencyKey = globalThis.crypto.randomUUID();
  const request = {
    objective,
    attachments: files.map((f) => ({ type: 'document' as const, fileId: f.id })),
    ...(cap.budget ? { budget: cap.budget } : {}),
  };
  let task: TaskRecord | undefined;
  while (!task) {
    try {
      task = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Creating the task...') },
        () => deps.service.client.createTask(request, { idempotencyKey }),
      );
    } catch (err) {
      if (isApiError(err, 'authentication')) {
        throw err;
      }
      deps.log.error(`Creating the task failed (${files.length} attachment(s)): ${describeError(err)}`);
      if (onFailure && (await onFailure(err))) {
        return undefined;
      }
      const retry = vscode.l10n.t('Retry');
      const choice = await notify.error(
        files.length > 0
          ? vscode.l10n.t('The files were uploaded, but the task could not be created: {0}', describeErrorForUser(err))
          : vscode.l10n.t('The task could not be created: {0}', describeErrorForUser(err)),
        retry,
      );
      if (choice !== retry) {
        return undefined;
      }
    }
  }
  deps.log.info(`Created ${task.id} with ${files.length} attachment(s)${task.run_id ? `, run ${task.run_id}` : ''}`);
  // Only the files given here may be revised by the task's runs (Review Changes reads this record).
  const created = task;
  await deps.localFiles
    .recordTask(
      created.id,
      files.map((f) => f.id),
    )
    .catch((err: unknown) =>
      deps.log.warn(`The record of uploads could not note the files of ${created.id}: ${describeError(err)}`),
    );
  const watch = vscode.l10n.t('Watch Run');
  const runId = typeof task.run_id === 'string' ? task.run_id : undefined;
  deps.budgets.noteStarted(cap, task, runId, objective);
  void notify
    .info(vscode.l10n.t('Task "{0}" created.', shortenText(objective, 60)), ...(runId ? [watch] : []))
    .then((choice) => {
      if (choice === watch && runId) {
        void vscode.commands.executeCommand(Commands.watchRun, { runId, objective });
      }
    });
  // The sidebar catches up in the background: the user is not kept waiting for a tree reload.
  void deps.tasks
    .followNewTask(task)
    .catch((err: unknown) => deps.log.warn(`Revealing ${task?.id}: ${describeError(err)}`));
  return task;
}

/** Files a command call may attach at most (the service's own limit on attachments). */
const MAX_GIVEN_FILES = 100;
/** An objective a command call may give at most (the language model tool's limit). */
const MAX_GIVEN_OBJECTIVE = 10_000;

/**
 * The arguments of a command call (a keybinding, a link, another extension): checked, never
 * trusted. A sentence for the person when they cannot be used.
 */
export function givenTask(options: unknown): { objective?: string; files: { id: string }[] } | string {
  if (options === undefined || options === null) {
    return { files: [] };
  }
  if (typeof options !== 'object') {
    return vscode.l10n.t('Create Task was called with arguments it cannot use.');
  }
  const { objective, fileIds } = options as { objective?: unknown; fileIds?: unknown };
  if (objective !== undefined && typeof objective !== 'string') {
    return vscode.l10n.t('Create Task was called with arguments it cannot use.');
  }
  if (fileIds !== undefined && !(Array.isArray(fileIds) && fileIds.every((id) => typeof id === 'string' && id))) {
    return vscode.l10n.t('Create Task was called with arguments it cannot use.');
  }
  const ids = (fileIds as string[] | undefined) ?? [];
  if (ids.length > MAX_GIVEN_FILES) {
    return vscode.l10n.t('A task can have at most {0} attached files; {1} were given.', MAX_GIVEN_FILES, ids.length);
  }
  const trimmed = objective?.trim();
  if (trimmed !== undefined && trimmed.length > MAX_GIVEN_OBJECTIVE) {
    return vscode.l10n.t(
      'The objective given is {0} characters long; at most {1} can be sent.',
      trimmed.length,
      MAX_GIVEN_OBJECTIVE,
    );
  }
  return { ...(trimmed ? { objective: trimmed } : {}), files: ids.map((id) => ({ id })) };
}

/**
 * Create Task called with an objective (a keybinding, a link or another extension): nobody typed
 * it in this window, so the person sees the whole of it, the files and the service, and decides;
 * only then is it their task (the cap and the monthly limit are asked as for their own).
 */
async function createGivenTask(
  deps: CommandDeps,
  objective: string,
  files: { id: string }[],
): Promise<TaskRecord | undefined> {
  if (!(await deps.ensureSignedIn())) {
    return undefined;
  }
  const message = vscode.l10n.t('Create an Agent Runtime task on {0}?', deps.service.serviceUrl);
  const detail = [
    vscode.l10n.t('Asked for by a command call (another extension, a keybinding or a link), not typed here.'),
    '',
    vscode.l10n.t('Objective: {0}', visibleText(objective)),
    '',
    files.length === 0 ? vscode.l10n.t('No files are attached.') : vscode.l10n.t('Uploaded files attached:'),
    ...(await mapLimited(files, 4, (f) => fileLabel(deps, f.id))),
  ];
  if (deps.trustedAutomation) {
    deps.log.info(`In the test run, this question was answered yes: ${message}`);
  } else {
    const go = vscode.l10n.t('Create Task');
    if ((await askModal('warn', message, detail, go)) !== go) {
      return undefined;
    }
  }
  return createTaskWithAttachments(deps, objective, files);
}

/** A file's name and id for a question; the id alone (and why) when the service cannot say. */
async function fileLabel(deps: CommandDeps, id: string): Promise<string> {
  try {
    const file = await deps.service.client.getFile(id);
    return typeof file.filename === 'string' ? `${visibleText(file.filename)} (${id})` : id;
  } catch (err) {
    return vscode.l10n.t('{0} (not readable: {1})', id, describeErrorForUser(err));
  }
}

/** Create Task from the sidebar or palette: objective, then (optionally) attachments from uploaded files. */
async function createTaskFlow(
  deps: CommandDeps,
  preselected: { id: string; filename?: string }[],
): Promise<TaskRecord | undefined> {
  if (!(await deps.ensureSignedIn())) {
    return undefined;
  }
  const objective = await askObjective(preselected.map((f) => ({ name: f.filename ?? f.id })));
  if (objective === undefined) {
    return undefined;
  }
  return createTaskWithAttachments(deps, objective, preselected);
}
