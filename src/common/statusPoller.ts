// Polling of unfinished tasks and runs: one timer, a delay that doubles from 2 s to 30 s while
// nothing changes and starts over when something does, and only while there is something to
// watch (the owner decides: e.g. the view is visible). Pure: the timer is injected for tests.

export interface PollDelays {
  firstMs: number;
  maxMs: number;
}

export const DEFAULT_POLL_DELAYS: PollDelays = { firstMs: 2_000, maxMs: 30_000 };

/**
 * For a poll that reads one list whatever is watched (docs/PROTOCOL.md, Staying current): its
 * cost is flat, so it never slows past 8 s, and a change anywhere shows within 10 s.
 */
export const FEED_POLL_DELAYS: PollDelays = { firstMs: 2_000, maxMs: 8_000 };

/** The delays between polls: first, 2x first, 4x first... capped at max. */
export class PollBackoff {
  private attempt = 0;
  constructor(private readonly delays: PollDelays = DEFAULT_POLL_DELAYS) {}

  /** The next delay, then the one after grows. */
  next(): number {
    const delay = Math.min(this.delays.maxMs, this.delays.firstMs * 2 ** this.attempt);
    if (delay < this.delays.maxMs) {
      this.attempt++;
    }
    return delay;
  }

  reset(): void {
    this.attempt = 0;
  }

  /** The first (shortest) delay. */
  get first(): number {
    return this.delays.firstMs;
  }
}

export type Schedule = (run: () => void, ms: number) => { cancel(): void };

export const realSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  return { cancel: () => clearTimeout(timer) };
};

export interface StatusPollerOptions {
  /** One poll; resolves true when something changed (the delay starts over). */
  poll: () => Promise<boolean>;
  /** Whether a poll is wanted now (something unfinished is shown or watched). */
  wanted: () => boolean;
  delays?: PollDelays;
  schedule?: Schedule;
  /** Told about a poll that threw; polling goes on with a longer delay. */
  onError?: (err: unknown) => void;
}

export class StatusPoller {
  private readonly backoff: PollBackoff;
  private readonly schedule: Schedule;
  private timer: { cancel(): void } | undefined;
  /** The delay the armed timer was set with. */
  private armedMs = 0;
  private running = false;
  private disposed = false;

  constructor(private readonly options: StatusPollerOptions) {
    this.backoff = new PollBackoff(options.delays);
    this.schedule = options.schedule ?? realSchedule;
  }

  /** True while a poll is waiting for its timer. */
  get scheduled(): boolean {
    return this.timer !== undefined;
  }

  /**
   * Something new to watch (a node shown, a run started, the view became visible): the
   * delay starts over. Does nothing when no poll is wanted.
   */
  kick(): void {
    if (this.disposed) {
      return;
    }
    this.backoff.reset();
    // A timer already due after the first delay stays: kicks coming faster than that (rows shown
    // one after another, a busy account) would otherwise put the poll off for ever.
    if (this.timer && this.armedMs <= this.backoff.first) {
      return;
    }
    this.timer?.cancel();
    this.timer = undefined;
    this.arm();
  }

  /** Re-checks `wanted()`: stops the timer when nothing is to be watched any more. */
  update(): void {
    if (this.disposed) {
      return;
    }
    if (!this.options.wanted()) {
      this.timer?.cancel();
      this.timer = undefined;
    } else {
      this.arm();
    }
  }

  dispose(): void {
    this.disposed = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  private arm(): void {
    if (this.timer || this.running || this.disposed || !this.options.wanted()) {
      return;
    }
    this.armedMs = this.backoff.next();
    this.timer = this.schedule(() => void this.fire(), this.armedMs);
  }

  private async fire(): Promise<void> {
    this.timer = undefined;
    if (this.disposed || !this.options.wanted()) {
      return;
    }
    this.running = true;
    try {
      if (await this.options.poll()) {
        this.backoff.reset();
      }
    } catch (err) {
      this.options.onError?.(err);
    } finally {
      this.running = false;
    }
    this.arm();
  }
}
