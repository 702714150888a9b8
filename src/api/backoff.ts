// Waiting between attempts: exponential backoff with jitter, the server's Retry-After, and an
// abortable sleep. Shared by the request retries (client.ts) and the event stream (events.ts).

export interface BackoffPolicy {
  /** Delay before the first retry, in ms. */
  baseMs: number;
  /** Upper bound of any computed delay, in ms. */
  capMs: number;
}

/**
 * The delay before retry number `attempt` (0 for the first retry): base x 2^attempt, capped,
 * with "equal jitter" (half fixed, half random) so that many clients do not retry in step,
 * yet no delay is ever shorter than half the nominal one.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const nominal = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt));
  return Math.round(nominal / 2 + random() * (nominal / 2));
}

/** Longest server-requested wait we honour; a larger one is clamped to this. */
export const MAX_RETRY_AFTER_MS = 60_000;

type HeaderValue = string | string[] | undefined;

function firstHeader(headers: Record<string, HeaderValue>, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * How long the server asked us to wait, in ms: `retry-after-ms`, else `Retry-After` as seconds
 * or an HTTP date. Undefined when absent or unreadable; clamped to 0..MAX_RETRY_AFTER_MS.
 */
export function parseRetryAfter(headers: Record<string, HeaderValue>, now: number = Date.now()): number | undefined {
  const clamp = (ms: number) => Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.round(ms)));
  const ms = firstHeader(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '' && Number.isFinite(Number(ms))) {
    return clamp(Number(ms));
  }
  const value = firstHeader(headers, 'retry-after')?.trim();
  if (!value) {
    return undefined;
  }
  if (/^\d+(\.\d+)?$/.test(value)) {
    return clamp(Number(value) * 1000);
  }
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : clamp(date - now);
}

/** The error a cancelled wait rejects with (same name as the platform's AbortError). */
export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') {
    return reason;
  }
  const err = new Error('The operation was cancelled.');
  err.name = 'AbortError';
  return err;
}

/** Resolves after `ms`, or rejects at once with an AbortError when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) {
    return Promise.reject(abortError(signal));
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
