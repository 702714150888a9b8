// The host's side of the wire to one webview: nothing goes out until the webview says `ready`,
// then a full `reset` first, then events. The first event after a quiet spell goes at once;
// events that come within the interval (50 ms) of the last post are merged into one post at its
// end, and those that come while a post is in flight (not yet acknowledged) into one post at
// its ack (at most two frames later). What waits for a webview
// that falls behind is bounded: past the cap the backlog is dropped for one fresh `reset`.
// Pure (timers injected).
import { jsonBytes } from '../runEvents/eventBudget';
import type { WireEvent } from '../runEvents/wire';
import type { HostMessage } from './protocol';

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface PanelChannelOptions {
  /** Least time between two posts of events (default `STREAM_INTERVAL_MS`). */
  intervalMs?: number;
  /**
   * While a post is unacknowledged, how long what comes meanwhile waits for its ack before it is
   * posted anyway (within `maxUnacked`).
   */
  inFlightWaitMs?: number;
  /** Most events in one message; a backlog goes out over several intervals. */
  maxEventsPerMessage?: number;
  /**
   * Most events waiting (queued, or posted and not acknowledged) before the backlog is dropped
   * and one fresh `reset` goes instead: the host's model already holds what the webview needs.
   */
  maxPendingEvents?: number;
  /** The same, in bytes of event data. */
  maxPendingBytes?: number;
  /**
   * Messages posted and not acknowledged after which posting waits for an `ack`. Only once the
   * webview has acknowledged anything: a page that never does still gets its events.
   */
  maxUnacked?: number;
  /** The size the byte cap counts an event as. */
  eventBytes?: (event: WireEvent) => number;
  timers?: Timers;
}

/** One frame at 60 Hz. */
export const FRAME_MS = 16;

/**
 * While a run streams, at most 20 posts a second. Each post is a draw of the panel, and in
 * code-server (any VS Code in a browser) the webview shares the workbench's renderer, so each
 * draw is a frame of the whole workbench, whose cost does not depend on how many events it shows
 * (BENCHMARKS.md, "The panel's cost per event"). At 10 events/s every event still goes at once.
 */
export const STREAM_INTERVAL_MS = 50;

interface InFlight {
  batch: number;
  events: number;
  bytes: number;
}

export class PanelChannel {
  private ready = false;
  private queue: HostMessage[] = [];
  private queuedEvents = 0;
  private queuedBytes = 0;
  /** Posted and not yet acknowledged; tracked once the webview has acknowledged something. */
  private inFlight: InFlight[] = [];
  private acksSeen = false;
  private nextBatch = 1;
  /** The backlog was dropped: the next post is a fresh reset, which covers whatever comes meanwhile. */
  private resetDue = false;
  private collapseCount = 0;
  private timer: unknown;
  private lastFlush = Number.NEGATIVE_INFINITY;
  private disposed = false;
  private readonly intervalMs: number;
  private readonly inFlightWaitMs: number;
  private readonly maxEvents: number;
  private readonly maxPendingEvents: number;
  private readonly maxPendingBytes: number;
  private readonly maxUnacked: number;
  private readonly eventBytes: (event: WireEvent) => number;
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
    this.intervalMs = options.intervalMs ?? STREAM_INTERVAL_MS;
    this.inFlightWaitMs = options.inFlightWaitMs ?? 2 * FRAME_MS;
    this.maxEvents = options.maxEventsPerMessage ?? 1000;
    this.maxPendingEvents = options.maxPendingEvents ?? 20_000;
    this.maxPendingBytes = options.maxPendingBytes ?? 16 * 1024 * 1024;
    this.maxUnacked = options.maxUnacked ?? 4;
    this.eventBytes = options.eventBytes ?? ((event) => jsonBytes(event.data));
    this.timers = options.timers ?? realTimers;
  }

  /** Events waiting: queued, or posted and not acknowledged. */
  get pendingEvents(): number {
    return this.queuedEvents + this.inFlightEvents();
  }

  /** Their bytes, as the channel counts them. */
  get pendingBytes(): number {
    return this.queuedBytes + this.inFlight.reduce((sum, f) => sum + f.bytes, 0);
  }

  /** Times the backlog was dropped for a fresh reset because the webview fell behind. */
  get collapses(): number {
    return this.collapseCount;
  }

  /** The webview (re)loaded and listens: send everything it must know, then live batches. */
  markReady(): void {
    if (this.disposed) {
      return;
    }
    this.cancelTimer();
    this.clearQueue();
    this.inFlight = [];
    this.resetDue = false;
    this.ready = true;
    this.postReset();
    this.lastFlush = this.now();
  }

  /** The webview's page went away (hidden, or being reloaded); the next `ready` brings it up to date. */
  markGone(): void {
    this.ready = false;
    this.clearQueue();
    this.inFlight = [];
    this.resetDue = false;
    this.cancelTimer();
  }

  /** The webview applied every message up to `batch` (the number the host gave it). */
  ack(batch: number): void {
    if (!Number.isSafeInteger(batch) || this.disposed) {
      return;
    }
    this.acksSeen = true;
    this.inFlight = this.inFlight.filter((f) => f.batch > batch);
    if (this.ready && (this.queue.length > 0 || this.resetDue)) {
      if (this.inFlight.length === 0) {
        // Nothing in flight any more: what waited for this ack goes now if a frame has passed.
        this.cancelTimer();
      }
      this.schedule();
    }
  }

  events(events: readonly WireEvent[]): void {
    if (!this.ready || this.disposed || events.length === 0 || this.resetDue) {
      return;
    }
    const last = this.queue[this.queue.length - 1];
    if (last?.type === 'events') {
      // One by one: push(...events) passes every element as an argument, which throws for a huge array.
      for (const event of events) {
        last.events.push(event);
      }
    } else {
      this.queue.push({ type: 'events', events: [...events] });
    }
    this.queuedEvents += events.length;
    for (const event of events) {
      this.queuedBytes += this.eventBytes(event);
    }
    if (this.pendingEvents > this.maxPendingEvents || this.pendingBytes > this.maxPendingBytes) {
      // Behind: whatever waits is already in the model, and the reset is built when it goes.
      this.clearQueue();
      this.resetDue = true;
      this.collapseCount++;
    }
    this.schedule();
  }

  /** Any other message; it keeps its place after the events queued before it. */
  send(message: HostMessage): void {
    if (!this.ready || this.disposed || this.resetDue) {
      return;
    }
    this.queue.push(message);
    this.schedule();
  }

  /**
   * The answer to a request of the webview (`page`, `found`): small, and asked for, so it goes at
   * once, outside the queue and the flow control, and a backlog reset does not drop it. Not
   * numbered: the webview does not acknowledge it. A webview that is gone asks again when back.
   */
  reply(message: HostMessage): void {
    if (this.ready && !this.disposed) {
      this.post(message);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.markGone();
  }

  /**
   * Posts now when the wire is quiet (nothing posted and unacknowledged, the last post at least an
   * interval ago); otherwise once, an interval after the last post, for whatever came meanwhile.
   */
  private schedule(): void {
    if (this.timer !== undefined) {
      return;
    }
    let wait = Math.max(0, this.lastFlush + this.intervalMs - this.now());
    if (wait === 0) {
      if (this.inFlight.length === 0) {
        this.flush();
        return;
      }
      // A post is in flight: its ack posts what came meanwhile (ack()), so that a webview that
      // takes longer (a busy machine) gets fewer, larger messages; without an ack, this timer does.
      wait = this.inFlightWaitMs;
    }
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  private flush(): void {
    if (!this.ready || this.disposed) {
      return;
    }
    // An ack() schedules the next flush.
    if (this.windowFull()) {
      return;
    }
    this.lastFlush = this.now();
    if (this.resetDue) {
      this.resetDue = false;
      this.postReset();
      return;
    }
    let budget = this.maxEvents;
    while (this.queue.length > 0 && !this.windowFull()) {
      const next = this.queue[0];
      if (next.type === 'events') {
        if (budget === 0) {
          break;
        }
        const events = next.events.length > budget ? next.events.splice(0, budget) : next.events;
        if (events === next.events) {
          this.queue.shift();
        }
        budget -= events.length;
        this.postEvents(events);
        continue;
      }
      this.queue.shift();
      this.post(next);
    }
    if (this.queue.length > 0 && !this.windowFull()) {
      this.schedule();
    }
  }

  private windowFull(): boolean {
    return this.acksSeen && this.inFlight.length >= this.maxUnacked;
  }

  private postEvents(events: WireEvent[]): void {
    let bytes = 0;
    for (const event of events) {
      bytes += this.eventBytes(event);
    }
    this.queuedEvents -= events.length;
    this.queuedBytes -= bytes;
    const batch = this.nextBatch++;
    if (this.acksSeen) {
      this.inFlight.push({ batch, events: events.length, bytes });
    }
    this.post({ type: 'events', events, batch });
  }

  private postReset(): void {
    const reset = this.buildReset();
    const batch = this.nextBatch++;
    if (this.acksSeen) {
      this.inFlight.push({ batch, events: 0, bytes: 0 });
    }
    this.post(reset.type === 'reset' ? { ...reset, batch } : reset);
  }

  private inFlightEvents(): number {
    let count = 0;
    for (const f of this.inFlight) {
      count += f.events;
    }
    return count;
  }

  private clearQueue(): void {
    this.queue = [];
    this.queuedEvents = 0;
    this.queuedBytes = 0;
  }

  private cancelTimer(): void {
    if (this.timer === undefined) {
      return;
    }
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
