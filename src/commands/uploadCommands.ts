// The main user story: upload workspace files (Explorer, editor, palette, drag and drop) and
// optionally attach them all to one new task, under one cancellable progress notification.
import * as path from 'path';
import * as vscode from 'vscode';
import { describeError, isApiError } from '../api/errors';
import { FILE_PURPOSES, FilePurpose, FileRecord, TaskRecord } from '../api/types';
import { randomUUID } from 'crypto';
import { uploadBatch, BatchResult, UploadKeys } from '../upload/batchUpload';
import { MAX_FILES_PER_BATCH, PlannedFile, planUpload, UploadPlan } from '../upload/uploadPlan';
import { formatBytes } from './format';
import { fileOf, selectionOf, urisOf } from './nodeArgs';
import { CommandDeps } from './commandDeps';

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
  const purpose = options.createTask ? 'task_input' : options.purpose ?? (await pickPurpose(deps));
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
  void deps.tasks.revealTask(task).catch((err: unknown) => deps.log.warn(`Revealing ${task?.id}: ${describeError(err)}`));
  return task;
}

/** Create Task from the sidebar or palette: objective, then (optionally) attachments from uploaded files. */
async function createTaskFlow(deps: CommandDeps, preselected: { id: string; filename?: string }[], objective?: string): Promise<TaskRecord | undefined> {
  if (!(await deps.ensureSignedIn())) return undefined;
  objective ??= await askObjective(preselected.map((f) => ({ name: f.filename ?? f.id })));
  if (objective === undefined) return undefined;
  return createTaskWithAttachments(deps, objective, preselected);
}

async function askObjective(files: { name: string }[]): Promise<string | undefined> {
  const names = files.slice(0, 3).map((f) => f.name).join(', ') + (files.length > 3 ? ', ...' : '');
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('New Agent Runtime Task'),
    prompt: files.length
      ? vscode.l10n.t('What should the agent do with {0}?', names)
      : vscode.l10n.t('What should the agent do?'),
    placeHolder: vscode.l10n.t('e.g. Summarise these documents and list open questions'),
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Describe the work in a few words.')),
  });
  return value?.trim() || undefined;
}

async function pickPurpose(deps: CommandDeps): Promise<FilePurpose | undefined> {
  const preferred = deps.settings().defaultPurpose;
  const items = [preferred, ...FILE_PURPOSES.filter((p) => p !== preferred)].map((p) => ({
    label: p,
    description: p === preferred ? vscode.l10n.t('default') : undefined,
    detail: purposeDetail(p),
  }));
  const pick = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Upload as...'), placeHolder: vscode.l10n.t('Purpose of the upload') });
  return pick?.label as FilePurpose | undefined;
}

function purposeDetail(purpose: FilePurpose): string {
  switch (purpose) {
    case 'task_input':
      return vscode.l10n.t('Input for a task you are about to create');
    case 'dataset':
      return vscode.l10n.t('Data a task may process');
    default:
      return vscode.l10n.t('Background material for tasks');
  }
}

async function pickFiles(forTask: boolean): Promise<vscode.Uri[]> {
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: true,
    canSelectFiles: true,
    canSelectFolders: false,
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    openLabel: forTask ? vscode.l10n.t('Upload and Attach') : vscode.l10n.t('Upload'),
    title: vscode.l10n.t('Files to upload to Agent Runtime'),
  });
  return picked ?? [];
}

/** Plans the batch; asks before expanding folders; refuses (with the reasons) what cannot go. */
async function confirmPlan(paths: string[]): Promise<UploadPlan | undefined> {
  let plan = await planUpload(paths, { expandFolders: false });
  if (plan.folders.length > 0) {
    const count = plan.folders.reduce((n, f) => n + f.fileCount, 0);
    const upload = vscode.l10n.t('Upload {0} Files', count);
    const choice = await vscode.window.showWarningMessage(
      plan.truncated
        ? vscode.l10n.t('The selection includes {0} folder(s) with more than {1} files. Only the first {1} (.git and node_modules skipped) would be uploaded. Go on?', plan.folders.length, MAX_FILES_PER_BATCH)
        : vscode.l10n.t('The selection includes {0} folder(s) holding {1} file(s) (.git and node_modules skipped). Upload every file in them?', plan.folders.length, count),
      { modal: true },
      upload,
    );
    if (choice !== upload) return undefined;
    plan = await planUpload(paths, { expandFolders: true });
  }
  if (plan.refused.length > 0) {
    const reasons = plan.refused.map((r) => `${path.basename(r.path)}: ${refusalText(r.reason, r.detail)}`).join('; ');
    if (plan.files.length === 0) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Nothing can be uploaded. {0}', reasons));
      return undefined;
    }
    const goOn = vscode.l10n.t('Upload the Others');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('{0} of the selected files cannot be uploaded: {1}', plan.refused.length, reasons),
      { modal: true },
      goOn,
    );
    if (choice !== goOn) return undefined;
  }
  if (plan.files.length === 0) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Nothing was selected to upload.'));
    return undefined;
  }
  return plan;
}

function refusalText(reason: string, detail: string): string {
  switch (reason) {
    case 'too_large':
      return vscode.l10n.t('larger than the 512 MB limit ({0} bytes)', detail);
    case 'unreadable':
      return vscode.l10n.t('cannot be read ({0})', detail);
    case 'empty_folder':
      return vscode.l10n.t('empty folder');
    default:
      return vscode.l10n.t('not a file');
  }
}

/**
 * In a remote window the Explorer may hand over `vscode-remote:` URIs; the extension host runs
 * beside those files, so they are plain files here.
 */
function localUri(uri: vscode.Uri): vscode.Uri {
  return uri.scheme === 'vscode-remote' ? vscode.Uri.file(uri.path) : uri;
}

/** Unsaved edits would not be in what we upload: save them first, or say we upload the saved version. */
async function saveDirtyDocuments(uris: vscode.Uri[]): Promise<boolean> {
  const wanted = new Set(uris.map((u) => u.fsPath));
  const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file' && wanted.has(d.uri.fsPath));
  if (dirty.length === 0) return true;
  const save = vscode.l10n.t('Save and Upload');
  const asIs = vscode.l10n.t('Upload Saved Version');
  const names = dirty.map((d) => path.basename(d.uri.fsPath)).join(', ');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('{0} has unsaved changes. Save before uploading?', names),
    { modal: true },
    save,
    asIs,
  );
  if (choice === save) return (await Promise.all(dirty.map((d) => d.save()))).every(Boolean);
  return choice === asIs;
}
