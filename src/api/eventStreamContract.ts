// What the run event subscription (events.ts) promises and needs: its connection states and
// options, what it asks of the API client, its timing constants, which failures end it for good,
// and how an opened response that is not an event stream is told apart.
import type { Logger } from '../common/logger';
import type { BackoffPolicy } from './backoff';
import { ApiError, type ApiErrorKind, kindForStatus } from './errors';
import type { ResponseBody, ResponseHeaders } from './transport';

export type ConnectionState =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'reconnecting'; attempt: number; delayMs: number; reason: string }
  | { state: 'ended'; status: string } // a terminal event was delivered
  | { state: 'failed'; error: ApiError }; // 401/403/404 or closed by an unrecoverable error

export interface SubscribeOptions {
  /** Start after this sequence (a restored view); the first event delivered is above it. */
  after?: number;
  /** Aborting it is close(). */
  signal?: AbortSignal;
  /** Reconnect when no byte at all (keep-alives included) arrived for this long; default 45 s; 0 or Infinity: never. */
  idleTimeoutMs?: number;
  logger?: Logger;
  onState?: (s: ConnectionState) => void;
  /** Reconnect delays; default RECONNECT_BACKOFF. Tests of many drops pass a faster one. */
  backoff?: BackoffPolicy;
}

/** What the subscription needs of the API client (ApiClient has it). */
export interface EventStreamSource {
  openEventStream(runId: string, opts: { after?: number; signal?: AbortSignal }): Promise<OpenedEventStream>;
  /** When present, asked after streams that keep closing with nothing new: has the run ended? */
  getRun?(runId: string, opts?: { signal?: AbortSignal }): Promise<{ status?: string }>;
}

/** Empty clean closes in a row after which we ask the run itself whether it is over. */
export const EMPTY_CLOSES_BEFORE_RUN_CHECK = 2;

/** An opened run event stream: what ApiClient.openEventStream returns and the subscription reads. */
export interface OpenedEventStream {
  status: number;
  headers: ResponseHeaders;
  body: ResponseBody;
  requestId?: string;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 45_000;

/** First retry after 100..200 ms (equal jitter), doubling up to 30 s. */
export const RECONNECT_BACKOFF: BackoffPolicy = { baseMs: 200, capMs: 30_000 };

export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A connection that lived this long counts as healthy even if it brought no new event. */
export const HEALTHY_CONNECTION_MS = 10_000;

// Retrying cannot fix these: the key, the permission, the run or the request is wrong, or the
// client was disposed ('aborted' when our own signal did not fire).
export const FATAL_KINDS: ReadonlySet<ApiErrorKind> = new Set<ApiErrorKind>([
  'aborted',
  'authentication',
  'permission',
  'not_found',
  'bad_request',
  'conflict',
  'too_large',
  'not_supported',
  // A proxy that refuses the credentials or cannot be reached: retrying only repeats the refusal.
  'proxy',
  'validation',
  'insecure',
  'protocol',
]);

/** The error an opened response stands for, when it is not an event stream we can read. */
export function refusalOf(opened: OpenedEventStream): ApiError | undefined {
  if (opened.status < 200 || opened.status > 299) {
    return new ApiError({
      kind: kindForStatus(opened.status),
      status: opened.status,
      requestId: opened.requestId,
      message: `The run event stream answered HTTP ${opened.status}.`,
    });
  }
  if (opened.status === 204) {
    // What EventSource treats as "stop reconnecting": without a terminal event it is an answer we cannot use.
    return new ApiError({
      kind: 'protocol',
      status: 204,
      requestId: opened.requestId,
      message: 'The run event stream answered 204 No Content.',
    });
  }
  const contentType = opened.headers['content-type'];
  const type = (Array.isArray(contentType) ? contentType[0] : contentType)?.split(';')[0].trim().toLowerCase();
  if (type !== undefined && type !== '' && type !== 'text/event-stream') {
    return new ApiError({
      kind: 'protocol',
      status: opened.status,
      requestId: opened.requestId,
      message: `The run event stream answered with ${type} instead of text/event-stream.`,
    });
  }
  return undefined;
}

export function errorText(err: unknown): string {
  if (err instanceof Error) {
    return err.message || err.name;
  }
  return String(err);
}
