// Upload a selection and attach it to one new task, as one archive or file by file, without the
// editor: what the benchmark measures and the tests drive. The outcome lists the files uploaded
// for this attempt whenever no task came of them, so the caller can offer to delete them.
import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../api/client';
import { isAbort } from '../api/errors';
import type { FileRecord, TaskRecord } from '../api/types';
import { type ArchiveUploadProgress, uploadArchive } from './archiveUpload';
import { type BatchProgress, uploadBatch } from './batchUpload';
import type { PlannedFile } from './uploadPlan';

export type TaskUploadOutcome =
  | { kind: 'created'; task: TaskRecord; uploaded: FileRecord[] }
  /** Cancelled: no task was asked for; `uploaded` are this attempt's files already stored. */
  | { kind: 'cancelled'; uploaded: FileRecord[] }
  /** Some files failed to upload, or the task was refused: no task; `uploaded` as above. */
  | { kind: 'failed'; error: unknown; uploaded: FileRecord[] };

export interface TaskUploadOptions {
  objective: string;
  shape: 'archive' | 'separate';
  signal?: AbortSignal;
  followSymlinks?: boolean;
  concurrency?: number;
  onProgress?: (p: BatchProgress | ArchiveUploadProgress) => void;
}

export async function uploadForTask(
  client: Pick<ApiClient, 'uploadFile' | 'uploadBytes' | 'createTask'>,
  files: readonly PlannedFile[],
  options: TaskUploadOptions,
): Promise<TaskUploadOutcome> {
  let uploaded: FileRecord[];
  const { signal } = options;
  if (options.shape === 'archive') {
    try {
      const archive = await uploadArchive(client, files, 'task_input', {
        signal,
        followSymlinks: options.followSymlinks,
        onProgress: options.onProgress,
      });
      uploaded = [archive.record];
    } catch (error) {
      return isAbort(error) || signal?.aborted
        ? { kind: 'cancelled', uploaded: [] }
        : { kind: 'failed', error, uploaded: [] };
    }
  } else {
    const batch = await uploadBatch(client, files, 'task_input', {
      signal,
      followSymlinks: options.followSymlinks,
      concurrency: options.concurrency,
      onProgress: options.onProgress,
    });
    uploaded = batch.uploaded.map((u) => u.record);
    if (batch.cancelled) {
      return { kind: 'cancelled', uploaded };
    }
    if (batch.failed.length > 0) {
      return { kind: 'failed', error: batch.failed[0].error, uploaded };
    }
  }
  // Past this point the task is asked for whole: a cancel now would leave it unknown whether
  // the service created it, so only a cancel that came first stops it.
  if (signal?.aborted) {
    return { kind: 'cancelled', uploaded };
  }
  try {
    const task = await client.createTask(
      { objective: options.objective, attachments: uploaded.map((f) => ({ type: 'document' as const, fileId: f.id })) },
      { idempotencyKey: randomUUID() },
    );
    return { kind: 'created', task, uploaded };
  } catch (error) {
    return { kind: 'failed', error, uploaded };
  }
}
