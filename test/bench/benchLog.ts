// The 1,000,000-event log the search benchmarks share (logSearch on the host, webview-search
// through the panel): the runtime's synthetic events, with one text near the end and one every
// 100th event, so "first match" and "full count" mean the same in both.
import type { WireEvent } from '../../src/runEvents/wire';
import { syntheticEvent } from '../runtime/syntheticEvents';

export const RARE = 'needle-near-the-end';
export const COMMON = 'marker-every-100th';

/** Where the rare text sits in a log of `total` events. */
export function rareAt(total: number): number {
  return total - 101;
}

export function benchEvent(sequence: number, total: number): WireEvent {
  const g = syntheticEvent(sequence, total, true);
  const data = JSON.parse(g.dataJson) as WireEvent['data'];
  if (sequence === rareAt(total)) {
    data.note = `the ${RARE} is here`;
  }
  if (sequence % (total / 10_000) === 0) {
    data.note = `${COMMON} ${sequence}`;
  }
  return { event: g.event, data, receivedAt: 1_700_000_000_000 + sequence };
}
