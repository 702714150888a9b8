// The records of the Agent Runtime API, typed from the spec (strict) and docs/PROTOCOL.md
// (assumed, so optional). Unknown fields are kept through the index signatures and unknown
// status values stay plain strings: a server that differs from our assumptions never breaks us.

export const FILE_PURPOSES = ['task_input', 'dataset', 'reference'] as const;
export type FilePurpose = (typeof FILE_PURPOSES)[number];

/** The spec's upload limit: 512 MB = 512 * 1024 * 1024 bytes per file. */
export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

/** The spec's page size limits. */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** Task and run statuses we know (the spec's five, and the two pauses of docs/PROTOCOL.md); any other string is shown verbatim. */
export const KNOWN_STATUSES = [
  'queued',
  'running',
  'completed',
  'failed',
  'cancelled',
  'awaiting_approval',
  'awaiting_budget',
] as const;
export type KnownStatus = (typeof KNOWN_STATUSES)[number];
// `string & {}` keeps editor completion for the known values while accepting any string.
export type Status = KnownStatus | (string & {});

export interface FileRecord {
  id: string;
  object?: string;
  purpose?: string;
  filename?: string;
  bytes?: number;
  content_type?: string;
  created_at?: string;
  [extra: string]: unknown;
}

export interface DeletedFile {
  id: string;
  object?: string;
  deleted?: boolean;
  [extra: string]: unknown;
}

export interface Attachment {
  type: 'document' | (string & {});
  fileId: string;
  [extra: string]: unknown;
}

export interface TaskRecord {
  id: string;
  object?: string;
  objective?: string;
  status?: Status;
  attachments?: Attachment[];
  created_at?: string;
  /** The last change, when the server says (docs/PROTOCOL.md, Staying current). */
  updated_at?: string;
  run_id?: string;
  /** The project the task was made in (docs/PROTOCOL.md, Projects). */
  project_id?: string;
  context?: TaskContext;
  /** The most each run of the task may spend (docs/PROTOCOL.md, Budgets); absent: no cap, or a server without budgets. Data as received: checkMoney before use. */
  budget?: unknown;
  [extra: string]: unknown;
}

/** The branch and the 40-hex commit a project task builds on. */
export interface TaskContext {
  ref?: string;
  commit?: string;
}

export interface CreateTaskRequest {
  objective: string;
  attachments?: Attachment[];
  project_id?: string;
  context?: TaskContext;
  /** The most each run may spend. */
  budget?: Money;
}

/** docs/PROTOCOL.md, Projects: a repository-bound build context (assumed, so mostly optional). */
export interface ProjectRecord {
  id: string;
  object?: string;
  name?: string;
  repository?: { url?: string; default_branch?: string; [extra: string]: unknown };
  created_at?: string;
  [extra: string]: unknown;
}

export interface CreateProjectRequest {
  name: string;
  repository: { url: string; default_branch?: string };
}

export interface RunRecord {
  id: string;
  object?: string;
  task_id?: string;
  status?: Status;
  created_at?: string;
  /** The last change, when the server says (docs/PROTOCOL.md, Staying current). */
  updated_at?: string;
  started_at?: string;
  completed_at?: string;
  /** docs/PROTOCOL.md, Resume: the run this one resumed. */
  resumed_from?: string;
  /** docs/PROTOCOL.md, Fork: the run and the last copied sequence this one was forked from. */
  forked_from?: { run_id?: string; sequence?: number; [extra: string]: unknown };
  /** docs/PROTOCOL.md, Review conversations: the run whose review comments this one took. */
  follow_up_of?: string;
  /** The run's cap (docs/PROTOCOL.md, Budgets): data as received, checked with checkMoney before use. */
  budget?: unknown;
  [extra: string]: unknown;
}

// ---- steering and spend (docs/PROTOCOL.md, assumed: every field but the id is optional) ----

export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired' | (string & {});
export type ApprovalDecision = 'approve' | 'deny';

export interface ApprovalRecord {
  id: string;
  object?: string;
  run_id?: string;
  task_id?: string;
  step_id?: string;
  tool?: string;
  /** The tool call's arguments as the server sent them (data, never markup). */
  arguments?: Record<string, unknown>;
  reason?: string;
  status?: ApprovalStatus;
  created_at?: string;
  expires_at?: string;
  decided_at?: string;
  note?: string;
  [extra: string]: unknown;
}

export interface Money {
  amount: string;
  currency: string;
}

export interface UsageRecord {
  object?: string;
  period_start?: string;
  period_end?: string;
  spend?: Money;
  /** null: the server sets no quota. */
  quota?: Money | null;
  [extra: string]: unknown;
}

export interface ArtifactRecord {
  id: string;
  object?: string;
  run_id?: string;
  name?: string;
  file_id?: string;
  bytes?: number;
  content_type?: string;
  created_at?: string;
  /** A project run's patch: the commit its repository-relative paths apply to. */
  base_commit?: string;
  [extra: string]: unknown;
}

/** The spec's list envelope. */
export interface Page<T> {
  object: 'list' | (string & {});
  data: T[];
  has_more: boolean;
  next_cursor?: string | null;
  /** How many items the answer held, those parsePage dropped included (the pager counts them all). */
  received?: number;
  /** Records past what the page may hold (the limit asked, at most 100) that parsePage left out. */
  overflow?: number;
}

export interface PageParams {
  limit?: number;
  after?: string;
}

// ---- run events (spec section 2 "Run event record" and section 6) ----

interface EventBase {
  sequence: number;
  [extra: string]: unknown;
}

export interface PlanCreatedData extends EventBase {
  steps: number;
  strategy: string;
}
export interface StepStartedData extends EventBase {
  step_id: string;
  title: string;
}
export interface ToolCalledData extends EventBase {
  tool: string;
  step_id: string;
}
export interface ObservationRecordedData extends EventBase {
  step_id: string;
  summary: string;
}
export interface StepCompletedData extends EventBase {
  step_id: string;
  duration_ms: number;
}
export interface RunEndedData extends EventBase {
  status?: Status;
}
export interface ApprovalRequestedData extends EventBase {
  approval_id: string;
  tool: string;
  step_id?: string;
  arguments?: unknown;
  reason?: string;
  expires_at?: string;
}
export interface ApprovalResolvedData extends EventBase {
  approval_id: string;
  status: ApprovalStatus;
  note?: string;
}

// The terminal event names live with the other status rules, shared by every layer.
import type { TerminalEventName } from '../runEvents/runStatus';
export { TERMINAL_EVENTS, isTerminalEvent, type TerminalEventName } from '../runEvents/runStatus';

/** One run event: a union on the event name; unknown kinds are kept whole with `known: false`. */
export type RunEvent =
  | { event: 'plan.created'; known: true; data: PlanCreatedData }
  | { event: 'step.started'; known: true; data: StepStartedData }
  | { event: 'tool.called'; known: true; data: ToolCalledData }
  | { event: 'observation.recorded'; known: true; data: ObservationRecordedData }
  | { event: 'step.completed'; known: true; data: StepCompletedData }
  | { event: TerminalEventName; known: true; data: RunEndedData }
  | { event: 'approval.requested'; known: true; data: ApprovalRequestedData }
  | { event: 'approval.resolved'; known: true; data: ApprovalResolvedData }
  | { event: string; known: false; data: EventBase };
