// What pages, filters and find read of a run's log: the file on disk (logCache.ts) on the
// desktop, memory (memoryLogCache.ts) in VS Code for the Web. Events are kept one JSON line each.
import { boundEvent, type EventBudget } from '../runEvents/eventBudget';
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

/**
 * The events a log appends, each as the JSON line it keeps (cut to `budget` unless `bounded`:
 * already cut): only those after `last` and after each other, so repeats are skipped.
 */
export function* linesAfter(
  events: readonly WireEvent[],
  last: number,
  budget: EventBudget,
  bounded: boolean,
): Generator<{ sequence: number; line: string }> {
  for (const raw of events) {
    const sequence = raw.data.sequence;
    if (!(typeof sequence === 'number' && sequence > last)) {
      continue;
    }
    last = sequence;
    yield { sequence, line: JSON.stringify(bounded ? raw : boundEvent(raw, budget).event) + '\n' };
  }
}
