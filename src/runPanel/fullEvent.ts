// One run event whole, as the server sent it, for "Copy event" and "Open event as JSON": the
// panel's model keeps events cut to a budget (eventBudget.ts), so the whole one is read again.
//
// Why read it again rather than keep it: the server's log is resumable (`after = sequence - 1`
// starts the stream at that event), so the copy exists already and costs the host nothing until
// asked for. Keeping the raw JSON of the last few oversized events instead would hold up to
// 16 MB each (the SSE reader's limit) for a button that is rarely pressed, which is the memory
// the budget is there to save.
import type { WireEvent } from '../runEvents/wire';

/** A resumable stream of the run's events (RunEventSubscription, structurally). */
export interface FullEventSource extends AsyncIterable<{ event: string; data: WireEvent['data'] }> {
  close(): void;
}

export interface FullEventOptions {
  /** Gives up after this long (the stream may reconnect on its own meanwhile). Default 15 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Reads the event numbered `sequence` from a stream opened just before it. Undefined when the
 * log no longer has it (the first event after is a later one) or the stream ends first.
 */
export async function fullEvent(
  subscribe: (after: number, signal: AbortSignal) => FullEventSource,
  sequence: number,
  options: FullEventOptions = {},
): Promise<{ event: string; data: WireEvent['data'] } | undefined> {
  if (!Number.isSafeInteger(sequence) || sequence < 1) {
    return undefined;
  }
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 15_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const source = subscribe(sequence - 1, signal);
  try {
    for await (const event of source) {
      if (event.data.sequence === sequence) {
        return { event: event.event, data: event.data };
      }
      if (event.data.sequence > sequence) {
        return undefined;
      }
    }
    return undefined;
  } finally {
    source.close();
  }
}
