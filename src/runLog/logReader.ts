// What pages, filters and find read of a run's log: the file on disk (logCache.ts) on the
// desktop, memory (memoryLogCache.ts) in VS Code for the Web. Events are kept one JSON line each.
import type { WireEvent } from '../runEvents/wire';

export interface LogReader {
  /** Events kept (or queued to be). */
  readonly length: number;
  /** Resolves when everything appended so far can be read. */
  flushed(): Promise<void>;
  /** Index of the first event whose sequence is > `sequence` (== length when none). */
  indexAfter(sequence: number): Promise<number>;
  /** Events [from, to) by position, in order (`to` clamped to the length). */
  read(from: number, to: number): Promise<WireEvent[]>;
  /** The events at these positions (ascending). */
  readAt(positions: readonly number[]): Promise<WireEvent[]>;
  /** The raw lines [from, to) as one string (each ends with a newline). */
  readText(from: number, to: number): Promise<string>;
}
