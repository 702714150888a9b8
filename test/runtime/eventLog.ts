// A run's append-only event log: optional synthetic prefix, appended events and raw SSE text, on disk.
import * as fs from 'node:fs';
import { isTerminalStatus, type TerminalStatus } from './records';
import { syntheticEvent } from './syntheticEvents';

export interface SyntheticPrefix {
  events: number;
  unknownKinds: boolean;
}

/** What sits at one position of the log: an event with its sequence, or raw SSE text. */
export type LogEntry =
  { kind: 'event'; sequence: number; event: string; dataJson: string } | { kind: 'raw'; text: string };

/** `cut`: a live synthetic run ended before its prefix was all released keeps only the first `cut` events of it. */
type StoredLine = { sequence: number; event: string; data: string } | { raw: string } | { cut: number };

export const TERMINAL_EVENT_NAMES = ['run.completed', 'run.failed', 'run.cancelled'];

export class RunEventLog {
  private readonly appended: LogEntry[] = [];
  private readonly positionOfSequence = new Map<number, number>();
  private lastSeq: number;
  private released: number;
  /** Events of the synthetic prefix the log holds: all of them, unless the run ended before they were released. */
  private prefixEvents: number;
  private terminal?: { sequence: number; status: TerminalStatus };
  private wake?: { promise: Promise<void>; resolve: () => void };

  /** `released` below `prefix.events` hides the rest of the prefix until release() shows it. */
  constructor(
    private readonly file: string,
    private readonly prefix: SyntheticPrefix = { events: 0, unknownKinds: false },
    released = prefix.events,
  ) {
    this.released = released;
    this.prefixEvents = prefix.events;
    this.lastSeq = prefix.events;
    if (fs.existsSync(file)) {
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        if (line.trim() === '') {
          continue;
        }
        const stored = JSON.parse(line) as StoredLine;
        if ('cut' in stored) {
          this.cutPrefix(stored.cut);
        } else if ('raw' in stored) {
          this.push({ kind: 'raw', text: stored.raw });
        } else {
          this.push({ kind: 'event', sequence: stored.sequence, event: stored.event, dataJson: stored.data });
        }
      }
    }
  }

  get lastSequence(): number {
    return this.released < this.prefixEvents ? this.released : this.lastSeq;
  }

  /** Positions are 1-based; `size` is the last visible one. */
  get size(): number {
    return this.released < this.prefixEvents ? this.released : this.prefixEvents + this.appended.length;
  }

  get ended(): boolean {
    return this.terminal !== undefined;
  }

  get terminalStatus(): TerminalStatus | undefined {
    return this.terminal?.status;
  }

  entryAt(position: number): LogEntry {
    if (position <= this.prefixEvents) {
      // Generated as for the whole prefix, so a cut prefix keeps the events it released.
      const generated = syntheticEvent(position, this.prefix.events, this.prefix.unknownKinds);
      return { kind: 'event', sequence: position, ...generated };
    }
    return this.appended[position - this.prefixEvents - 1];
  }

  /** The position a stream resuming after `sequence` starts at (raw text before event 1 included). */
  positionAfter(sequence: number): number {
    if (sequence < 1) {
      return 1;
    }
    if (sequence <= this.prefixEvents) {
      return sequence + 1;
    }
    const position = this.positionOfSequence.get(sequence);
    return position === undefined ? this.size + 1 : position + 1;
  }

  append(event: string, data: Record<string, unknown>): number {
    if (this.terminal) {
      throw new Error(`run has already ended (${this.terminal.status})`);
    }
    if (TERMINAL_EVENT_NAMES.includes(event) && this.released < this.prefixEvents) {
      this.endPrefix();
    }
    const sequence = this.lastSeq + 1;
    const { sequence: _ignored, ...fields } = data;
    const dataJson = JSON.stringify({ sequence, ...fields });
    this.persist({ sequence, event, data: dataJson });
    this.push({ kind: 'event', sequence, event, dataJson });
    this.notify();
    return sequence;
  }

  appendRaw(text: string): void {
    this.persist({ raw: text });
    this.push({ kind: 'raw', text });
    this.notify();
  }

  /** Makes the next `count` synthetic events visible (live synthetic runs). */
  release(count: number): void {
    this.released = Math.min(this.prefixEvents, this.released + count);
    this.notify();
  }

  /** Resolves at the next append, release or end: what an idle stream waits on. */
  changed(): Promise<void> {
    if (!this.wake) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.wake = { promise, resolve };
    }
    return this.wake.promise;
  }

  summary(): { sequence: number; event: string }[] {
    const out: { sequence: number; event: string }[] = [];
    for (let position = 1; position <= this.size; position++) {
      const entry = this.entryAt(position);
      if (entry.kind === 'event') {
        out.push({ sequence: entry.sequence, event: entry.event });
      }
    }
    return out;
  }

  private push(entry: LogEntry): void {
    this.appended.push(entry);
    const position = this.prefixEvents + this.appended.length;
    if (entry.kind !== 'event') {
      return;
    }
    this.lastSeq = entry.sequence;
    this.positionOfSequence.set(entry.sequence, position);
    const status = entry.event.slice('run.'.length);
    if (TERMINAL_EVENT_NAMES.includes(entry.event) && isTerminalStatus(status)) {
      this.terminal = { sequence: entry.sequence, status };
    }
  }

  /**
   * A live synthetic run ends (a cancel) before its prefix is all released: the prefix stops at
   * what was released, so the terminal event follows the last event a client could see and every
   * ended log ends with its terminal event. Events appended meanwhile (hidden behind the prefix,
   * with sequences after it) keep their sequences: then the rest of the prefix is released instead.
   */
  private endPrefix(): void {
    if (this.appended.some((entry) => entry.kind === 'event')) {
      this.released = this.prefixEvents;
      return;
    }
    this.persist({ cut: this.released });
    this.cutPrefix(this.released);
  }

  private cutPrefix(events: number): void {
    this.prefixEvents = Math.min(this.prefixEvents, events);
    this.released = this.prefixEvents;
    this.lastSeq = this.prefixEvents;
  }

  private persist(line: StoredLine): void {
    fs.appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.resolve();
  }
}
