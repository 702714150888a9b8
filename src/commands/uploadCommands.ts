// The main user story: upload workspace files (Explorer, editor, palette, drag and drop) and
// optionally attach them all to one new task, under one cancellable progress notification.
import * as vscode from 'vscode';
import { describeError, isApiError } from '../api/errors';
import { FilePurpose, FileRecord, TaskRecord } from '../api/types';
import { randomUUID } from 'crypto';
import { uploadBatch, BatchResult, UploadKeys } from '../upload/batchUpload';
import { PlannedFile } from '../upload/uploadPlan';
import { formatBytes } from './format';
import { fileOf, selectionOf, urisOf } from './nodeArgs';
import { CommandDeps } from './commandDeps';
import { askObjective, confirmPlan, localUri, pickFiles, pickPurpose, saveDirtyDocuments } from './uploadPrompts';

interface Prefilled {
  objective?: string;
  purpose?: FilePurpose;
}

export function registerUploadCommands(deps: CommandDeps): vscode.Disposable[] {
  const { guard } = deps;
  return [
    // Menus pass (clicked, selected[]); the third argument lets tests and other extensions skip the prompts.
    vscode.commands.registerCommand('agentRuntime.uploadFiles', guard('Upload', (clicked?: unknown, selected?: unknown, given?: Prefilled) =>
      uploadFlow(deps, urisOf(clicked, selected), { createTask: false, purpose: given?.purpose }))),
    vscode.commands.registerCommand('agentRuntime.uploadAndCreateTask', guard('Upload and create task', (clicked?: unknown, selected?: unknown, given?: Prefilled) =>
      uploadFlow(deps, urisOf(clicked, selected), { createTask: true, objective: given?.objective }))),
    vscode.commands.registerCommand('agentRuntime.newTaskWithFiles', guard('New task with files', (clicked?: unknown, selected?: unknown) => {
      const files = selectionOf(clicked, selected).map(fileOf).filter((f): f is FileRecord => f !== undefined);
      return createTaskFlow(deps, files);
    })),
    vscode.commands.registerCommand('agentRuntime.createTask', guard('Create task', (options?: { objective?: string; fileIds?: string[] }) =>
      createTaskFlow(deps, (options?.fileIds ?? []).map((id) => ({ id })), options?.objective))),
  ];
}

/** Uploads the given files (asking for them when none were given); returns the created task if any. */
export async function uploadFlow(
  deps: CommandDeps,
  uris: vscode.Uri[],
  options: { createTask: boolean; objective?: string; purpose?: FilePurpose },
): Promise<TaskRecord | FileRecord[] | undefined> {
  if (!(await deps.ensureSignedIn())) return undefined;
  if (uris.length === 0) uris = await pickFiles(options.createTask);
  if (uris.length === 0) return undefined; // the user closed the picker: nothing to say
  uris = uris.map(localUri);
  const nonLocal = uris.filter((u) => u.scheme !== 'file');
  if (nonLocal.length > 0) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Only files on disk can be uploaded ({0} is not).', nonLocal[0].toString(true)));
    return undefined;
  }
  if (!(await saveDirtyDocuments(uris))) return undefined;
  const plan = await confirmPlan(uris.map((u) => u.fsPath));
  if (!plan) return undefined;

  const objective = options.createTask ? options.objective ?? (await askObjective(plan.files)) : undefined;
  if (options.createTask && objective === undefined) return undefined;
  const purpose = options.createTask ? 'task_input' : options.purpose ?? (await pickPurpose(deps.settings().defaultPurpose));
  if (!purpose) return undefined;

  const uploaded = await uploadWithRetry(deps, plan.files, purpose);
  if (!uploaded) return undefined;
  deps.files.refresh();
  if (!options.createTask || objective === undefined) {
    void vscode.window.showInformationMessage(
      uploaded.length === 1
        ? vscode.l10n.t('Uploaded {0} as {1}.', uploaded[0].filename ?? uploaded[0].id, uploaded[0].id)
        : vscode.l10n.t('Uploaded {0} files.', uploaded.length),
    );
    return uploaded;
  }
  return createTaskWithAttachments(deps, objective, uploaded);
}

/** Runs the batch under one progress notification; offers to retry the failures. Undefined when cancelled. */
async function uploadWithRetry(deps: CommandDeps, files: PlannedFile[], purpose: FilePurpose): Promise<FileRecord[] | undefined> {
  const done: FileRecord[] = [];
  const keys: UploadKeys = new Map();
  let pending = files;
  for (;;) {
    const result = await runBatch(deps, pending, purpose, keys);
    done.push(...result.uploaded.map((u) => u.record));
    await deps.localFiles.add(result.uploaded.map((u) => u.record.id));
    if (result.cancelled) {
      const message = done.length
        ? vscode.l10n.t('Upload cancelled after {0} of {1} files. No task was created.', done.length, files.length)
        : vscode.l10n.t('Upload cancelled. Nothing was created.');
      void vscode.window.showInformationMessage(message);
      if (done.length) deps.files.refresh();
      return undefined;
    }
    if (result.failed.length === 0) return done;
    for (const f of result.failed) deps.log.error(`Upload of ${f.file.path} failed: ${describeError(f.error)}`);
    const names = result.failed.map((f) => `${f.file.name} (${describeError(f.error)})`).join('; ');
    const retry = vscode.l10n.t('Retry Failed');
    const goOn = vscode.l10n.t('Continue Without Them');
    const choice = await vscode.window.showErrorMessage(
      vscode.l10n.t('{0} of {1} files could not be uploaded: {2}', result.failed.length, files.length, names),
      { modal: false },
      retry,
      ...(done.length ? [goOn] : []),
    );
    if (choice === retry) {
      pending = result.failed.map((f) => f.file);
      continue;
    }
    if (choice === goOn) return done;
    if (done.length) deps.files.refresh();
    return undefined;
  }
}

function runBatch(deps: CommandDeps, files: PlannedFile[], purpose: FilePurpose, keys: UploadKeys): Thenable<BatchResult> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Uploading to Agent Runtime'), cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      let reported = 0;
      try {
        return await uploadBatch(deps.session.client, files, purpose, {
          signal: controller.signal,
          keys,
          onProgress: (p) => {
            const fraction = p.totalBytes > 0 ? p.bytesDone / p.totalBytes : (p.fileIndex + 1) / p.fileCount;
            const increment = Math.max(0, fraction * 100 - reported);
            reported += increment;
            progress.report({
              increment,
              message: vscode.l10n.t('{0} of {1} files ({2} of {3}): {4}', p.fileIndex + 1, p.fileCount,
                formatBytes(p.bytesDone), formatBytes(p.totalBytes), p.file.name),
            });
          },
        });
      } finally {
        sub.dispose();
      }
    },
  );
}

async function createTaskWithAttachments(deps: CommandDeps, objective: string, files: { id: string }[]): Promise<TaskRecord | undefined> {
  // One key for every attempt: a retry after a lost answer can never create a second task.
  const idempotencyKey = randomUUID();
  const request = { objective, attachments: files.map((f) => ({ type: 'document' as const, fileId: f.id })) };
  let task: TaskRecord | undefined;
  while (!task) {
    try {
      task = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Creating the task...') },
        () => deps.session.client.createTask(request, { idempotencyKey }),
      );
    } catch (err) {
      if (isApiError(err, 'authentication')) throw err;
      deps.log.error(`Creating the task failed after uploading ${files.length} file(s): ${describeError(err)}`);
      const retry = vscode.l10n.t('Retry');
      const choice = await vscode.window.showErrorMessage(
        vscode.l10n.t('The files were uploaded, but the task could not be created: {0}', describeError(err)),
        retry,
      );
      if (choice !== retry) return undefined;
    }
  }
  deps.log.info(`Created ${task.id} with ${files.length} attachment(s)${task.run_id ? `, run ${task.run_id}` : ''}`);
  const watch = vscode.l10n.t('Watch Run');
  const runId = typeof task.run_id === 'string' ? task.run_id : undefined;
  void vscode.window
    .showInformationMessage(vscode.l10n.t('Task {0} created.', task.id), ...(runId ? [watch] : []))
    .then((choice) => {
      if (choice === watch && runId) void vscode.commands.executeCommand('agentRuntime.watchRun', { runId, objective });
    });
  // The sidebar catches up in the background: the user is not kept waiting for a tree reload.
  void deps.tasks.followNewTask(task).catch((err: unknown) => deps.log.warn(`Revealing ${task?.id}: ${describeError(err)}`));
  return task;
}

/** Create Task from the sidebar or palette: objective, then (optionally) attachments from uploaded files. */
async function createTaskFlow(deps: CommandDeps, preselected: { id: string; filename?: string }[], objective?: string): Promise<TaskRecord | undefined> {
  if (!(await deps.ensureSignedIn())) return undefined;
  objective ??= await askObjective(preselected.map((f) => ({ name: f.filename ?? f.id })));
  if (objective === undefined) return undefined;
  return createTaskWithAttachments(deps, objective, preselected);
}
