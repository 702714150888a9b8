// The webview's questions about the whole log (`page`, `find`, `stopFind`), answered from the
// run's log on disk (src/runLog) or, when that is not available (no storage folder, a disk
// error), from the bounded model's newest events, so the panel keeps working either way. The
// answers go out through PanelChannel.reply (never dropped by a backlog reset). No vscode.
import { normalizeQuery } from '../runEvents/logQuery';
import type { WireEvent } from '../runEvents/wire';
import { FindSuperseded, pick, SequenceList } from '../runLog/logFind';
import { eventMatches } from '../runLog/logScan';
import type { RunLog } from '../runLog/runLog';
import type { HostMessage, WebviewMessage } from './protocol';

type PageMessage = Extract<WebviewMessage, { type: 'page' }>;
type FindMessage = Extract<WebviewMessage, { type: 'find' }>;
export type LogRequest = Extract<WebviewMessage, { type: 'page' | 'find' | 'stopFind' }>;

export interface LogRequestsDeps {
  /** The log on disk, when usable. */
  log(): RunLog | undefined;
  /** The bounded model's newest events (the fallback). */
  recent(): readonly WireEvent[];
  reply(message: HostMessage): void;
  warn(message: string): void;
  /** Aborted when the panel closes. */
  signal: AbortSignal;
}

export class LogRequests {
  private findGeneration = 0;

  constructor(private readonly deps: LogRequestsDeps) {}

  handle(m: LogRequest): Promise<void> {
    if (m.type === 'page') {
      return this.page(m);
    }
    if (m.type === 'find') {
      return this.find(m);
    }
    this.stopFind();
    return Promise.resolve();
  }

  async page(m: PageMessage): Promise<void> {
    const log = this.deps.log();
    if (log) {
      try {
        const answer = await log.page(m, this.deps.signal);
        this.deps.reply({ type: 'page', requestId: m.requestId, ...answer });
        return;
      } catch (err) {
        if (this.deps.signal.aborted) {
          return;
        }
        this.deps.warn(`a page of the log could not be read (${String(err)}); answering from the newest events`);
      }
    }
    this.deps.reply({ type: 'page', requestId: m.requestId, ...pageOf(this.deps.recent(), m) });
  }

  async find(m: FindMessage): Promise<void> {
    const generation = ++this.findGeneration;
    const log = this.deps.log();
    const reply = (p: {
      sequence?: number;
      ordinal?: number;
      count: number;
      scanned: number;
      total: number;
      done: boolean;
    }) => {
      if (generation === this.findGeneration) {
        this.deps.reply({ type: 'found', requestId: m.requestId, ...p });
      }
    };
    if (log) {
      try {
        await log.find(m, reply, this.deps.signal);
        return;
      } catch (err) {
        if (err instanceof FindSuperseded || this.deps.signal.aborted || generation !== this.findGeneration) {
          return;
        }
        this.deps.warn(`a search of the log failed (${String(err)}); searching the newest events`);
      }
    }
    reply(findIn(this.deps.recent(), m));
  }

  stopFind(): void {
    this.findGeneration++;
    this.deps.log()?.stopFind();
  }
}

/** A page over events held in memory: the same rules as logPages.ts. */
export function pageOf(
  events: readonly WireEvent[],
  m: Omit<PageMessage, 'type' | 'requestId'>,
): { events: WireEvent[]; before: boolean; after: boolean; total: number } {
  const passing = events.filter((e) => eventMatches(e, m.filter, ''));
  const at = firstIndex(passing, (s) => s >= m.sequence);
  const past = firstIndex(passing, (s) => s > m.sequence);
  let start: number;
  let end: number;
  if (m.direction === 'after') {
    [start, end] = [past, Math.min(passing.length, past + m.limit)];
  } else if (m.direction === 'before') {
    [start, end] = [Math.max(0, at - m.limit), at];
  } else {
    start = Math.max(0, at - Math.floor(m.limit / 2));
    end = Math.min(passing.length, start + m.limit);
    start = Math.max(0, end - m.limit);
  }
  return { events: passing.slice(start, end), before: start > 0, after: end < passing.length, total: passing.length };
}

/** A find over events held in memory: the same answer as logFind.ts gives, in one report. */
export function findIn(events: readonly WireEvent[], m: Omit<FindMessage, 'type' | 'requestId'>) {
  const query = normalizeQuery(m.query);
  const matches = new SequenceList();
  if (query !== '') {
    for (const e of events) {
      if (eventMatches(e, m.filter, query)) {
        matches.push(e.data.sequence);
      }
    }
  }
  return {
    ...pick(matches, m.from, m.direction),
    count: matches.length,
    scanned: events.length,
    total: events.length,
    done: true,
  };
}

function firstIndex(events: readonly WireEvent[], test: (sequence: number) => boolean): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(events[mid].data.sequence)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}
