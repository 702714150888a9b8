// Uploads a planned batch a few files at a time over the client's kept-alive connections,
// reporting files and bytes done, and keeps going after a failure so the user learns exactly
// which files failed and can retry only those. A cancel aborts the requests in flight.
import { type ApiClient } from '../api/client';
import { isAbort } from '../api/errors';
import { type FilePurpose, type FileRecord } from '../api/types';
import { type PlannedFile } from './uploadPlan';

/** One Idempotency-Key per file for the whole batch, so "Retry Failed" never uploads a file twice. */
export type UploadKeys = Map<string, string>;

/**
 * Requests at a time: enough to hide each request's round trips and the server's per-file work
 * behind the others' bytes, few enough not to crowd a shared service (curl's usual --parallel-max).
 */
export const UPLOAD_CONCURRENCY = 4;

export interface BatchProgress {
  /** Files whose upload has ended (stored or failed). */
  filesDone: number;
  fileCount: number;
  /** Bytes of file content sent, over every file of the batch. */
  bytesDone: number;
  totalBytes: number;
  /** The file this report is about (the one that moved). */
  file: PlannedFile;
}

export interface BatchResult {
  /** In the order of the plan, whatever order the uploads ended in. */
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
    /** Default UPLOAD_CONCURRENCY. */
    concurrency?: number;
  },
): Promise<BatchResult> {
  const uploaded: { index: number; file: PlannedFile; record: FileRecord }[] = [];
  const failed: { index: number; file: PlannedFile; error: unknown }[] = [];
  let cancelled = false;
  const totalBytes = files.reduce((sum, f) => sum + f.bytes, 0);
  let filesDone = 0;
  let bytesDone = 0;
  const report = (file: PlannedFile) =>
    options.onProgress?.({ filesDone, fileCount: files.length, bytesDone, totalBytes, file });

  const uploadOne = async (file: PlannedFile, index: number): Promise<void> => {
    // What this file has added to bytesDone: a retry inside the client starts the file over.
    let counted = 0;
    const onProgress = (sent: number) => {
      bytesDone += sent - counted;
      counted = sent;
      report(file);
    };
    try {
      const key = options.keys?.get(file.path) ?? globalThis.crypto.randomUUID();
      options.keys?.set(file.path, key);
      const followSymlinks = options.followSymlinks === true && file.symlinkTarget !== undefined;
      const common = { purpose, filename: file.name, signal: options.signal, onProgress, idempotencyKey: key };
      const record = file.read
        ? await client.uploadBytes(await file.read(), common)
        : await client.uploadFile(file.path, { ...common, followSymlinks });
      uploaded.push({ index, file, record });
    } catch (error) {
      if (isAbort(error) || options.signal?.aborted) {
        cancelled = true;
        return;
      }
      failed.push({ index, file, error });
    }
    // A failed file counts as done: its bytes are settled, sent or not.
    bytesDone += file.bytes - counted;
    filesDone++;
    report(file);
  };

  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length && !cancelled) {
      if (options.signal?.aborted) {
        cancelled = true;
        return;
      }
      const index = next++;
      await uploadOne(files[index], index);
    }
  };
  const width = Math.max(1, Math.min(options.concurrency ?? UPLOAD_CONCURRENCY, files.length));
  await Promise.all(Array.from({ length: width }, () => worker()));
  const byIndex = (a: { index: number }, b: { index: number }) => a.index - b.index;
  return {
    uploaded: uploaded.sort(byIndex).map(({ file, record }) => ({ file, record })),
    failed: failed.sort(byIndex).map(({ file, error }) => ({ file, error })),
    cancelled,
  };
}
