// Reads a run in short (src/runs/runDigest.ts): its record, then its events through the one
// event subscription (src/api/events.ts). A finished run's log is read to its end; a run still
// going is read for a short window (its history comes at once, then it would wait for the next
// event), and the digest says it is partial. At most `maxEvents` events are read either way.
import type { ApiClient } from '../api/client';
import { RunEventSubscription } from '../api/events';
import { isTerminalStatus } from '../runEvents/runStatus';
import { type RunDigest, RunDigestBuilder } from './runDigest';

export interface ReadRunDigestOptions {
  signal?: AbortSignal;
  /** How long a run that is still going is read (its history arrives within it). */
  liveWindowMs?: number;
  /** How long a finished run's log may take to read before the digest is given as it is. */
  finishedWindowMs?: number;
  maxEvents?: number;
}

export const DIGEST_LIVE_WINDOW_MS = 1_500;
const FINISHED_WINDOW_MS = 15_000;
export const DIGEST_MAX_EVENTS = 20_000;

/** Rejects with the ApiError of the run's GET (not found, auth...); a failing event stream only leaves the digest without events. */
export async function readRunDigest(
  client: Pick<ApiClient, 'getRun' | 'openEventStream'>,
  runId: string,
  options: ReadRunDigestOptions = {},
): Promise<RunDigest> {
  const run = await client.getRun(runId, { signal: options.signal });
  const builder = new RunDigestBuilder(run);
  const finished = isTerminalStatus(run.status);
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(
    () => {
      builder.stoppedEarly(finished ? 'stopped' : 'live');
      stop.abort();
    },
    finished ? (options.finishedWindowMs ?? FINISHED_WINDOW_MS) : (options.liveWindowMs ?? DIGEST_LIVE_WINDOW_MS),
  );
  const max = options.maxEvents ?? DIGEST_MAX_EVENTS;
  const subscription = new RunEventSubscription(client, runId, { signal: stop.signal });
  try {
    outer: for await (const batch of subscription.batches()) {
      for (const event of batch) {
        if (builder.eventsRead >= max) {
          builder.stoppedEarly('stopped');
          break outer;
        }
        builder.add(event);
      }
    }
  } catch {
    // The record is known; a stream that fails leaves the digest with the events read so far.
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    subscription.close();
  }
  if (options.signal?.aborted) {
    throw options.signal.reason ?? new Error('aborted');
  }
  return builder.digest();
}
