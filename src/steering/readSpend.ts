// Reads what a run waiting at its cap spent on: its events from the start through the one event
// subscription, up to the pause (capDecision.ts). A paused run sends nothing more, so the read
// stops there; at most MAX_SPEND_EVENTS events and SPEND_READ_WINDOW_MS, and a read that stops
// short says so (`partial`). Pure (no vscode).
import type { ApiClient } from '../api/client';
import { RunEventSubscription } from '../api/events';
import type { RunRecord } from '../api/types';
import { validMoney } from '../common/money';
import { runCost, SpendSinceDecision } from './capDecision';

export const MAX_SPEND_EVENTS = 20_000;
export const SPEND_READ_WINDOW_MS = 10_000;

export async function readSpendAtCap(
  client: Pick<ApiClient, 'openEventStream'>,
  run: RunRecord,
  options: { signal?: AbortSignal; maxEvents?: number; windowMs?: number } = {},
): Promise<SpendSinceDecision> {
  const spend = new SpendSinceDecision(run.id, validMoney(runCost(run)));
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => stop.abort(), options.windowMs ?? SPEND_READ_WINDOW_MS);
  const max = options.maxEvents ?? MAX_SPEND_EVENTS;
  const subscription = new RunEventSubscription(client, run.id, { signal: stop.signal });
  let found = false;
  let read = 0;
  try {
    outer: for await (const batch of subscription.batches()) {
      for (const event of batch) {
        read += 1;
        if (read > max) {
          break outer;
        }
        if (spend.add(event)) {
          found = true;
          break outer;
        }
      }
    }
  } catch {
    // The stream failed: what was read stands, marked partial.
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    subscription.close();
  }
  spend.partial = !found;
  return spend;
}
