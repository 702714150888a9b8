// Draws in the next animation frame: what changed meanwhile is merged, so a burst of messages
// costs one draw. The first change after a quiet spell is drawn in the very next frame; only
// when drawing itself is costly are draws spaced out, so that it takes at most half of the
// page's thread while a run streams (after a draw that took d ms, the next waits d ms more).
import type { Change } from './reducer';

const NOTHING: Change = { rows: false, header: false, artifacts: false, reset: false, appendedOnly: true };

/** What the scheduler needs from the page (app.ts passes the page's; tests a fake clock and frames). */
export interface FrameClock {
  requestFrame(fn: () => void): void;
  setTimeout(fn: () => void, ms: number): void;
  now(): number;
}

export class DrawScheduler {
  private pending: Change = { ...NOTHING };
  private waiting = false;
  /** The spacing timer is pending; a newer generation makes a pending one do nothing. */
  private spaced = false;
  private timerGeneration = 0;
  /** When the last draw ended, and how long it took. */
  private lastEnd = Number.NEGATIVE_INFINITY;
  private lastCost = 0;

  constructor(
    private readonly draw: (change: Change) => void,
    private readonly clock: FrameClock,
  ) {}

  schedule(change: Partial<Change>): void {
    const pending = this.pending;
    this.pending = {
      rows: pending.rows || !!change.rows,
      header: pending.header || !!change.header,
      artifacts: pending.artifacts || !!change.artifacts,
      reset: pending.reset || !!change.reset,
      appendedOnly: pending.appendedOnly && change.appendedOnly !== false,
    };
    // User actions (filter, expand) draw in the next frame whatever the last draw cost, also
    // when a spaced-out draw is already waiting for its timer (that timer then does nothing).
    if (this.waiting) {
      if (change.reset && this.spaced) {
        this.spaced = false;
        this.timerGeneration++;
        this.clock.requestFrame(this.run);
      }
      return;
    }
    this.waiting = true;
    const wait = this.lastEnd + this.lastCost - this.clock.now();
    if (wait <= 0 || change.reset) {
      this.clock.requestFrame(this.run);
    } else {
      this.spaced = true;
      const generation = ++this.timerGeneration;
      this.clock.setTimeout(() => {
        if (generation === this.timerGeneration) {
          this.spaced = false;
          this.clock.requestFrame(this.run);
        }
      }, wait);
    }
  }

  private readonly run = (): void => {
    this.waiting = false;
    const change = this.pending;
    this.pending = { ...NOTHING };
    const started = this.clock.now();
    this.draw(change);
    this.lastEnd = this.clock.now();
    this.lastCost = this.lastEnd - started;
  };
}
