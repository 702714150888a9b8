// The web bundle's twin of uploadFromDisk.ts: a browser has no file paths. Every upload there
// reads the file through the editor (workspace.fs) and sends the bytes (ApiClient.uploadBytes).
import { ApiError } from './errors';
import type { PreparedUpload, UploadOptions } from './upload';

export async function prepareUpload(path: string, _opts: UploadOptions = {}): Promise<PreparedUpload> {
  throw new ApiError({
    kind: 'validation',
    param: 'file',
    message: `"${path}" is a path on a disk, which VS Code for the Web cannot read; upload it through the editor instead.`,
  });
}
