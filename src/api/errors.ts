// The one error class of the API layer, its kinds, and the sentence a user sees for any error.
// Deeper code throws ApiError; the edge (a command handler) turns it into a message.

export type ApiErrorKind =
  | 'authentication' // 401: missing or rejected API key
  | 'permission' // 403
  | 'not_found' // 404
  | 'conflict' // 409: idempotency conflict or the same request still in flight
  | 'too_large' // 413
  | 'rate_limit' // 429
  | 'bad_request' // other 4xx (400, 422, ...)
  | 'server' // 5xx
  | 'not_supported' // an assumed endpoint the server does not have (404/405 on it)
  | 'connection' // refused, reset, DNS, TLS handshake
  | 'timeout'
  | 'aborted' // cancelled by the caller
  | 'validation' // refused on the client before anything was sent
  | 'insecure' // a base URL that would send the key in clear text
  | 'protocol'; // the server answered something we cannot read

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  status?: number;
  code?: string;
  type?: string;
  param?: string;
  requestId?: string;
  retryAfterMs?: number;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status?: number;
  readonly code?: string;
  readonly type?: string;
  readonly param?: string;
  readonly requestId?: string;
  readonly retryAfterMs?: number;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    this.param = init.param;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** The kind that an HTTP error status stands for. */
export function kindForStatus(status: number): ApiErrorKind {
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'too_large';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server';
  return 'bad_request';
}

export function isApiError(err: unknown, kind?: ApiErrorKind): err is ApiError {
  return err instanceof ApiError && (kind === undefined || err.kind === kind);
}

/** True for a cancellation, whether ours (ApiError 'aborted') or the platform's AbortError. */
export function isAbort(err: unknown): boolean {
  return isApiError(err, 'aborted') || (err instanceof Error && err.name === 'AbortError');
}
