// The one request path under every call of ApiClient: the API key, the Idempotency-Key of a
// POST, retries with backoff that a caller's abort cuts short, error mapping and one log line
// per attempt. An event stream takes the same path with one attempt and no body timeout.
import type { Logger } from '../common/logger';
import { backoffDelay, type BackoffPolicy, parseRetryAfter, sleep } from './backoff';
import {
  type ApiDetail,
  ApiError,
  errorFromResponse,
  errorFromTransport,
  isApiError,
  isTlsFailure,
  said,
} from './errors';
import { readLimited } from './readLimited';
import type { HttpTransport, ResponseHeaders, TransportResponse } from './transport';

export type Method = 'GET' | 'POST' | 'DELETE' | 'PATCH';
export type Query = Record<string, string | number | undefined>;

export interface RequestSpec<T> {
  method: Method;
  /** Below /v1, e.g. /files/file_1. */
  path: string;
  query?: Query;
  json?: unknown;
  /** A body built afresh for each attempt (an upload reopens its file). */
  body?: (signal: AbortSignal) => { body: AsyncIterable<Uint8Array>; headers: Record<string, string> };
  /** Request headers beyond the usual ones (an event stream's Accept). */
  headers?: Record<string, string>;
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** An assumed endpoint (docs/PROTOCOL.md): 404/405 means "not supported by this server". */
  assumed?: boolean;
  /**
   * A response that outlives the call (an event stream): one attempt (its owner reconnects), no
   * idle timeout between body chunks (its owner detects silence), and the caller's signal tied to
   * the body for as long as it is read.
   */
  stream?: boolean;
  /** Reads a 2xx response; its failures are retried like the request's. */
  consume: (res: TransportResponse, signal: AbortSignal) => Promise<T>;
}

export interface RequestPathOptions {
  origin: string;
  /** The base URL's path prefix plus /v1. */
  prefix: string;
  getApiKey: () => Promise<string | undefined>;
  logger: Logger;
  userAgent: string;
  maxRetries: number;
  backoff: BackoffPolicy;
  transport: HttpTransport;
}

const RETRY_STATUSES = new Set([408, 409, 429]);
/**
 * 409 answers that state a fact about the resource (docs/PROTOCOL.md, Errors): asking again
 * gets the same answer, so they are not retried like a request still in flight.
 */
const FINAL_CONFLICT_CODES = new Set([
  'idempotency_key_reused',
  'run_not_active',
  'run_not_resumable',
  'approval_already_decided',
  'approval_expired',
  'version_conflict',
  'connector_revoked',
  'budget_too_low',
]);
/** Error bodies are small; anything beyond this is cut off unread. */
const MAX_ERROR_BODY = 64 * 1024;
/** JSON answers (records, pages of at most 100) stay far below this. */
const MAX_JSON_BODY = 16 * 1024 * 1024;

export function header(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isRetryable(err: ApiError): boolean {
  if (err.kind === 'connection' || err.kind === 'timeout') {
    return !isTlsFailure(err);
  }
  // The key was used for another body, or the run or approval is past this action: retrying
  // the same request can only get the same answer.
  if (err.status === 409 && err.code !== undefined && FINAL_CONFLICT_CODES.has(err.code)) {
    return false;
  }
  return err.status !== undefined && (RETRY_STATUSES.has(err.status) || err.status >= 500);
}

function withQuery(path: string, query: Query | undefined): string {
  if (!query) {
    return path;
  }
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== '') {
      search.set(k, String(v));
    }
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

function cancelled(): ApiError {
  return new ApiError({ kind: 'aborted', message: 'The request was cancelled.' });
}

/** A JSON answer (undefined for 204 or an empty body); 'protocol' when it is not JSON or too large. */
export async function readJson(res: TransportResponse): Promise<unknown> {
  if (res.status === 204) {
    res.body.destroy();
    return undefined;
  }
  let bytes: Uint8Array;
  try {
    bytes = await readLimited(res.body, MAX_JSON_BODY, 'error');
  } catch (err) {
    // "Too large" here is the server's answer, not the user's file: say so.
    if (isApiError(err, 'too_large')) {
      throw new ApiError({
        kind: 'protocol',
        message: `The service sent a JSON answer larger than ${MAX_JSON_BODY} bytes.`,
      });
    }
    throw err;
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === '') {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError({
      kind: 'protocol',
      status: res.status,
      message: `The answer (${res.status}) is not valid JSON.`,
    });
  }
}

export class RequestPath {
  constructor(private readonly o: RequestPathOptions) {}

  async call<T>(spec: RequestSpec<T>): Promise<T> {
    const { signal } = spec;
    const key = await this.apiKey(signal);
    const idempotencyKey = spec.method === 'POST' ? (spec.idempotencyKey ?? globalThis.crypto.randomUUID()) : undefined;
    const attempts = spec.stream ? 1 : this.o.maxRetries + 1;
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) {
        throw cancelled();
      }
      // A controller per attempt: undici's listeners die with it, and the caller's signal
      // carries exactly one listener of ours, removed when the attempt ends. A stream's body
      // outlives the call, so it is tied to the caller's signal itself.
      const controller = spec.stream ? undefined : new AbortController();
      const onAbort = () => controller?.abort(signal?.reason);
      if (controller) {
        signal?.addEventListener('abort', onAbort, { once: true });
      }
      const attemptSignal = controller?.signal ?? signal ?? new AbortController().signal;
      const started = performance.now();
      let status: number | undefined;
      let requestId: string | undefined;
      let error: ApiError;
      try {
        const headers: Record<string, string> = { ...this.baseHeaders(key), ...spec.headers };
        if (idempotencyKey) {
          headers['idempotency-key'] = idempotencyKey;
        }
        let body: string | AsyncIterable<Uint8Array> | undefined;
        if (spec.json !== undefined) {
          headers['content-type'] = 'application/json; charset=utf-8';
          body = JSON.stringify(spec.json);
        } else if (spec.body) {
          const built = spec.body(attemptSignal);
          Object.assign(headers, built.headers);
          body = built.body;
        }
        const res = await this.o.transport.request({
          origin: this.o.origin,
          path: withQuery(this.o.prefix + spec.path, spec.query),
          method: spec.method,
          headers,
          body,
          signal: attemptSignal,
          ...(spec.stream ? { bodyTimeout: 0 } : {}),
        });
        status = res.status;
        requestId = header(res.headers, 'x-request-id');
        if (status >= 200 && status <= 299) {
          const value = await spec.consume(res, attemptSignal);
          this.logLine(spec.method, spec.path, started, attempt + 1, attempts, status, requestId);
          return value;
        }
        error = await this.responseError(res, spec, key);
      } catch (err) {
        error = errorFromTransport(err, {
          origin: this.o.origin,
          callerAborted: signal?.aborted ?? false,
          secret: key,
        });
      } finally {
        if (controller) {
          signal?.removeEventListener('abort', onAbort);
        }
      }
      const retry = error.kind !== 'aborted' && attempt < attempts - 1 && isRetryable(error);
      const delay = retry ? (error.retryAfterMs ?? backoffDelay(attempt, this.o.backoff)) : undefined;
      this.logLine(spec.method, spec.path, started, attempt + 1, attempts, status, requestId, error, delay);
      if (delay === undefined) {
        throw error;
      }
      try {
        await sleep(delay, signal);
      } catch {
        throw cancelled();
      }
    }
  }

  private async apiKey(signal: AbortSignal | undefined): Promise<string> {
    if (signal?.aborted) {
      throw cancelled();
    }
    let key: string | undefined;
    try {
      key = await this.o.getApiKey();
    } catch {
      const detail: ApiDetail = { id: 'apiKeyUnavailable', args: [] };
      throw new ApiError({ kind: 'authentication', code: 'api_key_unavailable', message: said(detail, false), detail });
    }
    if (!key) {
      const detail: ApiDetail = { id: 'missingApiKey', args: [] };
      throw new ApiError({ kind: 'authentication', code: 'missing_api_key', message: said(detail, false), detail });
    }
    return key;
  }

  private baseHeaders(key: string): Record<string, string> {
    return { authorization: `Bearer ${key}`, accept: 'application/json', 'user-agent': this.o.userAgent };
  }

  private async responseError(res: TransportResponse, spec: RequestSpec<unknown>, key: string): Promise<ApiError> {
    let bodyText = '';
    try {
      bodyText = new TextDecoder().decode(await readLimited(res.body, MAX_ERROR_BODY, 'truncate'));
    } catch {
      // A body cut short still leaves the status, which is what matters here.
    }
    return errorFromResponse({
      status: res.status,
      bodyText,
      requestId: header(res.headers, 'x-request-id'),
      retryAfterMs: parseRetryAfter(res.headers),
      method: spec.method,
      path: this.o.prefix + spec.path,
      assumedEndpoint: spec.assumed ?? false,
      secret: key,
    });
  }

  /** One line per attempt: never headers, never the query (cursors and filters stay out of logs). */
  private logLine(
    method: string,
    path: string,
    started: number,
    attempt: number,
    attempts: number,
    status: number | undefined,
    requestId: string | undefined,
    error?: ApiError,
    retryInMs?: number,
  ): void {
    const ms = Math.round(performance.now() - started);
    const outcome = status !== undefined ? String(status) : (error?.kind ?? 'failed');
    const parts = [`${ms} ms`, `attempt ${attempt}/${attempts}`];
    if (requestId) {
      parts.push(`request ${requestId}`);
    }
    let line = `${method} ${this.o.prefix}${path} -> ${outcome} (${parts.join(', ')})`;
    if (error) {
      line += `: ${error.message}`;
    }
    if (retryInMs !== undefined) {
      line += `; retrying in ${retryInMs} ms`;
    }
    if (error) {
      this.o.logger.warn(line);
    } else {
      this.o.logger.info(line);
    }
  }
}
