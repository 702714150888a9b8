// Where Apply may write, by URI: a file on this computer's disk by src/review/safeTarget.ts
// (inside its folder with links resolved by realpath), a file of any other workspace file system
// by virtualTarget.ts. The web bundle takes workspaceTarget.web.ts: no disk there.
import type * as vscode from 'vscode';
import { vscodeTranslate } from '../common/vscodeTranslate';
import { checkWriteTarget } from '../review/safeTarget';
import { checkVirtualTarget, type WorkspaceTargetCheck } from './virtualTarget';

export type { WorkspaceTargetCheck } from './virtualTarget';

/** Whether `file` may be written as part of the workspace folder `folder`. Never throws. */
export async function checkWorkspaceTarget(folder: vscode.Uri, file: vscode.Uri): Promise<WorkspaceTargetCheck> {
  if (folder.scheme !== 'file' || file.scheme !== 'file') {
    return checkVirtualTarget(folder, file);
  }
  const check = await checkWriteTarget(folder.fsPath, file.fsPath, { t: vscodeTranslate });
  return check.ok ? { ok: true } : { ok: false, message: check.message };
}
