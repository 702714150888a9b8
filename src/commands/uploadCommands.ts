// The main user story: upload workspace files (Explorer, editor, palette, drag and drop) and
// optionally attach them all to one new task, under one cancellable progress notification.
import * as vscode from 'vscode';
import { notify } from '../common/notify';
import { describeError } from '../api/errors';
import { describeErrorForUser } from '../common/errorText';
import type { FilePurpose, FileRecord, TaskRecord } from '../api/types';
import { uploadBatch, type BatchResult, type UploadKeys } from '../upload/batchUpload';
import { type PlannedFile } from '../upload/uploadPlan';
import { formatBytes } from '../common/format';
import { urisOf } from './nodeArgs';
import { confirmUploadRequest } from './uploadConsent';
import { createTaskWithAttachments } from './createTaskCommands';
import { type CommandDeps } from './commandDeps';
import { askObjective, confirmPlan, localUri, pickFiles, pickPurpose, saveDirtyDocuments } from './uploadPrompts';
import { Commands } from '../common/ids';

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
  const nonLocal = uris.filter((u) => u.scheme !== 'file');
  if (nonLocal.length > 0) {
    void notify.error(vscode.l10n.t('Only files on disk can be uploaded ({0} is not).', nonLocal[0].toString(true)));
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
    void notify.info(
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

function runBatch(deps: CommandDeps, files: PlannedFile[], purpose: FilePurpose, keys: UploadKeys): Thenable<BatchResult> {
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
