// Called by the upload flow: remembers, per uploaded file id, the workspace file it came from,
// its workspace folder and the SHA-256 of what was sent (see uploadFingerprint.ts).
import * as vscode from 'vscode';
import type { UploadOrigin } from '../review/types';
import type { LocalFileIndex } from '../upload/localFileIndex';
import { type FileStamp, hashIfUnchanged, stampOf } from './uploadFingerprint';

/** Size and mtime of each file about to be sent, by path; taken right before the batch starts. */
export async function stampFiles(paths: readonly string[]): Promise<Map<string, FileStamp | undefined>> {
  return new Map(await Promise.all(paths.map(async (p) => [p, await stampOf(p)] as const)));
}

export async function recordUploads(
  index: LocalFileIndex,
  uploaded: readonly { file: { path: string; bytes: number; read?: unknown }; record: { id: string } }[],
  stamps: ReadonlyMap<string, FileStamp | undefined>,
): Promise<void> {
  const uploadedAt = new Date().toISOString();
  const origins = await Promise.all(
    uploaded.map(async ({ file, record }): Promise<UploadOrigin> => {
      // A file of a virtual workspace is planned by its URI (and read through workspace.fs).
      const uri = file.read !== undefined ? vscode.Uri.parse(file.path) : vscode.Uri.file(file.path);
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      const stamp = stamps.get(file.path);
      return {
        fileId: record.id,
        uri: uri.toString(),
        workspaceFolder: folder?.uri.toString(),
        relativePath: folder ? relativeTo(folder.uri, uri) : (uri.path.split('/').pop() ?? file.path),
        sha256: (await hashIfUnchanged(file.path, stamp)) ?? '',
        bytes: stamp?.size ?? file.bytes,
        uploadedAt,
      };
    }),
  );
  await index.addUploads(origins);
}

function relativeTo(folder: vscode.Uri, file: vscode.Uri): string {
  const base = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
  return file.path.startsWith(base) ? file.path.slice(base.length) : (file.path.split('/').pop() ?? file.path);
}
