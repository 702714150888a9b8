// The web bundle's twin of uploadPlan.ts: a web worker has no disk, so no path is planned here.
// Every file of VS Code for the Web is a URI, planned through workspace.fs (workspaceFiles.ts).
import * as vscode from 'vscode';
import type { PlannedFile, RefusedFile, UploadPlan } from './uploadPlan';

export type { PlannedFile, RefusedFile, UploadPlan };

export const MAX_FILES_PER_BATCH = 1000;

/** Refuses each path (none reaches it from the web build's own flows: their URIs are not file:). */
export async function planUpload(
  selected: readonly string[],
  _options: { expandFolders: boolean },
): Promise<UploadPlan> {
  return {
    files: [],
    refused: selected.map((path) => ({
      path,
      reason: 'unreadable',
      detail: vscode.l10n.t('no disk in VS Code for the Web'),
    })),
    totalBytes: 0,
    folders: [],
    truncated: false,
  };
}

export async function listFolder(_folder: string, _limit: number): Promise<string[]> {
  return [];
}
