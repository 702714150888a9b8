// Uploads planned files as one zip attachment: packed into a temporary file, then streamed from
// it like any file. The API client takes a file on disk or bytes in memory; a temporary file
// keeps memory flat and gives the request an exact length, so the client's retries resend it.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiClient } from '../api/client';
import type { FilePurpose, FileRecord } from '../api/types';
import { archiveFileName } from './archiveNames';
import { writeArchive } from './folderArchive';
import type { PlannedFile } from './uploadPlan';

export interface ArchiveUploadProgress {
  phase: 'pack' | 'send';
  filesDone: number;
  fileCount: number;
  /** Packing: bytes of the files read; sending: bytes of the archive sent. */
  bytesDone: number;
  totalBytes: number;
}

export interface ArchiveUploadResult {
  record: FileRecord;
  /** The archive's name as stored. */
  filename: string;
  entries: string[];
  bytes: number;
}

export async function uploadArchive(
  client: Pick<ApiClient, 'uploadFile'>,
  files: readonly PlannedFile[],
  purpose: FilePurpose,
  options: {
    signal?: AbortSignal;
    followSymlinks?: boolean;
    onProgress?: (p: ArchiveUploadProgress) => void;
    filename?: string;
  } = {},
): Promise<ArchiveUploadResult> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-runtime-archive-'));
  try {
    const path = join(dir, 'upload.zip');
    const written = await writeArchive(files, path, {
      signal: options.signal,
      followSymlinks: options.followSymlinks,
      onProgress: (p) => options.onProgress?.({ phase: 'pack', ...p }),
    });
    const filename = options.filename ?? archiveFileName(written.entries);
    const record = await client.uploadFile(path, {
      purpose,
      filename,
      contentType: 'application/zip',
      signal: options.signal,
      // Each attempt packs anew (timestamps differ), so each gets its own key.
      idempotencyKey: randomUUID(),
      onProgress: (sent, total) =>
        options.onProgress?.({
          phase: 'send',
          filesDone: files.length,
          fileCount: files.length,
          bytesDone: sent,
          totalBytes: total,
        }),
    });
    return { record, filename, entries: written.entries, bytes: written.bytes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
