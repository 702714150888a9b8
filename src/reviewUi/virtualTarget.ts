// Where Apply may write in a workspace that is not this computer's disk (a virtual workspace,
// VS Code for the Web): only an existing file inside the workspace folder it came from, judged by
// its URI, and never a link (vscode.workspace.fs cannot say where a link points, so none is
// followed). The disk's own rule, with links resolved, is src/review/safeTarget.ts.
import * as vscode from 'vscode';

export type WorkspaceTargetCheck = { ok: true } | { ok: false; message: string };

/** Whether `file` may be written as part of the workspace folder `folder`. Never throws. */
export async function checkVirtualTarget(folder: vscode.Uri, file: vscode.Uri): Promise<WorkspaceTargetCheck> {
  const base = folder.path.replace(/\/+$/, '');
  const rest = file.path.startsWith(`${base}/`) ? file.path.slice(base.length + 1) : undefined;
  const segments = rest?.split('/') ?? [];
  if (
    file.scheme !== folder.scheme ||
    file.authority !== folder.authority ||
    rest === undefined ||
    segments.some((s) => s === '' || s === '.' || s === '..')
  ) {
    return {
      ok: false,
      message: vscode.l10n.t(
        '{0} is outside the workspace folder {1}; nothing is written there.',
        file.path,
        folder.path,
      ),
    };
  }
  try {
    await vscode.workspace.fs.stat(folder);
  } catch {
    return { ok: false, message: vscode.l10n.t('The workspace folder {0} is no longer there.', folder.path) };
  }
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(file);
  } catch {
    return {
      ok: false,
      message: vscode.l10n.t('{0} is no longer in the workspace (deleted or renamed since it was uploaded).', rest),
    };
  }
  if ((stat.type & vscode.FileType.SymbolicLink) !== 0) {
    return {
      ok: false,
      message: vscode.l10n.t('{0} is a link; in this workspace nothing is written through a link.', rest),
    };
  }
  if ((stat.type & vscode.FileType.File) === 0) {
    return { ok: false, message: vscode.l10n.t('{0} is not a file.', rest) };
  }
  return { ok: true };
}
