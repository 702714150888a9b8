// Loose checks of what the server answers: strict only where the spec is (a record has an id, a
// page has a data array), the fields the views display made safe (text is a string or absent,
// bytes a number or absent), everything else kept as it came so unknown fields survive.
import type { Logger } from '../common/logger';
import { ApiError } from './errors';
import { type DeletedFile, MAX_PAGE_SIZE, type Page } from './types';

function protocol(message: string): ApiError {
  return new ApiError({ kind: 'protocol', message });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// The text fields of the records (docs/PROTOCOL.md); views put them in labels and paths.
const TEXT_FIELDS = [
  'object',
  'purpose',
  'filename',
  'content_type',
  'created_at',
  'objective',
  'status',
  'run_id',
  'task_id',
  'name',
  'file_id',
  'started_at',
  'completed_at',
] as const;

function hasId(value: unknown): value is Record<string, unknown> & { id: string } {
  return isObject(value) && typeof value.id === 'string' && value.id !== '';
}

/** A copy whose displayed fields have the types the record interfaces promise. */
function safeFields<T>(value: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...value };
  for (const field of TEXT_FIELDS) {
    if (!(field in out)) {
      continue;
    }
    const v = out[field];
    if (typeof v === 'string') {
      continue;
    }
    out[field] = typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
  }
  if ('bytes' in out && !(Number.isSafeInteger(out.bytes) && (out.bytes as number) >= 0)) {
    out.bytes = undefined;
  }
  if ('attachments' in out) {
    out.attachments = Array.isArray(out.attachments) ? out.attachments.filter(isObject) : undefined;
  }
  return out as T;
}

/** A record with at least a non-empty string id; every other field is kept, the displayed ones made safe. */
export function parseRecord<T extends { id: string }>(value: unknown, what: string): T {
  if (!hasId(value)) {
    throw protocol(`The ${what} record in the answer has no id.`);
  }
  return safeFields<T>(value);
}

/** DELETE answers 200 with a body or 204 without one. */
export function parseDeleted(value: unknown, id: string): DeletedFile {
  if (value === undefined) {
    return { id, deleted: true };
  }
  if (!isObject(value)) {
    throw protocol('The answer to the delete is not an object.');
  }
  return { ...value, id: typeof value.id === 'string' ? value.id : id };
}

/**
 * The list envelope: `data` must be an array; items that are not records with a string id are
 * dropped (one warning per page, naming no value); has_more counts only when literally true.
 * A page keeps at most the `limit` it asked for (1..100; 100 when it asked none): a server that
 * answers a search for 20 with a quarter of a million records has the rest left out, counted in
 * `overflow` and said in a warning, and the pager ends the walk there as cut.
 */
export function parsePage<T>(value: unknown, what = 'items', logger?: Logger, limit?: number): Page<T> {
  if (!isObject(value) || !Array.isArray(value.data)) {
    throw protocol('The list in the answer has no data array.');
  }
  const keep =
    limit === undefined || !Number.isFinite(limit)
      ? MAX_PAGE_SIZE
      : Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(limit)));
  const data: T[] = [];
  let overflow = 0;
  let records = 0;
  for (const item of value.data as unknown[]) {
    if (hasId(item)) {
      records++;
      if (data.length < keep) {
        data.push(safeFields<T>(item));
      } else {
        overflow++;
      }
    }
  }
  const dropped = value.data.length - records;
  if (dropped > 0) {
    logger?.warn(`Dropped ${dropped} of ${value.data.length} ${what} in a list answer: not records with a string id.`);
  }
  if (overflow > 0) {
    logger?.warn(`Kept ${keep} of ${records} ${what} in a list answer: a page holds at most ${keep}.`);
  }
  const cursor = value.next_cursor;
  return {
    ...value,
    object: typeof value.object === 'string' ? value.object : 'list',
    data,
    has_more: value.has_more === true,
    next_cursor: typeof cursor === 'string' && cursor !== '' ? cursor : null,
    received: value.data.length,
    ...(overflow > 0 ? { overflow } : {}),
  };
}
