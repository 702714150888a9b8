// The main user story: upload workspace files (Explorer, editor, palette, drag and drop) and
// optionally attach them all to one new task, under one cancellable progress notification.
import * as vscode from 'vscode';
import { notify } from '../common/notify';
import { describeError, isApiError } from '../api/errors';
import { describeErrorForUser } from '../common/errorText';
import type { FilePurpose, FileRecord, TaskRecord } from '../api/types';
import { uploadBatch, type BatchResult, type UploadKeys } from '../upload/batchUpload';
import { type PlannedFile } from '../upload/uploadPlan';
import { formatBytes } from '../common/format';
import { urisOf } from './nodeArgs';
import { confirmUploadRequest } from './uploadConsent';
import { createTaskWithAttachments } from './createTaskCommands';
import { type CommandDeps } from './commandDeps';
import { askObjective, confirmAttachmentLimit, confirmPlan, localUri, pickFiles, pickPurpose, saveDirtyDocuments } from './uploadPrompts';
import { knownAttachmentLimit, rememberAttachmentLimit } from '../upload/attachmentLimits';
import { Commands } from '../common/ids';
import { recordUploads, stampFiles } from '../reviewUi/uploadOrigins';

interface Prefilled {
  objective?: string;
  purpose?: FilePurpose;
}

export function registerUploadCommands(deps: CommandDeps): vscode.Disposable[] {
  const { guard } = deps;
  return [
    // Menus pass (clicked, selected[]); the third argument lets tests and other extensions skip the prompts.
    vscode.commands.registerCommand(Commands.uploadFiles, guard('Upload', (clicked?: unknown, selected?: unknown, given?: Prefilled) =>
      uploadFlow(deps, urisOf(clicked, selected), { createTask: false, purpose: given?.purpose, promptsSkipped: given?.purpose !== undefined }))),
    vscode.commands.registerCommand(Commands.uploadAndCreateTask, guard('Upload and create task', (clicked?: unknown, selected?: unknown, given?: Prefilled) =>
      uploadFlow(deps, urisOf(clicked, selected), { createTask: true, objective: given?.objective, promptsSkipped: given?.objective !== undefined }))),
  ];
}

/** Uploads the given files (asking for them when none were given); returns the created task if any. */
export async function uploadFlow(
  deps: CommandDeps,
  uris: vscode.Uri[],
  options: { createTask: boolean; objective?: string; purpose?: FilePurpose; promptsSkipped?: boolean },
): Promise<TaskRecord | FileRecord[] | undefined> {
  if (!(await deps.ensureSignedIn())) return undefined;
  if (uris.length === 0) {
    uris = await pickFiles(options.createTask);
    if (uris.length === 0) return undefined; // the user closed the picker: nothing to say
  } else {
    const origin = { promptsSkipped: options.promptsSkipped === true, trustedAutomation: deps.trustedAutomation };
    if (!(await confirmUploadRequest(uris, deps.service.serviceUrl, origin))) return undefined;
  }
  uris = uris.map(localUri);
  if (!(await saveDirtyDocuments(uris))) return undefined;
  const confirmed = await confirmPlan(uris);
  if (!confirmed) return undefined;
  const { plan, followSymlinks } = confirmed;
  if (options.createTask && !(await confirmAttachmentLimit(plan.files.length, knownAttachmentLimit(deps.service.serviceUrl)))) return undefined;

  const objective = options.createTask ? options.objective ?? (await askObjective(plan.files)) : undefined;
  if (options.createTask && objective === undefined) return undefined;
  const purpose = options.createTask ? 'task_input' : options.purpose ?? (await pickPurpose(deps.settings().defaultPurpose));
  if (!purpose) return undefined;

  const uploaded = await uploadWithRetry(deps, plan.files, purpose, followSymlinks);
  if (!uploaded) return undefined;
  deps.files.refresh();
  if (!options.createTask || objective === undefined) {
    void notify.info(
      uploaded.length === 1
        ? vscode.l10n.t('Uploaded {0} as {1}.', uploaded[0].filename ?? uploaded[0].id, uploaded[0].id)
        : vscode.l10n.t('Uploaded {0} files.', uploaded.length),
    );
    return uploaded;
  }
  return createTaskWithAttachments(deps, objective, uploaded, (err) => tooManyAttachments(deps, err, uploaded));
}

/**
 * The service refused the task for its number of attachments: say its limit (remembered, so the
 * next selection that large is warned about before uploading) and offer to delete the files that
 * were uploaded for it. True when this was that failure.
 */
async function tooManyAttachments(deps: CommandDeps, err: unknown, uploaded: FileRecord[]): Promise<boolean> {
  if (!isApiError(err) || err.code !== 'too_many_attachments') return false;
  rememberAttachmentLimit(deps.service.serviceUrl, err.limit);
  const remove = vscode.l10n.t('Delete the {0} Uploaded Files', uploaded.length);
  const keep = vscode.l10n.t('Keep Them');
  const choice = await notify.error(
    err.limit !== undefined
      ? vscode.l10n.t('The task was not created: this service accepts at most {0} attachments per task, and {1} files were uploaded for it.', err.limit, uploaded.length)
      : vscode.l10n.t('The task was not created: this service accepts fewer attachments per task than the {0} files uploaded for it.', uploaded.length),
    remove,
    keep,
  );
  if (choice !== remove) return true;
  let failed = 0;
  for (const file of uploaded) {
    try {
      await deps.service.client.deleteFile(file.id);
      await deps.localFiles.remove(file.id);
    } catch (deleteErr) {
      failed++;
      deps.log.error(`Deleting ${file.id} after the refused task failed: ${describeError(deleteErr)}`);
    }
  }
  deps.files.refresh();
  void (failed === 0
    ? notify.info(vscode.l10n.t('Deleted the {0} uploaded files.', uploaded.length))
    : notify.error(vscode.l10n.t('{0} of the {1} uploaded files could not be deleted; see the log.', failed, uploaded.length)));
  return true;
}

/** Runs the batch under one progress notification; offers to retry the failures. Undefined when cancelled. */
async function uploadWithRetry(deps: CommandDeps, files: PlannedFile[], purpose: FilePurpose, followSymlinks: boolean): Promise<FileRecord[] | undefined> {
  const done: FileRecord[] = [];
  const keys: UploadKeys = new Map();
  let pending = files;
  for (;;) {
    const stamps = await stampFiles(pending.map((f) => f.path));
    const result = await runBatch(deps, pending, purpose, keys, followSymlinks);
    done.push(...result.uploaded.map((u) => u.record));
    await recordUploads(deps.localFiles, result.uploaded, stamps);
    if (result.cancelled) {
      const message = done.length
        ? vscode.l10n.t('Upload cancelled after {0} of {1} files. No task was created.', done.length, files.length)
        : vscode.l10n.t('Upload cancelled. Nothing was created.');
      void notify.info(message);
      if (done.length) deps.files.refresh();
      return undefined;
    }
    if (result.failed.length === 0) return done;
    for (const f of result.failed) deps.log.error(`Upload of ${f.file.path} failed: ${describeError(f.error)}`);
    const names = result.failed.map((f) => `${f.file.name} (${describeErrorForUser(f.error)})`).join('; ');
    const retry = vscode.l10n.t('Retry Failed');
    const goOn = vscode.l10n.t('Continue Without Them');
    const choice = await notify.error(
      vscode.l10n.t('{0} of {1} files could not be uploaded: {2}', result.failed.length, files.length, names),
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

function runBatch(deps: CommandDeps, files: PlannedFile[], purpose: FilePurpose, keys: UploadKeys, followSymlinks: boolean): Thenable<BatchResult> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Uploading to Agent Runtime'), cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      let reported = 0;
      try {
        return await uploadBatch(deps.service.client, files, purpose, {
          signal: controller.signal,
          keys,
          followSymlinks,
          onProgress: (p) => {
            const fraction = p.totalBytes > 0 ? p.bytesDone / p.totalBytes : (p.fileIndex + 1) / p.fileCount;
            const increment = Math.max(0, fraction * 100 - reported);
            reported += increment;
            progress.report({
              increment,
              message: vscode.l10n.t('{0} of {1} files ({2} of {3}): {4}', p.fileIndex + 1, p.fileCount,
                formatBytes(p.bytesDone) ?? '?', formatBytes(p.totalBytes) ?? '?', p.file.name),
            });
          },
        });
      } finally {
        sub.dispose();
      }
    },
  );
}
