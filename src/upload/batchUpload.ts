// Uploads a planned batch one file at a time, reporting files and bytes done, and keeps going
// after a failure so the user learns exactly which files failed and can retry only those.
import { randomUUID } from 'node:crypto';
import { type ApiClient } from '../api/client';
import { isAbort } from '../api/errors';
import { type FilePurpose, type FileRecord } from '../api/types';
import { type PlannedFile } from './uploadPlan';

/** One Idempotency-Key per file for the whole batch, so "Retry Failed" never uploads a file twice. */
export type UploadKeys = Map<string, string>;

export interface BatchProgress {
  fileIndex: number;
  fileCount: number;
  file: PlannedFile;
  bytesDone: number;
  totalBytes: number;
}

export interface BatchResult {
  uploaded: { file: PlannedFile; record: FileRecord }[];
  failed: { file: PlannedFile; error: unknown }[];
  cancelled: boolean;
}

export async function uploadBatch(
  client: Pick<ApiClient, 'uploadFile' | 'uploadBytes'>,
  files: readonly PlannedFile[],
  purpose: FilePurpose,
  options: {
    signal?: AbortSignal;
    onProgress?: (p: BatchProgress) => void;
    keys?: UploadKeys;
    /** The user confirmed sending the targets of the planned files that are symbolic links. */
    followSymlinks?: boolean;
  },
): Promise<BatchResult> {
  const result: BatchResult = { uploaded: [], failed: [], cancelled: false };
  const totalBytes = files.reduce((sum, f) => sum + f.bytes, 0);
  let doneBefore = 0;
  for (const [index, file] of files.entries()) {
    if (options.signal?.aborted) {
      result.cancelled = true;
      break;
    }
    const report = (sent: number) =>
      options.onProgress?.({ fileIndex: index, fileCount: files.length, file, bytesDone: doneBefore + sent, totalBytes });
    report(0);
    try {
      const key = options.keys?.get(file.path) ?? randomUUID();
      options.keys?.set(file.path, key);
      const followSymlinks = options.followSymlinks === true && file.symlinkTarget !== undefined;
      const common = { purpose, filename: file.name, signal: options.signal, onProgress: report, idempotencyKey: key };
      const record = file.read
        ? await client.uploadBytes(await file.read(), common)
        : await client.uploadFile(file.path, { ...common, followSymlinks });
      result.uploaded.push({ file, record });
    } catch (error) {
      if (isAbort(error) || options.signal?.aborted) {
        result.cancelled = true;
        break;
      }
      result.failed.push({ file, error });
    }
    doneBefore += file.bytes;
    report(0);
  }
  return result;
}
