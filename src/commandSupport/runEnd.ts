// Where a run's event log ends, for "Fork Run..." offered from a tree row: what a panel's stream
// saw, else (for a finished run) the sequence of its terminal event, which the server sends again
// to a client connecting past the end (docs/PROTOCOL.md, The stream). Undefined when neither is known quickly.
import type { ApiClient } from '../api/client';
import { RunEventSubscription } from '../api/events';
import { isTerminalStatus } from '../runEvents/runStatus';
import type { RunStore } from '../runs/runStore';

const LOOKUP_TIMEOUT_MS = 5_000;

export async function lastSequenceOf(client: ApiClient, runs: RunStore, runId: string): Promise<number | undefined> {
  const facts = runs.get(runId);
  if (facts && facts.lastSequence > 0 && facts.terminal) {
    return facts.lastSequence;
  }
  let status = facts?.status;
  if (status === undefined) {
    try {
      status = (await client.getRun(runId)).status;
    } catch {
      return facts?.lastSequence || undefined;
    }
  }
  if (!isTerminalStatus(status)) {
    return facts?.lastSequence || undefined;
  }
  const subscription = new RunEventSubscription(client, runId, {
    after: Number.MAX_SAFE_INTEGER - 2,
    signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
    idleTimeoutMs: LOOKUP_TIMEOUT_MS,
  });
  try {
    for await (const event of subscription) {
      return event.data.sequence;
    }
  } catch {
    // Not worth an error: the person types the number instead.
  } finally {
    subscription.close();
  }
  return facts?.lastSequence || undefined;
}
