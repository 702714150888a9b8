// The web bundle's twin of uploadOriginRecord.ts: the same origin records, for files read through
// workspace.fs. Their SHA-256 is unknown (''), as on the desktop for a file that is not on this
// machine's disk: it never matches, so a later review merges against the server's copy.
import * as vscode from 'vscode';
import type { FileStamp } from '../reviewUi/uploadFingerprint';
import type { LocalFileIndex } from '../upload/localFileIndex';

type UploadOrigin = Parameters<LocalFileIndex['addUploads']>[0][number];

/** No stamps: nothing here is hashed from a disk. */
export async function stampFiles(paths: readonly string[]): Promise<Map<string, FileStamp | undefined>> {
  return new Map(paths.map((p) => [p, undefined] as const));
}

export async function recordUploads(
  index: LocalFileIndex,
  uploaded: readonly { file: { path: string; bytes: number; read?: unknown }; record: { id: string } }[],
  _stamps: ReadonlyMap<string, FileStamp | undefined>,
): Promise<void> {
  const uploadedAt = new Date().toISOString();
  const origins = uploaded.map(({ file, record }): UploadOrigin => {
    const uri = vscode.Uri.parse(file.path, true);
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const base = folder ? (folder.uri.path.endsWith('/') ? folder.uri.path : `${folder.uri.path}/`) : undefined;
    return {
      fileId: record.id,
      uri: uri.toString(),
      workspaceFolder: folder?.uri.toString(),
      relativePath:
        base !== undefined && uri.path.startsWith(base)
          ? uri.path.slice(base.length)
          : (uri.path.split('/').pop() ?? file.path),
      sha256: '',
      bytes: file.bytes,
      uploadedAt,
    };
  });
  await index.addUploads(origins);
}
