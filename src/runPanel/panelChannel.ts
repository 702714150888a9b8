// The host's side of the wire to one webview: nothing goes out until the webview says `ready`,
// then a full `reset` first and batched events at most once per interval. Pure (timers injected).
import type { HostMessage, WireEvent } from './protocol';

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface PanelChannelOptions {
  /** Least time between two posts of events (the webview then draws at most once a frame or so). */
  intervalMs?: number;
  /** Most events in one message; a backlog goes out over several intervals. */
  maxEventsPerMessage?: number;
  timers?: Timers;
}

export class PanelChannel {
  private ready = false;
  private queue: HostMessage[] = [];
  private timer: unknown;
  private lastFlush = Number.NEGATIVE_INFINITY;
  private disposed = false;
  private readonly intervalMs: number;
  private readonly maxEvents: number;
  private readonly timers: Timers;

  /**
   * @param post delivers one message to the webview
   * @param buildReset the whole current state; sent on every `ready`, which is why nothing needs
   *   to be queued while the webview is not there (a hidden panel's page is gone; it comes back
   *   with `ready`), so memory stays bounded however long a panel stays hidden.
   * @param now the clock, for the rate limit
   */
  constructor(
    private readonly post: (message: HostMessage) => void,
    private readonly buildReset: () => HostMessage,
    private readonly now: () => number = Date.now,
    options: PanelChannelOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 32;
    this.maxEvents = options.maxEventsPerMessage ?? 1000;
    this.timers = options.timers ?? realTimers;
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** Events waiting to be posted. */
  get pendingEvents(): number {
    let count = 0;
    for (const m of this.queue) if (m.type === 'events') count += m.events.length;
    return count;
  }

  /** The webview (re)loaded and listens: send everything it must know, then live batches. */
  markReady(): void {
    if (this.disposed) return;
    this.cancelTimer();
    this.queue = [];
    this.ready = true;
    this.post(this.buildReset());
    this.lastFlush = this.now();
  }

  /** The webview's page went away (hidden, or being reloaded); the next `ready` brings it up to date. */
  markGone(): void {
    this.ready = false;
    this.queue = [];
    this.cancelTimer();
  }

  events(events: readonly WireEvent[]): void {
    if (!this.ready || this.disposed || events.length === 0) return;
    const last = this.queue[this.queue.length - 1];
    if (last?.type === 'events') last.events.push(...events);
    else this.queue.push({ type: 'events', events: [...events] });
    this.schedule();
  }

  /** Any other message; it keeps its place after the events queued before it. */
  send(message: HostMessage): void {
    if (!this.ready || this.disposed) return;
    this.queue.push(message);
    this.schedule();
  }

  dispose(): void {
    this.disposed = true;
    this.markGone();
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    const wait = Math.max(0, this.lastFlush + this.intervalMs - this.now());
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  private flush(): void {
    if (!this.ready || this.disposed) return;
    this.lastFlush = this.now();
    let budget = this.maxEvents;
    while (this.queue.length > 0) {
      const next = this.queue[0];
      if (next.type === 'events') {
        if (budget === 0) break;
        if (next.events.length > budget) {
          this.post({ type: 'events', events: next.events.splice(0, budget) });
          budget = 0;
          break;
        }
        budget -= next.events.length;
      }
      this.queue.shift();
      this.post(next);
    }
    if (this.queue.length > 0) this.schedule();
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
