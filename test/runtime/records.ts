// The records the reference runtime stores and serves, shaped as PROTOCOL-NOTES assumes.
import { randomUUID } from 'crypto';

export type FilePurpose = 'task_input' | 'dataset' | 'reference' | 'artifact';
export const UPLOAD_PURPOSES: readonly string[] = ['task_input', 'dataset', 'reference'];
export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export type TerminalStatus = 'completed' | 'failed' | 'cancelled';

export interface FileRecord {
  id: string;
  object: 'file';
  purpose: FilePurpose;
  filename: string;
  bytes: number;
  content_type: string;
  created_at: string;
}

export interface TaskAttachment {
  type: 'document';
  fileId: string;
}

export interface TaskRecord {
  id: string;
  object: 'task';
  objective: string;
  status: RunStatus;
  attachments: TaskAttachment[];
  created_at: string;
  run_id: string;
}

export interface RunRecord {
  id: string;
  object: 'run';
  task_id: string;
  status: RunStatus;
  created_at: string;
  started_at?: string;
  completed_at?: string;
  error?: { message: string };
}

export interface ArtifactRecord {
  id: string;
  object: 'artifact';
  run_id: string;
  name: string;
  file_id: string;
  bytes: number;
  content_type: string;
  created_at: string;
}

export function newId(prefix: 'file' | 'task' | 'run' | 'art' | 'req'): string {
  return `${prefix}_${randomUUID().replace(/-/g, '')}`;
}

/** RFC 3339 in UTC, as the spec requires for every timestamp. */
export function nowTimestamp(): string {
  return new Date().toISOString();
}

export function isTerminalStatus(status: string): status is TerminalStatus {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
