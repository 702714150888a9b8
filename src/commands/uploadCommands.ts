// The main user story: upload workspace files (Explorer, editor, palette, drag and drop) and
// optionally attach them all to one new task, under one cancellable progress notification.
import * as vscode from 'vscode';
import { isAbort, isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import { type FilePurpose, type FileRecord, MAX_UPLOAD_BYTES, type TaskRecord } from '../api/types';
import type { BudgetChoice, BudgetRequester } from '../commandSupport/budgetChoice';
import { type CommandDeps } from '../commandSupport/commandDeps';
import { describeErrorForUser } from '../commandSupport/errorText';
import { urisOf } from '../commandSupport/nodeArgs';
import { formatBytes } from '../common/format';
import { Commands } from '../common/ids';
import { notify } from '../common/notify';
import { isSingular } from '../common/vscodeTranslate';
import { type ArchiveUploadProgress, uploadArchive } from '../upload/archiveUpload';
import { knownAttachmentLimit, rememberAttachmentLimit } from '../upload/attachmentLimits';
import { type BatchResult, uploadBatch, type UploadKeys } from '../upload/batchUpload';
import { estimateArchiveBytes, utf8Bytes } from '../upload/uploadChoice';
import { deleteUploaded } from '../upload/uploadCleanup';
import { type PlannedFile } from '../upload/uploadPlan';
import { createTaskWithAttachments } from './createTaskCommands';
import { confirmUploadRequest } from './uploadConsent';
import { recordUploads, stampFiles } from './uploadOriginRecord';
import {
  askObjective,
  askUploadShape,
  confirmPlan,
  localUri,
  pickFiles,
  pickPurpose,
  saveDirtyDocuments,
} from './uploadPrompts';

interface Prefilled {
  objective?: string;
  purpose?: FilePurpose;
}

export function registerUploadCommands(deps: CommandDeps): vscode.Disposable[] {
  const { guard } = deps;
  return [
    // Menus pass (clicked, selected[]); the third argument lets tests and other extensions skip the prompts.
    vscode.commands.registerCommand(
      Commands.uploadFiles,
      guard('Upload', (clicked?: unknown, selected?: unknown, given?: Prefilled) =>
        uploadFlow(deps, urisOf(clicked, selected), {
          createTask: false,
          purpose: given?.purpose,
          promptsSkipped: given?.purpose !== undefined,
        }),
      ),
    ),
    vscode.commands.registerCommand(
      Commands.uploadAndCreateTask,
      guard('Upload and create task', (clicked?: unknown, selected?: unknown, given?: Prefilled) =>
        uploadFlow(deps, urisOf(clicked, selected), {
          createTask: true,
          objective: given?.objective,
          promptsSkipped: given?.objective !== undefined,
        }),
      ),
    ),
  ];
}

/** Uploads the given files (asking for them when none were given); returns the created task if any. */
export async function uploadFlow(
  deps: CommandDeps,
  uris: vscode.Uri[],
  options: {
    createTask: boolean;
    objective?: string;
    purpose?: FilePurpose;
    promptsSkipped?: boolean;
    /** Who asks for the task (default a person): decides how its cap is chosen. */
    requester?: BudgetRequester;
  },
): Promise<TaskRecord | FileRecord[] | undefined> {
  if (!(await deps.ensureSignedIn())) {
    return undefined;
  }
  if (uris.length === 0) {
    uris = await pickFiles(options.createTask);
    if (uris.length === 0) {
      return undefined;
    } // the user closed the picker: nothing to say
  } else {
    const origin = { promptsSkipped: options.promptsSkipped === true, trustedAutomation: deps.trustedAutomation };
    if (!(await confirmUploadRequest(uris, deps.service.serviceUrl, origin))) {
      return undefined;
    }
  }
  uris = uris.map(localUri);
  if (!(await saveDirtyDocuments(uris))) {
    return undefined;
  }
  const confirmed = await confirmPlan(uris);
  if (!confirmed) {
    return undefined;
  }
  const { plan, followSymlinks } = confirmed;
  const shape = await askUploadShape(plan, options.createTask, knownAttachmentLimit(deps.service.serviceUrl));
  if (shape === undefined) {
    return undefined;
  }

  const objective = options.createTask ? (options.objective ?? (await askObjective(plan.files))) : undefined;
  if (options.createTask && objective === undefined) {
    return undefined;
  }
  // The cap is chosen before anything is sent: a task stopped at the monthly limit uploads nothing.
  const cap: BudgetChoice = options.createTask ? await deps.budgets.choose(options.requester ?? 'person') : {};
  if (cap.refused !== undefined) {
    deps.log.info(`Nothing was uploaded: ${cap.refused}`);
    return undefined;
  }
  const purpose = options.createTask
    ? 'task_input'
    : (options.purpose ?? (await pickPurpose(deps.settings().defaultPurpose)));
  if (!purpose) {
    return undefined;
  }

  const uploaded =
    shape === 'archive'
      ? await uploadAsArchive(deps, plan.files, purpose, followSymlinks)
      : await uploadWithRetry(deps, plan.files, purpose, followSymlinks, options.createTask);
  if (!uploaded) {
    return undefined;
  }
  deps.files.refresh();
  if (!options.createTask || objective === undefined) {
    void notify.info(
      uploaded.length === 1
        ? vscode.l10n.t('Uploaded {0} as {1}.', uploaded[0].filename ?? uploaded[0].id, uploaded[0].id)
        : vscode.l10n.t('Uploaded {0} files.', uploaded.length),
    );
    return uploaded;
  }
  const archiveFits =
    shape === 'separate' &&
    plan.files.length > 1 &&
    estimateArchiveBytes({
      fileCount: plan.files.length,
      totalBytes: plan.totalBytes,
      nameBytes: plan.files.reduce((n, f) => n + utf8Bytes(f.name), 0),
    }) <= MAX_UPLOAD_BYTES;
  const task = await attachOrCleanUp(deps, objective, uploaded, archiveFits, cap);
  if (task !== 'pack') {
    return task;
  }
  // Refused for the number of attachments, and the separate uploads deleted: the same files as one archive.
  const archive = await uploadAsArchive(deps, plan.files, purpose, followSymlinks);
  if (!archive) {
    return undefined;
  }
  deps.files.refresh();
  const packed = await attachOrCleanUp(deps, objective, archive, false, cap);
  return packed === 'pack' ? undefined : packed;
}

/**
 * Creates the task with the uploaded files; when none comes of it, offers the cleanup. 'pack':
 * the service refused the number of attachments and the user chose to delete the files and
 * send them as one archive instead (offered when `canPack`).
 */
async function attachOrCleanUp(
  deps: CommandDeps,
  objective: string,
  uploaded: FileRecord[],
  canPack: boolean,
  cap: BudgetChoice,
): Promise<TaskRecord | 'pack' | undefined> {
  let refusal: string | undefined;
  const task = await createTaskWithAttachments(
    deps,
    objective,
    uploaded,
    async (err) => {
      // Refused for its number of attachments: a retry fails the same way, so none is offered.
      if (!isApiError(err) || err.code !== 'too_many_attachments') {
        return false;
      }
      rememberAttachmentLimit(deps.service.serviceUrl, err.limit);
      refusal =
        err.limit !== undefined
          ? vscode.l10n.t(
              'The task was not created: this service accepts at most {0} attachments per task, and {1} files were uploaded for it.',
              err.limit,
              uploaded.length,
            )
          : vscode.l10n.t(
              'The task was not created: this service accepts fewer attachments per task than the {0} files uploaded for it.',
              uploaded.length,
            );
      return true;
    },
    cap,
  );
  if (task) {
    return task;
  }
  const pack = canPack && refusal !== undefined ? vscode.l10n.t('Delete Them and Pack into One Archive') : undefined;
  const choice = await offerCleanup(deps, uploaded, refusal ?? leftStored(uploaded.length), pack);
  return choice === 'other' ? 'pack' : undefined;
}

/**
 * The one way out of every upload that did not become a task (cancelled, files failed, the task
 * refused or given up): say so and offer to delete exactly the files uploaded for it. `otherWay`,
 * when given, is one more button that also deletes them first ('other' when chosen).
 */
async function offerCleanup(
  deps: CommandDeps,
  uploaded: readonly FileRecord[],
  message: string,
  otherWay?: string,
): Promise<'deleted' | 'other' | undefined> {
  if (uploaded.length === 0) {
    void notify.info(message);
    return undefined;
  }
  deps.files.refresh();
  const remove = vscode.l10n.t('Delete the {0} Uploaded Files', uploaded.length);
  const keep = vscode.l10n.t('Keep Them');
  const choice = await notify.error(message, ...(otherWay !== undefined ? [otherWay] : []), remove, keep);
  if (choice !== remove && (otherWay === undefined || choice !== otherWay)) {
    return undefined;
  }
  const result = await deleteUploaded(
    deps.service.client,
    uploaded.map((f) => f.id),
    (id) => deps.localFiles.remove(id),
  );
  for (const f of result.failed) {
    deps.log.error(`Deleting ${f.id} after the upload that made no task failed: ${describeError(f.error)}`);
  }
  deps.files.refresh();
  if (result.failed.length > 0) {
    void notify.error(
      vscode.l10n.t(
        '{0} of the {1} uploaded files could not be deleted; see the log.',
        result.failed.length,
        uploaded.length,
      ),
    );
  } else if (choice === remove) {
    void notify.info(vscode.l10n.t('Deleted the {0} uploaded files.', result.deleted.length));
  }
  return choice === remove ? 'deleted' : 'other';
}

/** Packs the files into one zip and sends it under one cancellable progress. Undefined when it did not go. */
async function uploadAsArchive(
  deps: CommandDeps,
  files: PlannedFile[],
  purpose: FilePurpose,
  followSymlinks: boolean,
): Promise<FileRecord[] | undefined> {
  for (;;) {
    try {
      const archive = await withUploadProgress((signal, report) =>
        uploadArchive(deps.service.client, files, purpose, {
          signal,
          followSymlinks,
          onProgress: (p: ArchiveUploadProgress) =>
            report(
              p.phase === 'pack' ? p.bytesDone / 2 : (p.totalBytes + p.bytesDone) / 2,
              p.totalBytes,
              p.phase === 'pack'
                ? vscode.l10n.t(
                    'Packing {0} of {1} files · {2} of {3}',
                    p.filesDone,
                    p.fileCount,
                    formatBytes(p.bytesDone) ?? '?',
                    formatBytes(p.totalBytes) ?? '?',
                  )
                : vscode.l10n.t(
                    'Sending the archive · {0} of {1}',
                    formatBytes(p.bytesDone) ?? '?',
                    formatBytes(p.totalBytes) ?? '?',
                  ),
            ),
        }),
      );
      deps.log.info(
        `Uploaded ${files.length} file(s) as ${archive.filename} (${archive.bytes} bytes): ${archive.record.id}`,
      );
      // Listed like any upload (the Files view of a server without a file list); no origin: an
      // archive is no workspace file an artifact could revise.
      // The archive is on the server whatever happens to the local list: never retried for that.
      await Promise.resolve(deps.localFiles.add([archive.record.id])).catch((err: unknown) =>
        deps.log.warn(`The local upload list could not record ${archive.record.id}: ${describeError(err)}`),
      );
      return [archive.record];
    } catch (err) {
      if (isAbort(err)) {
        void notify.info(vscode.l10n.t('Upload cancelled. Nothing was created.'));
        return undefined;
      }
      deps.log.error(`Uploading ${files.length} file(s) as one archive failed: ${describeError(err)}`);
      const retry = vscode.l10n.t('Retry');
      if (
        (await notify.error(
          vscode.l10n.t('The archive could not be uploaded: {0}', describeErrorForUser(err)),
          retry,
        )) !== retry
      ) {
        return undefined;
      }
    }
  }
}

/** Turns a fraction done into the increments VS Code's progress wants, with a message. */
function progressReporter(
  progress: vscode.Progress<{ message?: string; increment?: number }>,
): (done: number, total: number, message: string) => void {
  let reported = 0;
  let lastMessageAt = 0;
  return (done, total, message) => {
    const percent = total > 0 ? Math.min(100, (done / total) * 100) : 0;
    const increment = Math.max(0, percent - reported);
    const now = Date.now();
    // Thousands of small files report thousands of times a second; the notification needs a few.
    if (now - lastMessageAt < 100 && percent < 100) {
      return;
    }
    lastMessageAt = now;
    reported += increment;
    progress.report({ increment, message });
  };
}

/** Runs the batch under one progress notification; offers to retry the failures. Undefined when cancelled. */
async function uploadWithRetry(
  deps: CommandDeps,
  files: PlannedFile[],
  purpose: FilePurpose,
  followSymlinks: boolean,
  forTask: boolean,
): Promise<FileRecord[] | undefined> {
  const done: FileRecord[] = [];
  const keys: UploadKeys = new Map();
  let pending = files;
  for (;;) {
    const stamps = await stampFiles(pending.map((f) => f.path));
    const result = await runBatch(deps, pending, purpose, keys, followSymlinks);
    for (const u of result.uploaded) {
      done.push(u.record);
    }
    await recordUploads(deps.localFiles, result.uploaded, stamps);
    if (result.cancelled) {
      await offerCleanup(
        deps,
        done,
        done.length
          ? forTask
            ? vscode.l10n.t('Upload cancelled after {0} of {1} files. No task was created.', done.length, files.length)
            : vscode.l10n.t('Upload cancelled after {0} of {1} files.', done.length, files.length)
          : vscode.l10n.t('Upload cancelled. Nothing was created.'),
      );
      return undefined;
    }
    if (result.failed.length === 0) {
      return done;
    }
    for (const f of result.failed) {
      deps.log.error(`Upload of ${f.file.path} failed: ${describeError(f.error)}`);
    }
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
    if (choice === goOn) {
      return done;
    }
    if (forTask) {
      await offerCleanup(deps, done, leftStored(done.length));
    } else if (done.length) {
      deps.files.refresh();
    }
    return undefined;
  }
}

function runBatch(
  deps: CommandDeps,
  files: PlannedFile[],
  purpose: FilePurpose,
  keys: UploadKeys,
  followSymlinks: boolean,
): Thenable<BatchResult> {
  return withUploadProgress((signal, report) =>
    uploadBatch(deps.service.client, files, purpose, {
      signal,
      keys,
      followSymlinks,
      onProgress: (p) =>
        report(
          p.totalBytes > 0 ? p.bytesDone : p.filesDone,
          p.totalBytes > 0 ? p.totalBytes : p.fileCount,
          vscode.l10n.t(
            '{0} of {1} files · {2} of {3}',
            p.filesDone,
            p.fileCount,
            formatBytes(p.bytesDone) ?? '?',
            formatBytes(p.totalBytes) ?? '?',
          ),
        ),
    }),
  );
}

/** One cancellable "Uploading" notification: Cancel aborts the requests in flight. */
function withUploadProgress<T>(
  run: (signal: AbortSignal, report: (done: number, total: number, message: string) => void) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Uploading to Agent Runtime'),
      cancellable: true,
    },
    async (progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        return await run(controller.signal, progressReporter(progress));
      } finally {
        sub.dispose();
      }
    },
  );
}

/** "No task was created; the N files uploaded for it are still stored." in its singular or plural form. */
function leftStored(count: number): string {
  return isSingular(count)
    ? vscode.l10n.t('No task was created; the file uploaded for it is still stored.')
    : vscode.l10n.t('No task was created; the {0} files uploaded for it are still stored.', count);
}
