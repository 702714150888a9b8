// The questions the upload flows ask before anything is sent: which files, what purpose, what
// objective, whether to expand folders, save unsaved edits, follow symbolic links, go on without
// refused files, and whether to pack a large selection into one archive.
import * as vscode from 'vscode';
import { FILE_PURPOSES, type FilePurpose } from '../api/types';
import { formatBytes } from '../common/format';
import { askModal, notify } from '../common/notify';
import { isSingular } from '../common/vscodeTranslate';
import { basename, HOST_HAS_DISK } from '../upload/pathNames';
import { confirmFolderFiles, leaveOutSecrets } from '../upload/sentFilesPrompts';
import { chooseUploadShape, utf8Bytes } from '../upload/uploadChoice';
import { namesAcrossRoots } from '../upload/uploadNames';
import { type PlannedFile, planUpload, type UploadPlan } from '../upload/uploadPlan';
import { MAX_IN_MEMORY_BYTES, mergePlans, plannedUri, planVirtualUpload } from '../upload/workspaceFiles';

export async function askObjective(files: { name: string }[]): Promise<string | undefined> {
  const names =
    files
      .slice(0, 3)
      .map((f) => f.name)
      .join(', ') + (files.length > 3 ? ', ...' : '');
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

export async function pickPurpose(preferred: FilePurpose): Promise<FilePurpose | undefined> {
  const items = [preferred, ...FILE_PURPOSES.filter((p) => p !== preferred)].map((p) => ({
    label: p,
    description: p === preferred ? vscode.l10n.t('default') : undefined,
    detail: purposeDetail(p),
  }));
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Upload as...'),
    placeHolder: vscode.l10n.t('Purpose of the upload'),
  });
  return pick?.label;
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

export async function pickFiles(forTask: boolean): Promise<vscode.Uri[]> {
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

export interface ConfirmedPlan {
  plan: UploadPlan;
  /** The user agreed to send the targets of the selected symbolic links (still in the plan). */
  followSymlinks: boolean;
}

/**
 * Plans the batch (files on this machine's disk streamed, others read through workspace.fs);
 * refuses (with the reasons) what cannot go; asks before following symbolic links; names files
 * apart across workspace folders; leaves out files that look like secrets unless ticked; lists a
 * folder upload's files by name before anything is sent.
 */
export async function confirmPlan(uris: readonly vscode.Uri[]): Promise<ConfirmedPlan | undefined> {
  const paths = uris.filter((u) => u.scheme === 'file').map((u) => u.fsPath);
  const virtual = await planVirtualUpload(uris.filter((u) => u.scheme !== 'file'));
  // Folders are expanded on this machine only (bounded by MAX_FILES_PER_BATCH); nothing is sent
  // before the person has seen the files by name (confirmFolderFiles below).
  const disk = await planUpload(paths, { expandFolders: true });
  let plan = mergePlans(disk, virtual);
  if (plan.refused.length > 0) {
    const reasons = plan.refused.map((r) => `${displayName(r.path)}: ${refusalText(r.reason, r.detail)}`).join('; ');
    if (plan.files.length === 0) {
      void notify.error(vscode.l10n.t('Nothing can be uploaded. {0}', reasons));
      return undefined;
    }
    const goOn = vscode.l10n.t('Upload the Others');
    const choice = await askModal(
      'warn',
      vscode.l10n.t('{0} of the selected files cannot be uploaded: {1}', plan.refused.length, reasons),
      [],
      goOn,
    );
    if (choice !== goOn) {
      return undefined;
    }
  }
  const linked = await confirmSymlinks(plan.files);
  if (linked === undefined) {
    return undefined;
  }
  if (!linked) {
    plan = withoutLinks(plan);
  }
  const folders = vscode.workspace.workspaceFolders ?? [];
  plan = {
    ...plan,
    files: namesAcrossRoots(
      plan.files,
      (f) => vscode.workspace.getWorkspaceFolder(plannedUri(f))?.name,
      folders.length,
    ),
  };
  const screened = await leaveOutSecrets(plan);
  if (screened === undefined) {
    return undefined;
  }
  plan = screened.plan;
  if (plan.files.length === 0) {
    void notify.error(
      screened.leftOut.length > 0
        ? isSingular(screened.leftOut.length)
          ? vscode.l10n.t('Nothing was uploaded: the file that looks like a secret was left out.')
          : vscode.l10n.t(
              'Nothing was uploaded: the {0} files that look like secrets were left out.',
              screened.leftOut.length,
            )
        : vscode.l10n.t('Nothing was selected to upload.'),
    );
    return undefined;
  }
  if (disk.folders.length > 0 && !(await confirmFolderFiles(plan, screened.leftOut))) {
    return undefined;
  }
  return { plan, followSymlinks: linked };
}

/**
 * A selected symbolic link may point anywhere (a key file, another project): the user sees each
 * real target and decides. True: send the targets; false: leave the links out (said so);
 * undefined: cancelled.
 */
async function confirmSymlinks(files: readonly PlannedFile[]): Promise<boolean | undefined> {
  const links = files.filter((f) => f.symlinkTarget !== undefined);
  if (links.length === 0) {
    return true;
  }
  const follow = vscode.l10n.t('Upload the Targets');
  const skip = vscode.l10n.t('Leave the Links Out');
  const lines = links.map((f) => `${basename(f.path)} -> ${f.symlinkTarget ?? ''}`);
  const choice = await askModal(
    'warn',
    vscode.l10n.t('{0} of the selected files are symbolic links. Upload the files they point to?', links.length),
    lines,
    follow,
    skip,
  );
  if (choice === follow) {
    return true;
  }
  if (choice !== skip) {
    return undefined;
  }
  void notify.info(
    isSingular(links.length)
      ? vscode.l10n.t('1 symbolic link left out: {0}', links.map((f) => basename(f.path)).join(', '))
      : vscode.l10n.t('{0} symbolic links left out: {1}', links.length, links.map((f) => basename(f.path)).join(', ')),
  );
  return false;
}

function withoutLinks(plan: UploadPlan): UploadPlan {
  const files = plan.files.filter((f) => f.symlinkTarget === undefined);
  return { ...plan, files, totalBytes: files.reduce((n, f) => n + f.bytes, 0) };
}

/**
 * Before anything is sent: a selection over the service's attachment limit, or a large one, is
 * offered as one archive (the folder structure kept) or file by file where that fits.
 * Undefined: cancelled (or refused, said so).
 */
export async function askUploadShape(
  plan: UploadPlan,
  forTask: boolean,
  attachmentLimit: number | undefined,
): Promise<'archive' | 'separate' | undefined> {
  const nameBytes = plan.files.reduce((n, f) => n + utf8Bytes(f.name), 0);
  const count = plan.files.length;
  const choice = chooseUploadShape({
    fileCount: count,
    totalBytes: plan.totalBytes,
    nameBytes,
    forTask,
    attachmentLimit,
  });
  if (choice.kind === 'separate') {
    return 'separate';
  }
  if (choice.kind === 'refuse') {
    void notify.error(
      vscode.l10n.t(
        'This service accepts at most {0} attachments per task, and {1} files are selected; packed into one archive they would pass the 512 MB limit. Select fewer files.',
        choice.limit,
        count,
      ),
    );
    return undefined;
  }
  const size = formatBytes(plan.totalBytes) ?? '?';
  const pack = vscode.l10n.t('Pack into One Archive ({0} files, {1})', count, size);
  const separate = vscode.l10n.t('Upload {0} Files Separately', count);
  const message =
    choice.overLimit && attachmentLimit !== undefined
      ? vscode.l10n.t(
          'This service accepts at most {0} attachments per task, and {1} files are selected. Pack them into one zip archive (folders kept) to attach them?',
          attachmentLimit,
          count,
        )
      : vscode.l10n.t(
          '{0} files are selected ({1}). Pack them into one zip archive (folders kept), or upload each file on its own?',
          count,
          size,
        );
  const answer = await askModal('warn', message, [], pack, ...(choice.separate ? [separate] : []));
  return answer === pack ? 'archive' : answer === separate ? 'separate' : undefined;
}

function displayName(planned: string): string {
  // A planned path is a disk path, or the URI of a file outside the disk (scheme of 2+ letters,
  // so a Windows drive letter is not one).
  return /^[a-z][a-z0-9+.-]+:/i.test(planned) ? basename(vscode.Uri.parse(planned, true).path) : basename(planned);
}

function refusalText(reason: string, detail: string): string {
  switch (reason) {
    case 'too_large':
      return vscode.l10n.t('larger than the 512 MB limit ({0} bytes)', detail);
    case 'too_large_in_memory':
      return vscode.l10n.t(
        "larger than {0} MB, the limit for files that are not on this machine's disk ({1} bytes)",
        MAX_IN_MEMORY_BYTES / (1024 * 1024),
        detail,
      );
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
 * beside those files, so they are plain files here. Every other scheme (a virtual workspace, a
 * file system another extension registers) is read through vscode.workspace.fs.
 */
export function localUri(uri: vscode.Uri): vscode.Uri {
  return uri.scheme === 'vscode-remote' && HOST_HAS_DISK ? vscode.Uri.file(uri.path) : uri;
}

/** Unsaved edits would not be in what we upload: save them first, or say we upload the saved version. */
export async function saveDirtyDocuments(uris: vscode.Uri[]): Promise<boolean> {
  const wanted = new Set(uris.map((u) => u.toString()));
  const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty && wanted.has(d.uri.toString()));
  if (dirty.length === 0) {
    return true;
  }
  const save = vscode.l10n.t('Save and Upload');
  const asIs = vscode.l10n.t('Upload Saved Version');
  const names = dirty.map((d) => basename(d.uri.path)).join(', ');
  const choice = await askModal(
    'warn',
    vscode.l10n.t('{0} has unsaved changes. Save before uploading?', names),
    [],
    save,
    asIs,
  );
  if (choice === save) {
    return (await Promise.all(dirty.map((d) => d.save()))).every(Boolean);
  }
  return choice === asIs;
}
