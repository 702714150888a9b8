// The records of memory, tools, connectors and webhooks (docs/PROTOCOL.md, the sections of the resource
// map): all assumed, so every field but the id is optional and unknown fields are kept.

/** At most 64 KiB of UTF-8 per memory (docs/PROTOCOL.md, Memory). */
export const MAX_MEMORY_BYTES = 64 * 1024;

export interface MemoryRecord {
  id: string;
  object?: string;
  /** Always a string after parsing ('' when the server sent none). */
  content: string;
  /** Always an array of strings after parsing. */
  tags: string[];
  project_id?: string;
  source?: { run_id?: string; sequence?: number };
  /** The integer a PATCH must name; absent when the server sent none. */
  version?: number;
  created_at?: string;
  updated_at?: string;
  /** 0..1 on a search result. */
  score?: number;
  [extra: string]: unknown;
}

export interface MemoryListParams {
  query?: string;
  project_id?: string;
  tag?: string;
  limit?: number;
  after?: string;
}

export interface MemoryChange {
  content?: string;
  tags?: string[];
  /** The version the change is based on. */
  version: number;
}

export interface ToolRecord {
  id: string;
  object?: string;
  name?: string;
  description?: string;
  input_schema?: Record<string, unknown>;
  /** True only when the server said literally true. */
  requires_approval: boolean;
  connector_id?: string;
  [extra: string]: unknown;
}

export interface InvocationRecord {
  id: string;
  object?: string;
  tool?: string;
  run_id?: string;
  step_id?: string;
  sequence?: number;
  arguments?: Record<string, unknown>;
  status?: string;
  output?: string;
  output_truncated: boolean;
  /** The message with any webhook secret redacted. */
  error?: { message: string };
  started_at?: string;
  completed_at?: string;
  duration_ms?: number;
  [extra: string]: unknown;
}

export interface InvocationListParams {
  run_id?: string;
  tool?: string;
  status?: string;
  limit?: number;
  after?: string;
}

export interface ConnectorGrant {
  id: string;
  scope?: string;
  resource?: string;
  created_at?: string;
  [extra: string]: unknown;
}

export interface ConnectorRecord {
  id: string;
  object?: string;
  kind?: string;
  name?: string;
  account?: string;
  status?: string;
  /** Only grants with a string id. */
  grants: ConnectorGrant[];
  created_at?: string;
  [extra: string]: unknown;
}

export interface WebhookRecord {
  id: string;
  object?: string;
  url?: string;
  events: string[];
  status?: string;
  created_at?: string;
  [extra: string]: unknown;
}

/** What creating a webhook answers: the record, and the secret this once (never kept by the client). */
export interface CreatedWebhook {
  webhook: WebhookRecord;
  secret?: string;
}

export interface WebhookDelivery {
  status_code?: number;
  duration_ms?: number;
  /** The message with any webhook secret redacted. */
  error?: { message: string };
}

/** The webhook events the client offers (docs/PROTOCOL.md, Webhooks; "*" = all). */
export const WEBHOOK_EVENT_NAMES = ['run.completed', 'run.failed', 'run.cancelled', 'approval.requested', '*'] as const;
