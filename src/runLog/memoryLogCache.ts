// The whole log of one run in memory, for VS Code for the Web (runLog.web.ts), where the
// extension has no disk of its own: the same JSON lines as the file on the desktop (logCache.ts),
// each event cut to the panel's per-event budget, held in an array. Bounded twice: each log by
// its own cap, and every log of the window together by one shared pool, so panels left open on
// long runs cannot take the tab's memory. A log that reaches either stops for good, and
// `cappedAfter` says after which sequence (as the file does at its cap). Plain code: no vscode,
// no Node.
import { DEFAULT_EVENT_BUDGET, type EventBudget } from '../runEvents/eventBudget';
import type { WireEvent } from '../runEvents/wire';
import { linesAfter, type LogReader } from './logReader';

/** Bytes one run's log may hold in memory (its lines' UTF-16 size). */
export const MEMORY_LOG_BYTES = 32 * 1024 * 1024;
/** Bytes every run log of the window may hold together. */
export const MEMORY_POOL_BYTES = 96 * 1024 * 1024;

/** What the logs of one window have taken of their shared bytes. */
export class MemoryPool {
  private used = 0;

  constructor(readonly maxBytes = MEMORY_POOL_BYTES) {}

  get usedBytes(): number {
    return this.used;
  }

  /** Takes `bytes` when they fit; false (nothing taken) when they would pass the pool's limit. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.maxBytes) {
      return false;
    }
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}

export interface MemoryLogOptions {
  budget?: EventBudget;
  /** Most bytes this log may hold; MEMORY_LOG_BYTES when unset. */
  maxBytes?: number;
  pool?: MemoryPool;
}

export class MemoryLogCache implements LogReader {
  private readonly lines: string[] = [];
  private readonly sequences: number[] = [];
  private bytes = 0;
  private last = 0;
  private capped: number | undefined;
  private closed = false;
  private readonly budget: EventBudget;
  private readonly maxBytes: number;

  constructor(private readonly options: MemoryLogOptions = {}) {
    this.budget = options.budget ?? DEFAULT_EVENT_BUDGET;
    this.maxBytes = options.maxBytes ?? MEMORY_LOG_BYTES;
  }

  get length(): number {
    return this.lines.length;
  }

  get lastSequence(): number {
    return this.last;
  }

  /** The last sequence kept once a cap was reached (0: not even the first event fit); undefined while it has room. */
  get cappedAfter(): number | undefined {
    return this.capped;
  }

  get sizeBytes(): number {
    return this.bytes;
  }

  /**
   * Adds events after the last one kept; repeats (sequence <= the last) are ignored. `bounded`:
   * already cut to the budget. An event that would pass this log's cap or the pool's stops the
   * log: it and every later one are dropped. Returns how many were added.
   */
  append(events: readonly WireEvent[], bounded = false): number {
    if (this.closed || this.capped !== undefined) {
      return 0;
    }
    let added = 0;
    for (const { sequence, line } of linesAfter(events, this.last, this.budget, bounded)) {
      const lineBytes = line.length * 2;
      if (this.bytes + lineBytes > this.maxBytes || (this.options.pool && !this.options.pool.take(lineBytes))) {
        this.capped = this.last;
        break;
      }
      this.lines.push(line);
      this.sequences.push(sequence);
      this.bytes += lineBytes;
      this.last = sequence;
      added++;
    }
    return added;
  }

  async flushed(): Promise<void> {
    // Nothing is ever pending in memory.
  }

  async indexAfter(sequence: number): Promise<number> {
    let lo = 0;
    let hi = this.sequences.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sequences[mid] <= sequence) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  async read(from: number, to: number): Promise<WireEvent[]> {
    return this.lines.slice(Math.max(0, from), Math.min(to, this.lines.length)).map(parse);
  }

  async readAt(positions: readonly number[]): Promise<WireEvent[]> {
    return positions.filter((p) => p >= 0 && p < this.lines.length).map((p) => parse(this.lines[p]));
  }

  async readText(from: number, to: number): Promise<string> {
    return this.lines.slice(Math.max(0, from), Math.min(to, this.lines.length)).join('');
  }

  /** Frees the lines and gives their bytes back to the pool; the log takes nothing more. */
  close(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.options.pool?.give(this.bytes);
    this.lines.length = 0;
    this.sequences.length = 0;
    this.bytes = 0;
  }
}

function parse(line: string): WireEvent {
  return JSON.parse(line) as WireEvent;
}
