// The web bundle's twin of archiveUpload.ts: packing a selection into one zip needs a temporary
// file on this machine's disk, which a web worker has not. The files go one by one instead.
import * as vscode from 'vscode';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { FilePurpose, FileRecord } from '../api/types';
import type { PlannedFile } from './uploadPlan';

export interface ArchiveUploadProgress {
  phase: 'pack' | 'send';
  filesDone: number;
  fileCount: number;
  bytesDone: number;
  totalBytes: number;
}

export interface ArchiveUploadResult {
  record: FileRecord;
  filename: string;
  entries: string[];
  bytes: number;
}

/** Always refuses, before anything is sent. */
export async function uploadArchive(
  _client: Pick<ApiClient, 'uploadFile'>,
  _files: readonly PlannedFile[],
  _purpose: FilePurpose,
  _options: object = {},
): Promise<ArchiveUploadResult> {
  throw new ApiError({
    kind: 'validation',
    param: 'file',
    message: vscode.l10n.t(
      'Packing files into one archive needs a disk, which VS Code for the Web does not have; nothing was sent. Upload fewer files at a time, each on its own.',
    ),
  });
}
