// A page of a run's whole log: the events passing a filter before, after or around a sequence,
// with whether more exist on each side and the filtered total. Unfiltered pages are one read;
// filtered ones look up the filter's position list (filterIndex.ts). Plain Node: no vscode.
import { isEmptyFilter, type LogFilter } from '../runEvents/logQuery';
import type { WireEvent } from '../runEvents/wire';
import type { FilterIndexes } from './filterIndex';
import type { LogReader } from './logReader';

export interface PageRequest {
  sequence: number;
  direction: 'before' | 'after' | 'around';
  limit: number;
  filter: LogFilter;
}

export interface PageAnswer {
  events: WireEvent[];
  before: boolean;
  after: boolean;
  total?: number;
}

/** Positions [start, end) of the page among `count` candidates; `at`: the first candidate at or after the sequence, `past`: the first after it. */
function pageWindow(
  direction: PageRequest['direction'],
  limit: number,
  count: number,
  at: number,
  past: number,
): [number, number] {
  if (direction === 'after') {
    return [past, Math.min(count, past + limit)];
  }
  if (direction === 'before') {
    return [Math.max(0, at - limit), at];
  }
  let start = Math.max(0, at - Math.floor(limit / 2));
  const end = Math.min(count, start + limit);
  start = Math.max(0, end - limit);
  return [start, end];
}

export async function readPage(
  cache: LogReader,
  indexes: FilterIndexes,
  request: PageRequest,
  signal?: AbortSignal,
): Promise<PageAnswer> {
  await cache.flushed();
  const limit = Math.max(1, request.limit);
  // Positions of the first event with sequence >= request.sequence, and > it.
  const atPos = request.sequence <= 0 ? 0 : await cache.indexAfter(request.sequence - 1);
  const pastPos = await cache.indexAfter(request.sequence);
  if (isEmptyFilter(request.filter)) {
    const count = cache.length;
    const [start, end] = pageWindow(request.direction, limit, count, atPos, pastPos);
    return { events: await cache.read(start, end), before: start > 0, after: end < count, total: count };
  }
  const positions = await indexes.positions(request.filter, signal);
  const count = positions.length;
  const [start, end] = pageWindow(
    request.direction,
    limit,
    count,
    positions.lowerBound(atPos),
    positions.lowerBound(pastPos),
  );
  return {
    events: await cache.readAt(positions.slice(start, end)),
    before: start > 0,
    after: end < count,
    total: count,
  };
}
