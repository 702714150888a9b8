// The web bundle's twin of uploadOriginRecord.ts: the same origin records, for files read through
// workspace.fs. The SHA-256 of what was sent is taken from the file again after the upload and
// trusted only when its size and modification time are what they were before the upload started
// (as on the desktop); otherwise it is unknown (''), never matches, and a later review merges
// against the server's copy.
import * as vscode from 'vscode';
import { sha256Hex } from '../common/sha256';
import type { FileStamp } from '../reviewUi/uploadFingerprint';
import type { LocalFileIndex } from '../upload/localFileIndex';

type UploadOrigin = Parameters<LocalFileIndex['addUploads']>[0][number];

/** Size and modification time of each file (a URI) about to be sent; undefined when unreadable. */
export async function stampFiles(paths: readonly string[]): Promise<Map<string, FileStamp | undefined>> {
  return new Map(await Promise.all(paths.map(async (p) => [p, await stampOf(vscode.Uri.parse(p, true))] as const)));
}

async function stampOf(uri: vscode.Uri): Promise<FileStamp | undefined> {
  try {
    const info = await vscode.workspace.fs.stat(uri);
    return info.type & vscode.FileType.File ? { size: info.size, mtimeMs: info.mtime } : undefined;
  } catch {
    return undefined;
  }
}

/** The browser's own digest where the page is a secure context, else the bundled one. */
async function digestHex(bytes: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle) {
    const digest = new Uint8Array(await subtle.digest('SHA-256', bytes));
    return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
  }
  return sha256Hex(bytes);
}

/** The file's SHA-256 when it still is what it was at `before`, else undefined. */
async function hashIfUnchanged(uri: vscode.Uri, before: FileStamp | undefined): Promise<string | undefined> {
  if (!before) {
    return undefined;
  }
  try {
    const digest = await digestHex(await vscode.workspace.fs.readFile(uri));
    const after = await stampOf(uri);
    return after && after.size === before.size && after.mtimeMs === before.mtimeMs ? digest : undefined;
  } catch {
    return undefined;
  }
}

export async function recordUploads(
  index: LocalFileIndex,
  uploaded: readonly { file: { path: string; bytes: number; read?: unknown }; record: { id: string } }[],
  stamps: ReadonlyMap<string, FileStamp | undefined>,
): Promise<void> {
  const uploadedAt = new Date().toISOString();
  const origins: UploadOrigin[] = [];
  for (const { file, record } of uploaded) {
    const uri = vscode.Uri.parse(file.path, true);
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const base = folder ? (folder.uri.path.endsWith('/') ? folder.uri.path : `${folder.uri.path}/`) : undefined;
    const stamp = stamps.get(file.path);
    origins.push({
      fileId: record.id,
      uri: uri.toString(),
      workspaceFolder: folder?.uri.toString(),
      relativePath:
        base !== undefined && uri.path.startsWith(base)
          ? uri.path.slice(base.length)
          : (uri.path.split('/').pop() ?? file.path),
      sha256: (await hashIfUnchanged(uri, stamp)) ?? '',
      bytes: stamp?.size ?? file.bytes,
      uploadedAt,
    });
  }
  await index.addUploads(origins);
}
