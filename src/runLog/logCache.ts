// The whole log of one run on disk: an append-only file of JSON lines (each event already cut to
// the panel's per-event budget), a sparse index in memory (byte offset and sequence of every
// BLOCK_EVENTS-th event) so any page costs one small read, and batched appends that never block
// the caller. Plain Node: no vscode.
import { createReadStream, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { DEFAULT_EVENT_BUDGET, type EventBudget } from '../runEvents/eventBudget';
import type { WireEvent } from '../runEvents/wire';
import { linesAfter } from './logReader';

/** Events per index entry: a block read is at most this many lines. */
export const BLOCK_EVENTS = 256;

export interface LogCacheOptions {
  budget?: EventBudget;
  /** Called once, on the first disk error: the cache then stops and the caller falls back. */
  onFailure?(err: unknown): void;
  /**
   * Most bytes the file may hold (the run's cap, logFolder.ts runLogCap): an event that would pass
   * it stops the log for good, and `cappedAfter` says after which sequence. Unbounded when unset.
   */
  maxBytes?: number;
}

/** Why a file was not reused when reopened. */
export type ReopenOutcome = 'new' | 'reused' | 'torn-tail-dropped' | 'corrupt-deleted';

export class RunLogCache {
  /** Byte offset of events 0, BLOCK_EVENTS, 2 * BLOCK_EVENTS, ... */
  private offsets: number[] = [];
  /** Sequence of the same events. */
  private sequences: number[] = [];
  private count = 0;
  private bytes = 0;
  private last = 0;
  private pending: string[] = [];
  private writing: Promise<void> | undefined;
  private handle: FileHandle | undefined;
  private broken = false;
  private closed = false;
  private capped: number | undefined;
  private readonly budget: EventBudget;

  private constructor(
    readonly path: string,
    private readonly options: LogCacheOptions,
  ) {
    this.budget = options.budget ?? DEFAULT_EVENT_BUDGET;
  }

  /**
   * Opens (or creates) the file and rebuilds the index by streaming it once. A torn last line (a
   * write cut short) is dropped; any other bad line, or sequences out of order, means the file
   * cannot be trusted: it is deleted and the cache starts empty (the caller re-reads the server's
   * log from sequence 0).
   */
  static async open(
    path: string,
    options: LogCacheOptions = {},
  ): Promise<{ cache: RunLogCache; outcome: ReopenOutcome }> {
    const cache = new RunLogCache(path, options);
    const outcome = await cache.rebuild();
    cache.handle = await fsp.open(path, 'a+');
    return { cache, outcome };
  }

  /** Events stored (or queued to be). */
  get length(): number {
    return this.count;
  }

  get lastSequence(): number {
    return this.last;
  }

  /** A disk error stopped the cache: the caller shows its bounded model instead. */
  get failed(): boolean {
    return this.broken;
  }

  /**
   * The last sequence kept once the file reached its byte cap (0: not even the first event fit):
   * the log takes no more events, and what it has stays readable. Undefined while it has room.
   */
  get cappedAfter(): number | undefined {
    return this.capped;
  }

  /**
   * Adds events after the last one kept; repeats (sequence <= the last) are ignored. Returns at
   * once: the lines go out in one write per batch, after the write in progress. `bounded`: they
   * were cut to the budget already (the model's accepted events), so not walked again. An event
   * that would take the file past `maxBytes` stops the log: it and every later one are dropped.
   */
  append(events: readonly WireEvent[], bounded = false): number {
    if (this.broken || this.closed || this.capped !== undefined) {
      return 0;
    }
    const maxBytes = this.options.maxBytes ?? Number.POSITIVE_INFINITY;
    let added = 0;
    for (const { sequence, line } of linesAfter(events, this.last, this.budget, bounded)) {
      const lineBytes = Buffer.byteLength(line);
      if (this.bytes + lineBytes > maxBytes) {
        this.capped = this.last;
        break;
      }
      if (this.count % BLOCK_EVENTS === 0) {
        this.offsets.push(this.bytes);
        this.sequences.push(sequence);
      }
      this.pending.push(line);
      this.bytes += lineBytes;
      this.count++;
      this.last = sequence;
      added++;
    }
    if (added > 0) {
      this.kick();
    }
    return added;
  }

  /** Resolves when everything appended so far is on disk (or the cache has failed). */
  async flushed(): Promise<void> {
    while (this.writing) {
      await this.writing;
    }
  }

  /** Index of the first event whose sequence is > `sequence` (== length when none). */
  async indexAfter(sequence: number): Promise<number> {
    const block = this.blockOf(sequence);
    if (block < 0) {
      return 0;
    }
    const events = await this.readBlock(block);
    let i = 0;
    while (i < events.length && events[i].data.sequence <= sequence) {
      i++;
    }
    return block * BLOCK_EVENTS + i;
  }

  /** Events [from, to) by position, in order (`to` clamped to the length). */
  async read(from: number, to: number): Promise<WireEvent[]> {
    const out: WireEvent[] = [];
    await this.readLines(from, to, (line) => out.push(JSON.parse(line) as WireEvent));
    return out;
  }

  /** The events at these positions (ascending), each block read once and only the wanted lines parsed. */
  async readAt(positions: readonly number[]): Promise<WireEvent[]> {
    const out: WireEvent[] = [];
    let i = 0;
    while (i < positions.length) {
      const block = Math.floor(positions[i] / BLOCK_EVENTS);
      let j = i;
      while (j < positions.length && Math.floor(positions[j] / BLOCK_EVENTS) === block) {
        j++;
      }
      const text = await this.readText(positions[i], positions[j - 1] + 1);
      let start = 0;
      let at = positions[i];
      for (let k = i; k < j; k++) {
        while (at < positions[k]) {
          start = text.indexOf('\n', start) + 1;
          at++;
        }
        out.push(JSON.parse(text.slice(start, text.indexOf('\n', start))) as WireEvent);
      }
      i = j;
    }
    return out;
  }

  /** The raw lines [from, to) as one string (each ends with a newline): for scanning and export. */
  async readText(from: number, to: number): Promise<string> {
    to = Math.min(to, this.count);
    if (from >= to) {
      return '';
    }
    await this.flushed();
    if (this.broken) {
      throw new Error('The run log cache failed');
    }
    const startBlock = Math.floor(from / BLOCK_EVENTS);
    const endBlock = Math.ceil(to / BLOCK_EVENTS);
    const end = endBlock < this.offsets.length ? this.offsets[endBlock] : this.bytes;
    const blockStart = this.offsets[startBlock];
    const text = await this.readBytes(blockStart, end - blockStart);
    // Trim to whole events: skip the lines before `from`, stop after `to`.
    let cut = 0;
    for (let i = startBlock * BLOCK_EVENTS; i < from; i++) {
      cut = text.indexOf('\n', cut) + 1;
    }
    // Ending on a block boundary (or the end), the read already stops there.
    if (to % BLOCK_EVENTS === 0 || to === this.count) {
      return cut === 0 ? text : text.slice(cut);
    }
    let stop = cut;
    for (let i = from; i < to; i++) {
      stop = text.indexOf('\n', stop) + 1;
    }
    return text.slice(cut, stop);
  }

  /** Bytes on disk once flushed (the whole file). */
  get sizeBytes(): number {
    return this.bytes;
  }

  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    await this.flushed();
    this.closed = true;
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
  }

  /** Closes the file and removes it (the caller's housekeeping, or a reset). */
  async delete(): Promise<void> {
    await this.close();
    await fsp.rm(this.path, { force: true });
  }

  private async readLines(from: number, to: number, each: (line: string) => void): Promise<void> {
    const text = await this.readText(from, to);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      each(text.slice(start, nl));
      start = nl + 1;
    }
  }

  private async readBlock(block: number): Promise<WireEvent[]> {
    return this.read(block * BLOCK_EVENTS, (block + 1) * BLOCK_EVENTS);
  }

  /** The last block whose first sequence is <= `sequence`; -1 when before all. */
  private blockOf(sequence: number): number {
    let lo = 0;
    let hi = this.sequences.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.sequences[mid] <= sequence) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  private async readBytes(position: number, length: number): Promise<string> {
    if (!this.handle) {
      throw new Error('The run log cache is closed');
    }
    const buffer = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const { bytesRead } = await this.handle.read(buffer, read, length - read, position + read);
      if (bytesRead === 0) {
        break;
      }
      read += bytesRead;
    }
    return buffer.toString('utf8', 0, read);
  }

  private kick(): void {
    if (this.writing || this.pending.length === 0) {
      return;
    }
    this.writing = this.writeBatches().finally(() => {
      this.writing = undefined;
    });
  }

  private async writeBatches(): Promise<void> {
    while (this.pending.length > 0 && !this.broken) {
      const batch = this.pending.join('');
      this.pending = [];
      try {
        if (!this.handle) {
          throw new Error('The run log cache is closed');
        }
        await this.handle.appendFile(batch, 'utf8');
      } catch (err) {
        this.fail(err);
      }
    }
  }

  private fail(err: unknown): void {
    if (this.broken) {
      return;
    }
    this.broken = true;
    this.pending = [];
    this.options.onFailure?.(err);
  }

  private async rebuild(): Promise<ReopenOutcome> {
    let size: number;
    try {
      size = (await fsp.stat(this.path)).size;
    } catch {
      return 'new';
    }
    if (size === 0) {
      return 'new';
    }
    const good = await this.indexFile();
    if (good === 'corrupt') {
      this.reset();
      await fsp.rm(this.path, { force: true });
      return 'corrupt-deleted';
    }
    // A file at its cap (or written under a larger one) takes nothing more.
    if (this.bytes >= (this.options.maxBytes ?? Number.POSITIVE_INFINITY)) {
      this.capped = this.last;
    }
    if (this.bytes < size) {
      await fsp.truncate(this.path, this.bytes);
      return 'torn-tail-dropped';
    }
    return 'reused';
  }

  /** Streams the file once, rebuilding the index; stops at the first line that cannot be trusted. */
  private async indexFile(): Promise<'ok' | 'corrupt'> {
    let rest = '';
    let corrupt = false;
    const stream = createReadStream(this.path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
    try {
      for await (const chunk of stream as AsyncIterable<string>) {
        const text = rest + chunk;
        let start = 0;
        for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
          const line = text.slice(start, nl);
          start = nl + 1;
          if (!this.indexLine(line)) {
            corrupt = true;
            break;
          }
        }
        if (corrupt) {
          break;
        }
        rest = text.slice(start);
      }
    } finally {
      stream.destroy();
    }
    if (corrupt) {
      return 'corrupt';
    }
    // A last line without its newline (in `rest`) is a write cut short: rebuild() truncates it.
    return 'ok';
  }

  private indexLine(line: string): boolean {
    let sequence: unknown;
    try {
      const parsed = JSON.parse(line) as { event?: unknown; data?: { sequence?: unknown } };
      if (typeof parsed?.event !== 'string' || typeof parsed.data !== 'object' || parsed.data === null) {
        return false;
      }
      sequence = parsed.data.sequence;
    } catch {
      return false;
    }
    if (typeof sequence !== 'number' || !(sequence > this.last)) {
      return false;
    }
    if (this.count % BLOCK_EVENTS === 0) {
      this.offsets.push(this.bytes);
      this.sequences.push(sequence);
    }
    this.bytes += Buffer.byteLength(line) + 1;
    this.count++;
    this.last = sequence;
    return true;
  }

  private reset(): void {
    this.capped = undefined;
    this.offsets = [];
    this.sequences = [];
    this.count = 0;
    this.bytes = 0;
    this.last = 0;
  }
}
