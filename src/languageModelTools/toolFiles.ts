// The files a model names for a task, found in the open workspace: a name is a path relative to
// a workspace folder ("notes.txt", "docs/plan.md", or "<folder name>/docs/plan.md" in a
// multi-root window). Anything else is refused with the reason, before any confirmation: a path
// outside the workspace (absolute, "..", another scheme, or through a linked folder that leads
// out of it), a folder, a symbolic link, a file that
// looks like it holds a secret (src/upload/secretFiles.ts), a file over the upload limit, a name
// two folders both have. A person can still send any of those from the Explorer.
import * as vscode from 'vscode';
import { MAX_UPLOAD_BYTES } from '../api/types';
import { realInside } from '../upload/realPaths';
import { looksSecret } from '../upload/secretFiles';
import type { ToolFile } from './toolSpecs';

export interface ResolvedToolFiles {
  files: ToolFile[];
  refused: { name: string; reason: string }[];
}

const NAME_MAX_CHARS = 500;

export async function resolveWorkspaceFiles(names: readonly string[]): Promise<ResolvedToolFiles> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const out: ResolvedToolFiles = { files: [], refused: [] };
  const seen = new Set<string>();
  for (const raw of names) {
    const name = raw.trim().replace(/\\/g, '/').replace(/^\.\//, '');
    const refuse = (reason: string): void => void out.refused.push({ name: raw.slice(0, NAME_MAX_CHARS), reason });
    if (name === '' || name.length > NAME_MAX_CHARS) {
      refuse('not a file name');
      continue;
    }
    if (name.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(name) || name.split('/').some((s) => s === '..')) {
      refuse('not a name inside the open workspace (give the path relative to its folder)');
      continue;
    }
    const found: { uri: vscode.Uri; folder: vscode.WorkspaceFolder; stat: vscode.FileStat }[] = [];
    for (const folder of folders) {
      for (const relative of candidatesIn(folder, name, folders.length)) {
        const uri = vscode.Uri.joinPath(folder.uri, relative);
        const stat = await vscode.workspace.fs.stat(uri).then(
          (s) => s,
          () => undefined,
        );
        if (stat && !found.some((f) => f.uri.toString() === uri.toString())) {
          found.push({ uri, folder, stat });
        }
      }
    }
    if (found.length === 0) {
      refuse(folders.length === 0 ? 'no folder is open in VS Code' : 'no such file in the open workspace');
      continue;
    }
    if (found.length > 1) {
      refuse(
        `more than one workspace folder has it: name the folder first (${found.map((f) => f.folder.name).join(', ')})`,
      );
      continue;
    }
    const [{ uri, stat, folder }] = found;
    if ((stat.type & vscode.FileType.SymbolicLink) !== 0) {
      refuse('a symbolic link (the person can upload its target from the Explorer)');
    } else if (uri.scheme === 'file' && (await realInside(uri.fsPath, [folder.uri.fsPath])) === false) {
      refuse('reached through a linked folder that leads out of the workspace');
    } else if ((stat.type & vscode.FileType.File) === 0) {
      refuse('a folder, not a file (name the files in it)');
    } else if (stat.size > MAX_UPLOAD_BYTES) {
      refuse('larger than the 512 MB upload limit');
    } else if (looksSecret(vscode.workspace.asRelativePath(uri, false))) {
      refuse(
        'looks like it holds a secret (keys, tokens, passwords): only a person can choose to send it, from the Explorer',
      );
    } else if (!seen.has(uri.toString())) {
      seen.add(uri.toString());
      out.files.push({ name: vscode.workspace.asRelativePath(uri, folders.length > 1), bytes: stat.size, uri });
    }
  }
  return out;
}

/** The path inside `folder` a name may mean: as it is, and without a leading "<folder name>/" in a multi-root window. */
function candidatesIn(folder: vscode.WorkspaceFolder, name: string, folderCount: number): string[] {
  const prefix = `${folder.name}/`;
  if (folderCount > 1 && name.startsWith(prefix) && name.length > prefix.length) {
    return [name.slice(prefix.length), name];
  }
  return [name];
}
