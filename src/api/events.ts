// The run event subscription: GET /v1/runs/{id}/events as an ordered, gap-free,
// duplicate-free async iterable of typed run events, whatever the connection does (drops,
// stalls, restarts, rate limits). Pull-based, with one read kept waiting ahead of the consumer:
// a body that fails drops what it received but had not handed to a read (a fetch body's queue is
// discarded when it errors; undici's stream likewise), so the bytes that came before a cut are
// taken as they come, up to READ_AHEAD_BYTES beyond what the consumer took.
// One path: a read yields the batch of events its chunk completed; batches() hands that array
// over as it is, and the per-event iterator walks it.
import { escapingLogger, type Logger, silentLogger } from '../common/logger';
import { isTerminalStatus } from '../runEvents/runStatus';
import { backoffDelay, type BackoffPolicy, MAX_RETRY_AFTER_MS, sleep } from './backoff';
import { ApiError, isApiError } from './errors';
import {
  type ConnectionState,
  DEFAULT_IDLE_TIMEOUT_MS,
  EMPTY_CLOSES_BEFORE_RUN_CHECK,
  errorText,
  type EventStreamSource,
  FATAL_KINDS,
  HEALTHY_CONNECTION_MS,
  MAX_TIMER_MS,
  type OpenedEventStream,
  RECONNECT_BACKOFF,
  refusalOf,
  type SubscribeOptions,
} from './eventStreamContract';
import { decodeRunEvent, terminalStatus } from './runEventDecoding';
import { SseReader } from './sseReader';
import { isTerminalEvent, type RunEvent } from './types';

export {
  DEFAULT_IDLE_TIMEOUT_MS,
  HEALTHY_CONNECTION_MS,
  RECONNECT_BACKOFF,
  type ConnectionState,
  type EventStreamSource,
  type OpenedEventStream,
  type SubscribeOptions,
} from './eventStreamContract';

interface Connection {
  readonly body: OpenedEventStream['body'];
  readonly chunks: AsyncIterator<Uint8Array>;
  readonly openedAt: number;
  watchdog: NodeJS.Timeout | undefined;
  /** A new event came through this connection (not a replayed one). */
  broughtEvents: boolean;
  reading: boolean;
  idle: boolean;
  interruptRead?: (err: Error) => void;
  /** The read under way on this connection (the consumer's or the one ahead of it), and its handling. */
  step?: Promise<void>;
}

/**
 * A connection the server answered with its stream and the network then cut: the server is up,
 * and what it sent may have been lost with the cut (a browser drops the bytes that arrive with
 * it, before any read can take them), so the next attempt would bring them again. Such a loss
 * backs off no further than this step (0.4-0.8 s by default); a failed open, a refusal, a clean
 * close with nothing new and silence still back off to the cap.
 */
export const CUT_BACKOFF_STEPS = 2;

/** How far the subscription reads ahead of its consumer: past this, bytes wait in the connection. */
export const READ_AHEAD_BYTES = 1024 * 1024;

type Finish = 'ended' | 'failed' | 'closed';

const NO_EVENTS: readonly RunEvent[] = [];

/**
 * One run's events, each delivered once and in order, across reconnects. Single-use and lazy:
 * the first next() opens the stream. Iteration ends after the terminal event (state 'ended'),
 * or quietly on close()/abort; it throws the ApiError when the state becomes 'failed'.
 * Take them one by one (`for await (const e of sub)`) or, cheaper for a consumer that applies
 * many at once, as arrays (`for await (const batch of sub.batches())`); both may be mixed.
 */
export class RunEventSubscription implements AsyncIterable<RunEvent> {
  readonly runId: string;

  private readonly client: EventStreamSource;
  private readonly logger: Logger;
  private readonly idleTimeoutMs: number;
  private readonly policy: BackoffPolicy;
  private readonly onState?: (s: ConnectionState) => void;
  private readonly externalSignal?: AbortSignal;
  private readonly stopper = new AbortController();
  private readonly reader: SseReader;

  private current: ConnectionState = { state: 'connecting' };
  private delivered: number | undefined; // highest sequence handed to the consumer
  private accepted: number | undefined; // highest sequence accepted; equals `delivered` once all are handed over
  // Events accepted from the chunk being read; never more than one chunk's worth (no history is kept).
  private pending: RunEvent[] = [];
  // Bytes read since the consumer last took `pending`: bounds the read ahead.
  private aheadBytes = 0;
  // The batch the per-event iterator is walking, and its position in it.
  private batch: readonly RunEvent[] = NO_EVENTS;
  private batchIndex = 0;
  private conn: Connection | undefined;
  private connectedOnce = false;
  private retry: { reason: string; minDelayMs: number; maxStep?: number } | undefined;
  private attempt = 0; // consecutive connections that were not healthy
  private serverRetryMs = 0;
  private terminalQueued = false;
  private finished: Finish | undefined;
  private failure: ApiError | undefined;
  private failureThrown = false;
  private pulling: Promise<void> | undefined;
  private skippedMessages = 0;
  private emptyCloses = 0;
  private iterator: AsyncIterableIterator<RunEvent> | undefined;
  private batchIterator: AsyncIterableIterator<readonly RunEvent[]> | undefined;

  constructor(client: EventStreamSource, runId: string, opts: SubscribeOptions = {}) {
    if (
      opts.after !== undefined &&
      !(Number.isSafeInteger(opts.after) && opts.after >= 0 && opts.after < Number.MAX_SAFE_INTEGER)
    ) {
      throw new ApiError({
        kind: 'validation',
        message: `"after" must be a non-negative integer sequence, not ${String(opts.after)}.`,
      });
    }
    this.client = client;
    this.runId = runId;
    this.logger = escapingLogger(opts.logger ?? silentLogger);
    const idle = opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    // setTimeout turns anything above 2^31-1 ms (Infinity included) into 1 ms: clamp, or switch off.
    this.idleTimeoutMs = Number.isFinite(idle) && idle > 0 ? Math.min(idle, MAX_TIMER_MS) : 0;
    this.policy = opts.backoff ?? RECONNECT_BACKOFF;
    this.onState = opts.onState;
    this.delivered = opts.after;
    this.accepted = opts.after;
    this.reader = new SseReader({
      onMessage: (m) => this.onMessage(m.event, m.data),
      onRetry: (ms) => {
        this.serverRetryMs = Math.min(ms, MAX_RETRY_AFTER_MS);
      },
      onTooLarge: (limit) =>
        this.fail(
          new ApiError({
            kind: 'protocol',
            message: `The run event stream sent a message larger than ${limit} characters.`,
          }),
        ),
    });
    this.externalSignal = opts.signal;
    if (opts.signal?.aborted) {
      this.close();
    } else {
      opts.signal?.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  /** The highest sequence delivered so far (or the caller's `after`); 0 before any. */
  get lastSequence(): number {
    return this.delivered ?? 0;
  }

  get state(): ConnectionState {
    return this.current;
  }

  /** Messages skipped because their data was not a JSON object with an integer sequence. */
  get skipped(): number {
    return this.skippedMessages;
  }

  /** The subscription is single-use: every call returns the same iterator. */
  [Symbol.asyncIterator](): AsyncIterator<RunEvent> {
    this.iterator ??= this.iteratorOf(() => this.next());
    return this.iterator;
  }

  /**
   * The same events as arrays: each step gives every event read so far (at least one), in order,
   * each once; the array is the consumer's to keep. Ends, fails and closes like the per-event
   * iterator; every call returns the same iterator.
   */
  batches(): AsyncIterableIterator<readonly RunEvent[]> {
    this.batchIterator ??= this.iteratorOf(() => this.nextBatch());
    return this.batchIterator;
  }

  private iteratorOf<T>(next: () => Promise<IteratorResult<T>>): AsyncIterableIterator<T> {
    return {
      next,
      return: () => {
        this.close();
        return Promise.resolve({ done: true, value: undefined });
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  /** Stops at once: a pending next() resolves done, the socket is destroyed, nothing more is read. */
  close(): void {
    if (this.finished !== undefined) {
      return;
    }
    this.finish('closed');
    this.pending = [];
    this.batch = NO_EVENTS;
    this.batchIndex = 0;
    this.stopper.abort();
    this.logger.debug(`Run ${this.runId}: event subscription closed after sequence ${this.lastSequence}.`);
  }

  private readonly onAbort = (): void => this.close();

  private next(): Promise<IteratorResult<RunEvent>> {
    // The hot path: events already read, waiting in the batch being walked.
    if (this.batchIndex < this.batch.length) {
      return Promise.resolve({ done: false, value: this.takeOne() });
    }
    if (this.pulling !== undefined) {
      return this.pulling.then(() => this.next());
    } // a concurrent call waits its turn
    return this.serialised(
      this.pull().then((result): IteratorResult<RunEvent> => {
        if (result.done || this.finished === 'closed') {
          return { done: true, value: undefined };
        }
        this.batch = result.value;
        this.batchIndex = 0;
        return { done: false, value: this.takeOne() };
      }),
    );
  }

  private nextBatch(): Promise<IteratorResult<readonly RunEvent[]>> {
    if (this.batchIndex < this.batch.length) {
      // What the per-event iterator had not walked yet comes first.
      const rest = this.batch.slice(this.batchIndex);
      this.batch = NO_EVENTS;
      this.batchIndex = 0;
      return Promise.resolve({ done: false, value: this.handOver(rest) });
    }
    if (this.pulling !== undefined) {
      return this.pulling.then(() => this.nextBatch());
    }
    return this.serialised(
      this.pull().then((result): IteratorResult<readonly RunEvent[]> => {
        if (result.done || this.finished === 'closed') {
          return { done: true, value: undefined };
        }
        return { done: false, value: this.handOver(result.value) };
      }),
    );
  }

  /** One read at a time: a call that finds one under way waits for it, then looks again. */
  private serialised<T>(result: Promise<T>): Promise<T> {
    const settled = result.finally(() => {
      this.pulling = undefined;
    });
    this.pulling = settled.then(noop, noop);
    return settled;
  }

  /** The next non-empty batch of accepted events, reading (and reconnecting) as needed. */
  private async pull(): Promise<IteratorResult<RunEvent[]>> {
    for (;;) {
      if (this.pending.length > 0) {
        const events = this.pending;
        this.pending = [];
        this.aheadBytes = 0;
        this.readAhead();
        return { done: false, value: events };
      }
      if (this.finished !== undefined) {
        return this.finalResult();
      }
      const conn = this.conn;
      if (conn === undefined) {
        await this.connect();
        continue;
      }
      await this.step(conn);
    }
  }

  /** One read on the connection and its handling; a read already under way (ahead) is joined, not doubled. */
  private step(conn: Connection): Promise<void> {
    conn.step ??= this.readAndHandle(conn).finally(() => {
      conn.step = undefined;
    });
    return conn.step;
  }

  /**
   * While the consumer works on what it took, keep a read waiting: what arrives is parsed into
   * `pending` at once, so a cut that follows cannot discard it. Stops at the bound, at the
   * terminal event and when the connection is gone; the consumer's next pull goes on from there.
   */
  private readAhead(): void {
    const conn = this.conn;
    if (
      conn === undefined ||
      conn.step !== undefined ||
      this.finished !== undefined ||
      this.terminalQueued ||
      this.aheadBytes >= READ_AHEAD_BYTES
    ) {
      return;
    }
    this.step(conn).then(
      () => this.readAhead(),
      (err: unknown) =>
        this.fail(
          new ApiError({ kind: 'protocol', message: `The run event stream could not be read: ${errorText(err)}` }),
        ),
    );
  }

  private async readAndHandle(conn: Connection): Promise<void> {
    let chunk: IteratorResult<Uint8Array>;
    try {
      chunk = await this.readChunk(conn);
    } catch (err) {
      if (this.finished === undefined) {
        this.reader.end();
      }
      if (conn.idle) {
        this.connectionLost(conn, `no data for ${this.idleTimeoutMs} ms`);
      } else {
        this.connectionLost(conn, `connection lost (${errorText(err)})`, CUT_BACKOFF_STEPS);
      }
      return;
    }
    if (chunk.done) {
      this.reader.end();
      this.emptyCloses = conn.broughtEvents ? 0 : this.emptyCloses + 1;
      this.connectionLost(conn, 'the stream ended before the run did');
      return;
    }
    this.aheadBytes += chunk.value.byteLength;
    this.reader.push(chunk.value);
    if (this.terminalQueued) {
      this.dropConnection(conn);
    }
  }

  private finalResult(): IteratorResult<RunEvent[]> {
    if (this.finished === 'failed' && this.failure && !this.failureThrown) {
      this.failureThrown = true;
      throw this.failure;
    }
    return { done: true, value: undefined };
  }

  /** The per-event iterator hands over one event: it counts as delivered now, not with its batch. */
  private takeOne(): RunEvent {
    const event = this.batch[this.batchIndex++];
    if (this.batchIndex === this.batch.length) {
      this.batch = NO_EVENTS;
      this.batchIndex = 0;
    }
    this.delivered = event.data.sequence;
    if (isTerminalEvent(event.event)) {
      this.end(terminalStatus(event));
    }
    return event;
  }

  /** A whole batch is delivered at once; a terminal event can only be its last (nothing is accepted after one). */
  private handOver(events: readonly RunEvent[]): readonly RunEvent[] {
    const last = events[events.length - 1];
    this.delivered = last.data.sequence;
    if (isTerminalEvent(last.event)) {
      this.end(terminalStatus(last));
    }
    return events;
  }

  private onMessage(name: string | undefined, data: string): void {
    if (this.terminalQueued || this.finished !== undefined) {
      return;
    }
    const decoded = decodeRunEvent(name, data);
    if (!decoded.ok) {
      this.skip(decoded.reason);
      return;
    }
    const event = decoded.event;
    const sequence = event.data.sequence;
    const terminal = isTerminalEvent(event.event);
    if (this.accepted !== undefined && sequence <= this.accepted) {
      // A replayed end (a server that ignored `after`): everything before it was delivered.
      if (terminal && this.pending.length === 0 && this.accepted === this.delivered) {
        this.end(terminalStatus(event));
      }
      return;
    }
    this.accepted = sequence;
    this.pending.push(event);
    if (this.conn) {
      this.conn.broughtEvents = true;
    }
    if (terminal) {
      this.terminalQueued = true;
    }
  }

  private skip(reason: string): void {
    this.skippedMessages++;
    // Once per subscription: a server that sends one bad message usually sends many.
    if (this.skippedMessages === 1) {
      this.logger.warn(
        `Run ${this.runId}: skipped a run event message (${reason}); further ones are counted, not logged.`,
      );
    }
  }

  private async connect(): Promise<void> {
    if (this.retry) {
      const { reason, minDelayMs, maxStep } = this.retry;
      this.retry = undefined;
      const step = Math.min(this.attempt, maxStep ?? this.attempt);
      const delayMs = Math.max(backoffDelay(step, this.policy), this.serverRetryMs, minDelayMs);
      this.attempt++;
      this.setState({ state: 'reconnecting', attempt: this.attempt, delayMs, reason });
      this.logger.info(
        `Run ${this.runId}: reconnecting to run events in ${delayMs} ms (attempt ${this.attempt}): ${reason}.`,
      );
      try {
        await sleep(delayMs, this.stopper.signal);
      } catch {
        return; // closed while waiting
      }
    } else if (!this.connectedOnce) {
      this.setState({ state: 'connecting' });
    }
    if (await this.runAlreadyEnded()) {
      return;
    }
    let opened: OpenedEventStream;
    try {
      opened = await this.client.openEventStream(this.runId, { after: this.accepted, signal: this.stopper.signal });
    } catch (err) {
      if (this.finished === undefined) {
        this.openFailed(err);
      }
      return;
    }
    if (this.finished !== undefined) {
      opened.body.destroy();
      return;
    }
    const refusal = refusalOf(opened);
    if (refusal) {
      opened.body.destroy();
      this.openFailed(refusal);
      return;
    }
    this.reader.reset();
    const watchdog = this.idleTimeoutMs > 0 ? setTimeout(() => this.onWatchdog(), this.idleTimeoutMs) : undefined;
    // On Node the watchdog alone keeps nothing alive; a web worker's timer is a number, without unref.
    (watchdog as { unref?: () => void } | undefined)?.unref?.();
    this.conn = {
      body: opened.body,
      chunks: opened.body[Symbol.asyncIterator](),
      openedAt: Date.now(),
      watchdog,
      broughtEvents: false,
      reading: false,
      idle: false,
    };
    this.connectedOnce = true;
    this.logger.debug(
      `Run ${this.runId}: run event stream open after sequence ${this.accepted ?? 'none'}${opened.requestId ? ` (request ${opened.requestId})` : ''}.`,
    );
    this.setState({ state: 'live' });
  }

  /**
   * A server that closes the stream of a finished run without (re)sending its terminal event
   * would have us reconnect for ever: after a few empty closes, ask the run for its status.
   */
  private async runAlreadyEnded(): Promise<boolean> {
    if (this.emptyCloses < EMPTY_CLOSES_BEFORE_RUN_CHECK || !this.client.getRun) {
      return false;
    }
    try {
      const run = await this.client.getRun(this.runId, { signal: this.stopper.signal });
      if (this.finished !== undefined) {
        return true;
      }
      if (isTerminalStatus(run.status)) {
        this.end(String(run.status));
        return true;
      }
      this.emptyCloses = 0; // still running: check again only after more empty closes
    } catch (err) {
      this.logger.debug(`Run ${this.runId}: could not check the run's status: ${errorText(err)}`);
    }
    return false;
  }

  private openFailed(err: unknown): void {
    if (isApiError(err) && FATAL_KINDS.has(err.kind) && err.status !== 408) {
      this.fail(err);
      return;
    }
    const minDelayMs = isApiError(err, 'rate_limit') ? Math.min(err.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS) : 0;
    this.retry = {
      reason: isApiError(err) && err.status !== undefined ? `HTTP ${err.status}: ${err.message}` : errorText(err),
      minDelayMs,
    };
  }

  /** Node's timer restarts in place; a web worker's is a number, so it is replaced. */
  private restartWatchdog(conn: Connection): void {
    const timer = conn.watchdog as { refresh?: () => unknown } | undefined;
    if (timer === undefined || typeof timer.refresh === 'function') {
      return void timer?.refresh?.();
    }
    clearTimeout(conn.watchdog);
    conn.watchdog = setTimeout(() => this.onWatchdog(), this.idleTimeoutMs);
  }

  private readChunk(conn: Connection): Promise<IteratorResult<Uint8Array>> {
    return new Promise<IteratorResult<Uint8Array>>((resolve, reject) => {
      conn.interruptRead = reject;
      conn.reading = true;
      this.restartWatchdog(conn);
      conn.chunks.next().then(resolve, reject);
    }).finally(() => {
      conn.reading = false;
      conn.interruptRead = undefined;
    });
  }

  // Only a read that waits counts as silence: a slow consumer is not a stalled server.
  private onWatchdog(): void {
    const conn = this.conn;
    if (!conn?.reading) {
      return;
    }
    conn.idle = true;
    this.dropConnection(conn, new Error(`no data for ${this.idleTimeoutMs} ms`));
  }

  /** `maxStep`: the backoff grows no further than this step for this loss (a cut, see CUT_BACKOFF_STEPS). */
  private connectionLost(conn: Connection, reason: string, maxStep?: number): void {
    this.dropConnection(conn);
    if (this.finished !== undefined || this.terminalQueued) {
      return;
    }
    if (conn.broughtEvents || Date.now() - conn.openedAt >= HEALTHY_CONNECTION_MS) {
      this.attempt = 0;
    }
    this.retry = { reason, minDelayMs: 0, maxStep };
  }

  private dropConnection(conn: Connection, err: Error = new Error('The run event connection was closed.')): void {
    if (this.conn === conn) {
      this.conn = undefined;
    }
    clearTimeout(conn.watchdog);
    conn.interruptRead?.(err);
    conn.body.destroy(err);
  }

  private end(status: string): void {
    if (this.finished !== undefined) {
      return;
    }
    this.finish('ended');
    this.setState({ state: 'ended', status });
    this.logger.debug(`Run ${this.runId}: run ended (${status}) at sequence ${this.lastSequence}.`);
  }

  private fail(error: ApiError): void {
    if (this.finished !== undefined) {
      return;
    }
    this.failure = error;
    this.finish('failed');
    this.setState({ state: 'failed', error });
    this.logger.error(`Run ${this.runId}: run events stopped: ${error.message}`);
  }

  private finish(how: Finish): void {
    this.finished = how;
    this.externalSignal?.removeEventListener('abort', this.onAbort);
    if (this.conn) {
      this.dropConnection(this.conn);
    }
  }

  private setState(state: ConnectionState): void {
    this.current = state;
    try {
      this.onState?.(state);
    } catch (err) {
      this.logger.error(`Run ${this.runId}: a connection state listener threw: ${errorText(err)}`);
    }
  }
}

function noop(): void {}
