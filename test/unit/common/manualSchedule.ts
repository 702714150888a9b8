// The one fake scheduler of the unit tests: a `Schedule` (src/common/statusPoller.ts) whose
// timers fire only when the test says so, for the status poller, the run store, the pending
// approvals and the sidebar's polling.
import * as assert from 'node:assert/strict';
import type { Schedule } from '../../../src/common/statusPoller';

export class ManualSchedule {
  private pending: Array<{ run: () => void; ms: number; cancelled: boolean }> = [];
  readonly schedule: Schedule = (run, ms) => {
    const entry = { run, ms, cancelled: false };
    this.pending.push(entry);
    return { cancel: () => (entry.cancelled = true) };
  };

  /** The delays of the timers armed and not cancelled, oldest first. */
  get armed(): number[] {
    return this.pending.filter((p) => !p.cancelled).map((p) => p.ms);
  }

  /** Fires the oldest live timer at once; returns its delay. */
  fire(): number {
    const next = this.pending.find((p) => !p.cancelled);
    assert.ok(next, 'a timer is armed');
    this.pending = this.pending.filter((p) => p !== next);
    next.run();
    return next.ms;
  }

  /** Fires the oldest live timer and lets the promises it started settle; returns its delay. */
  async tick(): Promise<number> {
    const ms = this.fire();
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setImmediate(r));
    }
    return ms;
  }
}
