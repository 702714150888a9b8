// The web bundle's twin of workspaceTarget.ts: a browser has no disk of this computer, so every
// workspace folder, whatever its scheme, is checked through vscode.workspace.fs (virtualTarget.ts).
import type * as vscode from 'vscode';
import { checkVirtualTarget, type WorkspaceTargetCheck } from './virtualTarget';

export type { WorkspaceTargetCheck } from './virtualTarget';

/** Whether `file` may be written as part of the workspace folder `folder`. Never throws. */
export async function checkWorkspaceTarget(folder: vscode.Uri, file: vscode.Uri): Promise<WorkspaceTargetCheck> {
  return checkVirtualTarget(folder, file);
}
