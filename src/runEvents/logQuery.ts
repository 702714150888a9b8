// The one home of what "matches" means in a run's log: the filter (kind, tool, step, status) and
// the text search. Pure and shared: the host applies it over the whole log on disk (src/runLog),
// the webview to the live events it is shown, so both always agree.
import { fieldText } from './runModel';
import { isTerminalEvent } from './runStatus';
import type { WireEvent } from './wire';

/** Filters over the whole run; the parts combine (all must hold). Absent or empty = no limit. */
export interface LogFilter {
  /** Event names. */
  kinds?: string[];
  /** A tool name (the `tool` field of tool.called and approval events), exact. */
  tool?: string;
  /** A step id: the step's events and every event naming it. */
  stepId?: string;
  /**
   * 'problems': run.failed / run.cancelled, denied or expired approvals, and events whose
   * `status` or `error` says failure; 'approvals': approval.requested and approval.resolved.
   */
  status?: 'problems' | 'approvals';
}

export const LOG_FILTER_STATUSES = ['problems', 'approvals'] as const;
const MAX_FILTER_KINDS = 100;
const MAX_FILTER_TEXT = 500;
/** The longest query the search accepts (a pasted line of a log, not a document). */
export const MAX_QUERY_CHARS = 500;

const FAILED_WORDS = new Set([
  'failed',
  'failure',
  'error',
  'errored',
  'denied',
  'expired',
  'cancelled',
  'canceled',
  'rejected',
  'timeout',
  'timed_out',
]);

export function isEmptyFilter(filter: LogFilter | undefined): boolean {
  return !filter || ((filter.kinds?.length ?? 0) === 0 && !filter.tool && !filter.stepId && !filter.status);
}

/** Checks an untrusted filter (from the webview, or persisted state); undefined when malformed. */
export function parseLogFilter(raw: unknown): LogFilter | undefined {
  if (raw === undefined) {
    return {};
  }
  if (typeof raw !== 'object' || raw === null) {
    return undefined;
  }
  const f = raw as Record<string, unknown>;
  const text = (value: unknown) =>
    value === undefined || (typeof value === 'string' && value.length <= MAX_FILTER_TEXT);
  if (!text(f.tool) || !text(f.stepId)) {
    return undefined;
  }
  if (f.status !== undefined && !(LOG_FILTER_STATUSES as readonly unknown[]).includes(f.status)) {
    return undefined;
  }
  if (
    f.kinds !== undefined &&
    !(
      Array.isArray(f.kinds) &&
      f.kinds.length <= MAX_FILTER_KINDS &&
      f.kinds.every((k) => typeof k === 'string' && k.length <= MAX_FILTER_TEXT)
    )
  ) {
    return undefined;
  }
  const filter: LogFilter = {};
  if (Array.isArray(f.kinds) && f.kinds.length > 0) {
    filter.kinds = [...(f.kinds as string[])];
  }
  if (typeof f.tool === 'string' && f.tool) {
    filter.tool = f.tool;
  }
  if (typeof f.stepId === 'string' && f.stepId) {
    filter.stepId = f.stepId;
  }
  if (f.status === 'problems' || f.status === 'approvals') {
    filter.status = f.status;
  }
  return filter;
}

export function matchesFilter(event: WireEvent, filter: LogFilter | undefined): boolean {
  if (!filter) {
    return true;
  }
  if (filter.kinds && filter.kinds.length > 0 && !filter.kinds.includes(event.event)) {
    return false;
  }
  if (filter.tool && event.data.tool !== filter.tool) {
    return false;
  }
  if (filter.stepId && event.data.step_id !== filter.stepId) {
    return false;
  }
  if (filter.status === 'approvals' && !event.event.startsWith('approval.')) {
    return false;
  }
  if (filter.status === 'problems' && !isProblem(event)) {
    return false;
  }
  return true;
}

function isProblem(event: WireEvent): boolean {
  if (isTerminalEvent(event.event)) {
    return event.event !== 'run.completed';
  }
  const word = (value: unknown) => typeof value === 'string' && FAILED_WORDS.has(value.toLowerCase());
  if (word(event.data.status)) {
    return true;
  }
  const error = event.data.error;
  return error !== undefined && error !== null && error !== false && error !== '';
}

/** A search query as matched: trimmed and lower-cased; '' matches nothing. */
export function normalizeQuery(query: string): string {
  return query.trim().slice(0, MAX_QUERY_CHARS).toLowerCase();
}

/**
 * The text a search looks in: the event name, the sequence, and every data field (strings as
 * they are, other values as JSON), lower-cased. `query` must come from normalizeQuery().
 */
export function matchesQuery(event: WireEvent, query: string): boolean {
  if (query === '') {
    return false;
  }
  if (event.event.toLowerCase().includes(query)) {
    return true;
  }
  for (const [key, value] of Object.entries(event.data)) {
    const text = key === 'sequence' && typeof value !== 'string' ? String(value) : fieldText(value);
    if (text.toLowerCase().includes(query)) {
      return true;
    }
  }
  return false;
}
