// Creating a task: from the palette or the sidebar (objective, then optionally files already
// uploaded), and after an upload (the files attached). One idempotency key per task, so a retry
// after a lost answer never creates a second one.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import type { FileRecord, TaskRecord } from '../api/types';
import type { BudgetChoice, BudgetRequester } from '../commandSupport/budgetChoice';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { describeErrorForUser } from '../commandSupport/errorText';
import { fileOf, selectionOf } from '../commandSupport/nodeArgs';
import { shortenText } from '../common/format';
import { Commands } from '../common/ids';
import { notify } from '../common/notify';
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
      guard('Create task', (options?: { objective?: string; fileIds?: string[] }) =>
        createTaskFlow(
          deps,
          (options?.fileIds ?? []).map((id) => ({ id })),
          options?.objective,
        ),
      ),
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
  const idempotencyKey = randomUUID();
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

/** Create Task from the sidebar or palette: objective, then (optionally) attachments from uploaded files. */
async function createTaskFlow(
  deps: CommandDeps,
  preselected: { id: string; filename?: string }[],
  objective?: string,
): Promise<TaskRecord | undefined> {
  if (!(await deps.ensureSignedIn())) {
    return undefined;
  }
  objective ??= await askObjective(preselected.map((f) => ({ name: f.filename ?? f.id })));
  if (objective === undefined) {
    return undefined;
  }
  return createTaskWithAttachments(deps, objective, preselected);
}
