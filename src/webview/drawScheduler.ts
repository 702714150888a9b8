// Draws at most once a frame, and streamed batches at most every MIN_DRAW_INTERVAL_MS: what
// changed meanwhile is merged, so a burst of messages costs one draw.
import type { Change } from './reducer';

/**
 * Redraws of the rows are spaced at least this far apart: while a fast run streams, every draw
 * reflows all visible rows (new text), and 20 a second reads as live.
 */
const MIN_DRAW_INTERVAL_MS = 50;

const NOTHING: Change = { rows: false, header: false, artifacts: false, reset: false, appendedOnly: true };

export class DrawScheduler {
  private pending: Change = { ...NOTHING };
  private frame = 0;
  private drawTimer: ReturnType<typeof setTimeout> | undefined;
  private lastDraw = 0;

  constructor(private readonly draw: (change: Change) => void) {}

  schedule(change: Partial<Change>): void {
    const pending = this.pending;
    this.pending = {
      rows: pending.rows || !!change.rows,
      header: pending.header || !!change.header,
      artifacts: pending.artifacts || !!change.artifacts,
      reset: pending.reset || !!change.reset,
      appendedOnly: pending.appendedOnly && change.appendedOnly !== false,
    };
    if (this.frame !== 0 || this.drawTimer !== undefined) {
      return;
    }
    const wait = this.lastDraw + MIN_DRAW_INTERVAL_MS - performance.now();
    // User actions (filter, expand) draw at once; streamed events wait for the interval.
    if (wait <= 0 || change.reset) {
      this.frame = requestAnimationFrame(this.run);
    } else {
      this.drawTimer = setTimeout(() => {
        this.drawTimer = undefined;
        this.frame = requestAnimationFrame(this.run);
      }, wait);
    }
  }

  private readonly run = (): void => {
    this.frame = 0;
    this.lastDraw = performance.now();
    const change = this.pending;
    this.pending = { ...NOTHING };
    this.draw(change);
  };
}
