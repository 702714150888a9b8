// Find in a run's whole log: the next or previous match of a query among the events passing a
// filter, wrapping, and the count of all matches. One pass over the log in chunks, starting at
// the position so the match to show is usually known early and reported at once, then the
// rest for the count and the ordinal. The matches' sequences stay in a compact array, so moving
// to the next or previous one afterwards is a binary search. A new find supersedes the running
// one. Plain Node: no vscode.
import { type LogFilter, normalizeQuery } from '../runEvents/logQuery';
import type { WireEvent } from '../runEvents/wire';
import { filterKey } from './filterIndex';
import type { LogReader } from './logReader';
import { chunks, countLines, eventMatches, forEachCandidate, rawPlan, type ScanOptions } from './logScan';
import { SortedNumbers } from './sortedNumbers';

export interface FindRequest {
  query: string;
  filter: LogFilter;
  from: number;
  direction: 'next' | 'prev';
}

/** As the `found` message carries it (protocol.ts), without the request id. */
export interface FindProgress {
  sequence?: number;
  ordinal?: number;
  count: number;
  scanned: number;
  total: number;
  done: boolean;
}

export interface FindOptions extends ScanOptions {
  /** Least time between two progress reports. */
  progressMs?: number;
  now?: () => number;
}

/** A growable array of sequences (8 bytes each: exact for every safe integer). */
export class SequenceList extends SortedNumbers<Float64Array> {
  constructor() {
    super(new Float64Array(256));
  }

  protected allocate(size: number): Float64Array {
    return new Float64Array(size);
  }

  /** A new list: the parts [from, to) of these lists, each optionally reversed, in order. */
  static join(parts: { list: SequenceList; from: number; to: number; reverse: boolean }[]): SequenceList {
    const out = new SequenceList();
    out.data = new Float64Array(
      Math.max(
        256,
        parts.reduce((n, p) => n + p.to - p.from, 0),
      ),
    );
    for (const p of parts) {
      if (p.reverse) {
        for (let i = p.to - 1; i >= p.from; i--) {
          out.data[out.length++] = p.list.data[i];
        }
      } else {
        out.data.set(p.list.data.subarray(p.from, p.to), out.length);
        out.length += p.to - p.from;
      }
    }
    return out;
  }
}

interface Counted {
  key: string;
  matches: SequenceList;
  /** Positions [0, scanned) are counted. */
  scanned: number;
}

/** The match to show: the first after `from` (or the first of all), the last before it (or the last of all). */
export function pick(
  matches: SequenceList,
  from: number,
  direction: FindRequest['direction'],
): { sequence?: number; ordinal?: number } {
  if (matches.length === 0) {
    return {};
  }
  if (direction === 'next') {
    const i = matches.upperBound(from);
    const at = i < matches.length ? i : 0;
    return { sequence: matches.at(at), ordinal: at + 1 };
  }
  const i = matches.upperBound(from - 1) - 1;
  const at = i >= 0 ? i : matches.length - 1;
  return { sequence: matches.at(at), ordinal: at + 1 };
}

export class LogFinder {
  private running: AbortController | undefined;
  private counted: Counted | undefined;
  private readonly now: () => number;

  constructor(
    private readonly cache: LogReader,
    private readonly options: FindOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Stops the running find (its promise rejects with an AbortError-like reason). */
  stop(): void {
    this.running?.abort(new FindSuperseded());
    this.running = undefined;
  }

  /**
   * Runs a find, reporting progress (at most every progressMs, and at once when the match to
   * show is known) and last a report with `done`. Rejects with FindSuperseded when stopped.
   */
  async find(
    request: FindRequest,
    report: (progress: FindProgress) => void,
    signal?: AbortSignal,
  ): Promise<FindProgress> {
    this.stop();
    const controller = new AbortController();
    this.running = controller;
    const scanSignal = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
    try {
      const result = await this.run(request, report, scanSignal);
      report(result);
      return result;
    } finally {
      if (this.running === controller) {
        this.running = undefined;
      }
    }
  }

  private async run(
    request: FindRequest,
    report: (progress: FindProgress) => void,
    signal: AbortSignal,
  ): Promise<FindProgress> {
    await this.cache.flushed();
    const query = normalizeQuery(request.query);
    const total = this.cache.length;
    if (query === '') {
      return { count: 0, scanned: total, total, done: true };
    }
    const key = `${filterKey(request.filter)}\u0000${query}`;
    const match = (line: string) => {
      const event = JSON.parse(line) as WireEvent;
      return eventMatches(event, request.filter, query) ? event.data.sequence : undefined;
    };
    const plan = rawPlan(request.filter, query);
    const scan = { ...this.options, signal };
    if (this.counted?.key === key) {
      // Counted before: only the events appended since are new (they come after every match).
      const counted = this.counted;
      for await (const chunk of chunks(this.cache, counted.scanned, total, false, scan)) {
        forEachCandidate(chunk.text, chunk.start, plan, (_, line) => {
          const sequence = match(line);
          if (sequence !== undefined) {
            counted.matches.push(sequence);
          }
        });
      }
      counted.scanned = total;
      return {
        ...pick(counted.matches, request.from, request.direction),
        count: counted.matches.length,
        scanned: total,
        total,
        done: true,
      };
    }
    this.counted = undefined;
    const next = request.direction === 'next';
    // First position after `from` (next), or first at or after it (prev: everything before it is older).
    const p = await this.cache.indexAfter(next ? request.from : request.from - 1);
    const list = new SequenceList();
    let early: number | undefined;
    let scanned = 0;
    let lastReport = this.now();
    const progress = (force: boolean) => {
      if (!force && this.now() - lastReport < (this.options.progressMs ?? 100)) {
        return;
      }
      lastReport = this.now();
      report({ sequence: early, count: list.length, scanned, total, done: false });
    };
    // next: [p, total) then [0, p), each forwards; prev: [0, p) then [p, total), each backwards.
    const segments: [number, number][] = next
      ? [
          [p, total],
          [0, p],
        ]
      : [
          [0, p],
          [p, total],
        ];
    const ends: number[] = [];
    for (const [from, to] of segments) {
      for await (const chunk of chunks(this.cache, from, to, !next, scan)) {
        const found: number[] = [];
        forEachCandidate(chunk.text, chunk.start, plan, (_, line) => {
          const sequence = match(line);
          if (sequence !== undefined) {
            found.push(sequence);
          }
        });
        if (next) {
          for (const s of found) {
            list.push(s);
          }
        } else {
          for (let i = found.length - 1; i >= 0; i--) {
            list.push(found[i]);
          }
        }
        scanned += countLines(chunk.text);
        // The first match met in this order is the one to show.
        const certain = early === undefined && found.length > 0;
        if (certain) {
          early = next ? found[0] : found[found.length - 1];
        }
        progress(certain);
      }
      ends.push(list.length);
    }
    // Back to ascending order: next visited A (ascending) then B = [0, p); prev visited both descending.
    const a = ends[0];
    const sorted = next
      ? SequenceList.join([
          { list, from: a, to: list.length, reverse: false },
          { list, from: 0, to: a, reverse: false },
        ])
      : SequenceList.join([
          { list, from: 0, to: a, reverse: true },
          { list, from: a, to: list.length, reverse: true },
        ]);
    this.counted = { key, matches: sorted, scanned: total };
    return {
      ...pick(sorted, request.from, request.direction),
      count: sorted.length,
      scanned: total,
      total,
      done: true,
    };
  }
}

/** The reason a find stopped because another replaced it (or stopFind). */
export class FindSuperseded extends Error {
  constructor() {
    super('The find was superseded');
    this.name = 'AbortError';
  }
}
