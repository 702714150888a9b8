// The questions the upload flows ask before anything is sent: which files, what purpose, what
// objective, whether to expand folders, save unsaved edits, and go on without refused files.
import * as path from 'path';
import * as vscode from 'vscode';
import { askModal, notify } from '../common/notify';
import { FILE_PURPOSES, type FilePurpose } from '../api/types';
import { MAX_FILES_PER_BATCH, planUpload, type UploadPlan } from '../upload/uploadPlan';

export async function askObjective(files: { name: string }[]): Promise<string | undefined> {
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

export async function pickPurpose(preferred: FilePurpose): Promise<FilePurpose | undefined> {
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

/** Plans the batch; asks before expanding folders; refuses (with the reasons) what cannot go. */
export async function confirmPlan(paths: string[]): Promise<UploadPlan | undefined> {
  let plan = await planUpload(paths, { expandFolders: false });
  if (plan.folders.length > 0) {
    const count = plan.folders.reduce((n, f) => n + f.fileCount, 0);
    const upload = vscode.l10n.t('Upload {0} Files', count);
    const choice = await askModal('warn',
      plan.truncated
        ? vscode.l10n.t('The selection includes {0} folder(s) with more than {1} files. Only the first {1} (.git and node_modules skipped) would be uploaded. Go on?', plan.folders.length, MAX_FILES_PER_BATCH)
        : vscode.l10n.t('The selection includes {0} folder(s) holding {1} file(s) (.git and node_modules skipped). Upload every file in them?', plan.folders.length, count),
      [],
      upload,
    );
    if (choice !== upload) return undefined;
    plan = await planUpload(paths, { expandFolders: true });
  }
  if (plan.refused.length > 0) {
    const reasons = plan.refused.map((r) => `${path.basename(r.path)}: ${refusalText(r.reason, r.detail)}`).join('; ');
    if (plan.files.length === 0) {
      void notify.error(vscode.l10n.t('Nothing can be uploaded. {0}', reasons));
      return undefined;
    }
    const goOn = vscode.l10n.t('Upload the Others');
    const choice = await askModal('warn',
      vscode.l10n.t('{0} of the selected files cannot be uploaded: {1}', plan.refused.length, reasons),
      [],
      goOn,
    );
    if (choice !== goOn) return undefined;
  }
  if (plan.files.length === 0) {
    void notify.error(vscode.l10n.t('Nothing was selected to upload.'));
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
export function localUri(uri: vscode.Uri): vscode.Uri {
  return uri.scheme === 'vscode-remote' ? vscode.Uri.file(uri.path) : uri;
}

/** Unsaved edits would not be in what we upload: save them first, or say we upload the saved version. */
export async function saveDirtyDocuments(uris: vscode.Uri[]): Promise<boolean> {
  const wanted = new Set(uris.map((u) => u.fsPath));
  const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file' && wanted.has(d.uri.fsPath));
  if (dirty.length === 0) return true;
  const save = vscode.l10n.t('Save and Upload');
  const asIs = vscode.l10n.t('Upload Saved Version');
  const names = dirty.map((d) => path.basename(d.uri.fsPath)).join(', ');
  const choice = await askModal('warn',
    vscode.l10n.t('{0} has unsaved changes. Save before uploading?', names),
    [],
    save,
    asIs,
  );
  if (choice === save) return (await Promise.all(dirty.map((d) => d.save()))).every(Boolean);
  return choice === asIs;
}
