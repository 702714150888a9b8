// Walking a run log cache in chunks without holding the event loop: each chunk is one read of
// whole lines, and between chunks the scan yields (setImmediate) and checks its AbortSignal.
// Before parsing, a line is tested as text: a line that does not contain the query (or a filter's
// `"tool":"x"`) cannot match, so most lines of a search are never parsed. The exact rule is still
// logQuery.ts (matchesFilter, matchesQuery) on the parsed event. Plain Node: no vscode.
import { type LogFilter, matchesFilter, matchesQuery } from '../runEvents/logQuery';
import type { WireEvent } from '../runEvents/wire';
import type { LogReader } from './logReader';

export interface ScanOptions {
  /** Most events per chunk. */
  chunkEvents?: number;
  /** Most bytes per chunk (roughly: the chunk shrinks when a chunk's text was larger). */
  chunkBytes?: number;
  signal?: AbortSignal;
}

export const DEFAULT_CHUNK_EVENTS = 2000;
export const DEFAULT_CHUNK_BYTES = 1024 * 1024;

/** What a line must contain as text to be worth parsing. */
export interface RawPlan {
  /** The normalized query, when searching its text in the raw line is sound. */
  query?: string;
  /** Each group: the line contains at least one of these (exact case). */
  groups: string[][];
}

// JSON escapes quotes, backslashes and control characters, and lone surrogates; a query with any
// of them (or a letter whose lower case depends on its neighbours) is only matched parsed.
const UNSAFE_IN_RAW = /["\\\u0000-\u001f\ud800-\udfff\u03a3\u03c2\u03c3]/u;

/** The text tests for a filter and a normalized query ('' = no query). */
export function rawPlan(filter: LogFilter | undefined, query: string): RawPlan {
  const groups: string[][] = [];
  if (filter?.kinds && filter.kinds.length > 0) {
    groups.push(filter.kinds.map((k) => `"event":${JSON.stringify(k)}`));
  }
  if (filter?.tool) {
    groups.push([`"tool":${JSON.stringify(filter.tool)}`]);
  }
  if (filter?.stepId) {
    groups.push([`"step_id":${JSON.stringify(filter.stepId)}`]);
  }
  if (filter?.status === 'approvals') {
    groups.push(['"event":"approval.']);
  }
  return { query: query && !UNSAFE_IN_RAW.test(query) ? query : undefined, groups };
}

/** The exact test, on the parsed event. */
export function eventMatches(event: WireEvent, filter: LogFilter | undefined, query: string): boolean {
  return matchesFilter(event, filter) && (query === '' || matchesQuery(event, query));
}

/**
 * Calls `each` for every line of `text` (whole lines, each ending in a newline; the first is the
 * event at `firstIndex`) that passes the plan's text tests, in order.
 */
export function forEachCandidate(
  text: string,
  firstIndex: number,
  plan: RawPlan,
  each: (index: number, line: string) => void,
): void {
  const pass = (line: string) => plan.groups.every((group) => group.some((needle) => line.includes(needle)));
  if (plan.query === undefined) {
    let start = 0;
    let index = firstIndex;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start), index++) {
      const line = text.slice(start, nl);
      start = nl + 1;
      if (pass(line)) {
        each(index, line);
      }
    }
    return;
  }
  // Lower-casing never adds or removes a newline, so line numbers in `lowered` are those of `text`.
  const lowered = text.toLowerCase();
  const q = plan.query;
  let lowPos = 0;
  let lowLine = 0;
  let origPos = 0;
  let origLine = 0;
  for (let hit = lowered.indexOf(q); hit >= 0;) {
    for (let nl = lowered.indexOf('\n', lowPos); nl >= 0 && nl < hit; nl = lowered.indexOf('\n', lowPos)) {
      lowPos = nl + 1;
      lowLine++;
    }
    while (origLine < lowLine) {
      origPos = text.indexOf('\n', origPos) + 1;
      origLine++;
    }
    const end = text.indexOf('\n', origPos);
    const line = text.slice(origPos, end);
    if (pass(line)) {
      each(firstIndex + lowLine, line);
    }
    const lowEnd = lowered.indexOf('\n', hit);
    if (lowEnd < 0) {
      break;
    }
    lowPos = lowEnd + 1;
    lowLine++;
    hit = lowered.indexOf(q, lowPos);
  }
}

// A web worker (VS Code for the Web) has no setImmediate: a zero timeout is its next turn.
const nextTurn: (run: () => void) => unknown =
  typeof setImmediate === 'function' ? setImmediate : (run) => setTimeout(run, 0);

/** Lets other work run; rejects when the signal was aborted meanwhile. */
export function yieldToLoop(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) =>
    nextTurn(() => {
      if (signal?.aborted) {
        reject(signal.reason ?? new Error('aborted'));
      } else {
        resolve();
      }
    }),
  );
}

/**
 * The chunks [start, end) of a scan over positions [from, to), in order (or in reverse order of
 * chunks when `reverse`: the lines within a chunk stay in order), one read each, yielding between.
 */
export async function* chunks(
  cache: LogReader,
  from: number,
  to: number,
  reverse: boolean,
  options: ScanOptions = {},
): AsyncGenerator<{ start: number; text: string }> {
  let size = options.chunkEvents ?? DEFAULT_CHUNK_EVENTS;
  const maxBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  let lo = from;
  let hi = to;
  while (lo < hi) {
    if (options.signal?.aborted) {
      throw options.signal.reason ?? new Error('aborted');
    }
    const start = reverse ? Math.max(lo, hi - size) : lo;
    const end = reverse ? hi : Math.min(hi, lo + size);
    const text = await cache.readText(start, end);
    if (reverse) {
      hi = start;
    } else {
      lo = end;
    }
    // Large events: fewer per chunk next time, so one chunk's work stays small.
    if (text.length > maxBytes && size > 16) {
      size = Math.max(16, Math.floor(size / 2));
    }
    yield { start, text };
    await yieldToLoop(options.signal);
  }
}

/** Lines in a chunk's text (each ends with a newline). */
export function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    n++;
  }
  return n;
}
