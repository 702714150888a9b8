// What the run panel reads its events from. It takes them in batches (one model update, one log append, one message per
// batch). The subscription hands them over that way (RunEventSubscription.batches(): no promise
// per event); a source without batches (a test's fake) is read one event at a time.
export interface StreamedEvent {
  event: string;
  data: { sequence: number; [field: string]: unknown };
}

export interface BatchedSource extends AsyncIterable<StreamedEvent> {
  batches?(): AsyncIterable<readonly StreamedEvent[]>;
}

export function batchesOf(source: BatchedSource): AsyncIterable<readonly StreamedEvent[]> {
  if (source.batches) {
    return source.batches();
  }
  return (async function* oneByOne() {
    for await (const event of source) {
      yield [event];
    }
  })();
}

/** A batched source: RunEventSubscription, or a test's fake. */
export interface EventSource extends BatchedSource {
  close(): void;
}

/** The subscription's connection states (src/api/events.ts ConnectionState, structurally). */
export type SubscriptionState =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'reconnecting'; attempt: number; delayMs: number; reason: string }
  | { state: 'ended'; status: string }
  | { state: 'failed'; error: unknown };
