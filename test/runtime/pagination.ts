// Cursor pagination over a newest-first collection: limit 25 by default, 100 at most, cursor = last id.
import { badRequest } from './httpErrors';

export const DEFAULT_PAGE_LIMIT = 25;
export const MAX_PAGE_LIMIT = 100;

export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface PageParams {
  limit: number;
  after?: string;
}

export function parsePageParams(query: URLSearchParams): PageParams {
  const rawLimit = query.get('limit');
  let limit = DEFAULT_PAGE_LIMIT;
  if (rawLimit !== null) {
    if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1) {
      throw badRequest('limit must be an integer between 1 and 100.', 'limit');
    }
    limit = Number(rawLimit);
    if (limit > MAX_PAGE_LIMIT) {
      throw badRequest(`limit must be at most ${MAX_PAGE_LIMIT}.`, 'limit');
    }
  }
  const after = query.get('after');
  if (after === '') {
    throw badRequest('after must be a cursor taken from next_cursor.', 'after', 'invalid_cursor');
  }
  return after === null ? { limit } : { limit, after };
}

/**
 * One page of `items` (newest first, hidden entries included so cursors pointing at deleted
 * items keep working). New items only ever go in front, so pages after a cursor never shift.
 */
export function pageOf<T extends { id: string }>(
  items: Iterable<{ record: T; hidden: boolean }>,
  params: PageParams,
  include: (record: T) => boolean = () => true,
): ListEnvelope<T> {
  const data: T[] = [];
  let started = params.after === undefined;
  let hasMore = false;
  for (const { record, hidden } of items) {
    if (!started) {
      if (record.id === params.after) {
        started = true;
      }
      continue;
    }
    if (hidden || !include(record)) {
      continue;
    }
    if (data.length === params.limit) {
      hasMore = true;
      break;
    }
    data.push(record);
  }
  if (!started) {
    throw badRequest('Unknown cursor: pass the next_cursor of the previous page as after.', 'after', 'invalid_cursor');
  }
  return { object: 'list', data, has_more: hasMore, next_cursor: hasMore ? data[data.length - 1].id : null };
}

/**
 * `updated_after` (docs/PROTOCOL.md, Staying current): the instant in milliseconds, or
 * undefined when the parameter is absent; 400 for text that is not an RFC 3339 timestamp.
 */
export function parseUpdatedAfter(query: URLSearchParams): number | undefined {
  const raw = query.get('updated_after');
  if (raw === null) {
    return undefined;
  }
  const ms = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(raw) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(ms)) {
    throw badRequest('updated_after must be an RFC 3339 timestamp.', 'updated_after');
  }
  return ms;
}
