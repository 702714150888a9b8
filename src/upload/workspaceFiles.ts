// Files the extension host cannot open with Node's fs (a virtual workspace, any file system an
// extension registers): planned through vscode.workspace.fs and read into memory when sent.
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { MAX_UPLOAD_BYTES } from '../api/types';
import type { PlannedFile, UploadPlan } from './uploadPlan';

/**
 * vscode.workspace.fs has no streaming read (only readFile, the whole file at once), so a file
 * from another file system is held in memory while it is sent; this caps that memory.
 */
export const MAX_IN_MEMORY_BYTES = 64 * 1024 * 1024;

/** Plans files of non-disk URIs; folders there are refused (not expanded). */
export async function planVirtualUpload(uris: readonly vscode.Uri[]): Promise<UploadPlan> {
  const plan: UploadPlan = { files: [], refused: [], totalBytes: 0, folders: [], truncated: false };
  const seen = new Set<string>();
  for (const uri of uris) {
    const id = uri.toString();
    if (seen.has(id)) {
      continue;
    }
    seen.add(id);
    let stat: vscode.FileStat;
    try {
      stat = await vscode.workspace.fs.stat(uri);
    } catch (err) {
      plan.refused.push({
        path: id,
        reason: 'unreadable',
        detail: err instanceof vscode.FileSystemError ? err.code : String(err),
      });
      continue;
    }
    if ((stat.type & vscode.FileType.Directory) !== 0) {
      plan.refused.push({
        path: id,
        reason: 'not_a_file',
        detail: "folder outside this machine's disk (select its files)",
      });
      continue;
    }
    if (stat.size > MAX_UPLOAD_BYTES) {
      plan.refused.push({ path: id, reason: 'too_large', detail: String(stat.size) });
      continue;
    }
    if (stat.size > MAX_IN_MEMORY_BYTES) {
      plan.refused.push({ path: id, reason: 'too_large_in_memory', detail: String(stat.size) });
      continue;
    }
    const file: PlannedFile = { path: id, name: baseName(uri), bytes: stat.size, read: () => readWithin(uri) };
    plan.files.push(file);
    plan.totalBytes += file.bytes;
  }
  return plan;
}

async function readWithin(uri: vscode.Uri): Promise<Uint8Array> {
  const bytes = await vscode.workspace.fs.readFile(uri);
  // It may have grown since it was planned; the cap holds for what is actually read.
  if (bytes.byteLength > MAX_IN_MEMORY_BYTES) {
    throw new ApiError({
      kind: 'validation',
      param: 'file',
      message: vscode.l10n.t(
        "{0} grew beyond {1} MB, the limit for files outside this machine's disk.",
        baseName(uri),
        MAX_IN_MEMORY_BYTES / (1024 * 1024),
      ),
    });
  }
  return bytes;
}

function baseName(uri: vscode.Uri): string {
  const parts = uri.path.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? uri.toString();
}

/** Both plans as one batch, in the order given (disk first). */
export function mergePlans(a: UploadPlan, b: UploadPlan): UploadPlan {
  return {
    files: [...a.files, ...b.files],
    refused: [...a.refused, ...b.refused],
    totalBytes: a.totalBytes + b.totalBytes,
    folders: [...a.folders, ...b.folders],
    truncated: a.truncated || b.truncated,
  };
}

/** The URI a planned file came from: its path on disk, or the URI it was planned under. */
export function plannedUri(file: PlannedFile): vscode.Uri {
  return file.read ? vscode.Uri.parse(file.path, true) : vscode.Uri.file(file.path);
}
