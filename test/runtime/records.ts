// The records the reference runtime stores and serves, shaped as docs/PROTOCOL.md assumes.
import { randomUUID } from 'node:crypto';

export type FilePurpose = 'task_input' | 'dataset' | 'reference' | 'artifact';
export const UPLOAD_PURPOSES: readonly string[] = ['task_input', 'dataset', 'reference'];
export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

export type RunStatus =
  'queued' | 'running' | 'awaiting_approval' | 'awaiting_budget' | 'completed' | 'failed' | 'cancelled';
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
  /** The last change (docs/PROTOCOL.md, Staying current). */
  updated_at?: string;
  run_id: string;
  /** Set on a task made in a project (docs/PROTOCOL.md, Projects). */
  project_id?: string;
  /** The branch and the 40-hex commit the agent builds on. */
  context?: TaskContext;
  /** The most each run of the task may spend (docs/PROTOCOL.md, Budgets). */
  budget?: Money;
}

export interface TaskContext {
  ref?: string;
  commit?: string;
}

export interface ProjectRecord {
  id: string;
  object: 'project';
  name: string;
  repository: { url: string; default_branch: string };
  created_at: string;
}

export interface RunRecord {
  id: string;
  object: 'run';
  task_id: string;
  status: RunStatus;
  created_at: string;
  /** The last change (docs/PROTOCOL.md, Staying current). */
  updated_at?: string;
  started_at?: string;
  completed_at?: string;
  error?: { message: string };
  resumed_from?: string;
  forked_from?: { run_id: string; sequence: number };
  /** A fork given its own context: the branch and commit this run starts from (docs/PROTOCOL.md, Fork). */
  context?: TaskContext;
  /** Set by a fork or resume that carried review comments: the run they were written on. */
  follow_up_of?: string;
  usage?: { cost: Money };
  /** The most this run may spend; at it the run waits in awaiting_budget for a raise or a cancel. */
  budget?: Money;
}

/** Amounts are decimal strings ("12.40"), as docs/PROTOCOL.md assumes (Usage and spend). */
export interface Money {
  amount: string;
  currency: string;
}

export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired';
export const APPROVAL_STATUSES: readonly string[] = ['pending', 'approved', 'denied', 'expired'];

export interface ApprovalRecord {
  id: string;
  object: 'approval';
  run_id: string;
  task_id: string;
  step_id: string;
  tool: string;
  arguments: Record<string, unknown>;
  reason: string;
  status: ApprovalStatus;
  created_at: string;
  expires_at: string;
  decided_at?: string;
  note?: string;
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
  /** Set on a revised copy of an attachment: that attachment's file id. */
  source_file_id?: string;
  /** Set on a project run's patch: the commit its paths apply to. */
  base_commit?: string;
}

/** Memory: what the agent knows (docs/PROTOCOL.md, Memory). */
export interface MemoryRecord {
  id: string;
  object: 'memory';
  content: string;
  tags: string[];
  project_id?: string;
  source?: { run_id: string; sequence?: number };
  version: number;
  created_at: string;
  updated_at: string;
}

/** At most 64 KiB of UTF-8 per memory. */
export const MAX_MEMORY_BYTES = 64 * 1024;

export interface ToolRecord {
  id: string;
  object: 'tool';
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  requires_approval: boolean;
  connector_id?: string;
}

export type InvocationStatus = 'running' | 'succeeded' | 'failed' | 'denied';
export const INVOCATION_STATUSES: readonly string[] = ['running', 'succeeded', 'failed', 'denied'];

export interface InvocationRecord {
  id: string;
  object: 'tool_invocation';
  tool: string;
  run_id: string;
  step_id: string;
  sequence: number;
  arguments: Record<string, unknown>;
  status: InvocationStatus;
  output?: string;
  output_truncated?: boolean;
  error?: { message: string };
  started_at: string;
  completed_at?: string;
  duration_ms?: number;
}

/** Invocation outputs are cut at 1 MiB (`output_truncated: true`). */
export const MAX_INVOCATION_OUTPUT_BYTES = 1024 * 1024;

export interface ConnectorGrant {
  id: string;
  scope: string;
  resource?: string;
  created_at: string;
}

export interface ConnectorRecord {
  id: string;
  object: 'connector';
  kind: string;
  name: string;
  account?: string;
  status: 'active' | 'needs_attention' | 'revoked';
  grants: ConnectorGrant[];
  created_at: string;
}

export interface WebhookRecord {
  id: string;
  object: 'webhook';
  url: string;
  events: string[];
  status: 'enabled' | 'disabled';
  created_at: string;
}

/** The event names a webhook may subscribe to ("*" = all of them). */
export const WEBHOOK_EVENTS: readonly string[] = [
  'run.completed',
  'run.failed',
  'run.cancelled',
  'approval.requested',
  'memory.written',
  '*',
];

export function newId(
  prefix:
    | 'file'
    | 'task'
    | 'run'
    | 'art'
    | 'req'
    | 'apr'
    | 'mem'
    | 'inv'
    | 'conn'
    | 'grant'
    | 'wh'
    | 'whsec'
    | 'evt'
    | 'proj',
): string {
  return `${prefix}_${randomUUID().replace(/-/g, '')}`;
}

/** RFC 3339 in UTC, as the spec requires for every timestamp. */
export function nowTimestamp(): string {
  return new Date().toISOString();
}

export function isTerminalStatus(status: string): status is TerminalStatus {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
