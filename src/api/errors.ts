// The one error class of the API layer, its kinds, and the sentence a user sees for any error.
// Deeper code throws ApiError; the edge (a command handler) turns it into a message.
import { escapeControls } from '../common/logger';
import { untranslated } from '../common/translate';
import { type ApiDetail, apiDetailText } from './apiDetailText';
import { FETCH_FAILED } from './transport';

/** Every kind, so the editor's translated sentences can be checked to cover each one. */
export const API_ERROR_KINDS = [
  'authentication', // 401: missing or rejected API key
  'permission', // 403
  'not_found', // 404
  'conflict', // 409: idempotency conflict or the same request still in flight
  'too_large', // 413
  'rate_limit', // 429
  'bad_request', // other 4xx (400, 422, ...)
  'server', // 5xx
  'not_supported', // an assumed endpoint the server does not have (404/405 on it)
  'connection', // refused, reset, DNS, TLS handshake
  'proxy', // the proxy could not be reached, refused the credentials (407) or the tunnel
  'timeout',
  'aborted', // cancelled by the caller
  'validation', // refused on the client before anything was sent
  'insecure', // a base URL that would send the key in clear text
  'protocol', // the server answered something we cannot read
] as const;

export type ApiErrorKind = (typeof API_ERROR_KINDS)[number];

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  status?: number;
  code?: string;
  type?: string;
  param?: string;
  /** A limit the server named (too_many_attachments: how many a task may have). */
  limit?: number;
  /** The current approval record a 409 decision answer carries (`error.approval`), unchecked. */
  approval?: Record<string, unknown>;
  /** The current memory record a 409 version_conflict answer carries (`error.memory`), unchecked. */
  memory?: Record<string, unknown>;
  /** The existing project a 409 project_exists answer carries (`error.project`), unchecked. */
  project?: Record<string, unknown>;
  requestId?: string;
  retryAfterMs?: number;
  detail?: ApiDetail;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status?: number;
  readonly code?: string;
  readonly type?: string;
  readonly param?: string;
  readonly limit?: number;
  readonly approval?: Record<string, unknown>;
  readonly memory?: Record<string, unknown>;
  readonly project?: Record<string, unknown>;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  readonly detail?: ApiDetail;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    this.param = init.param;
    this.limit = init.limit;
    this.approval = init.approval;
    this.memory = init.memory;
    this.project = init.project;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    this.detail = init.detail;
  }
}

/** The kind that an HTTP error status stands for. */
export function kindForStatus(status: number): ApiErrorKind {
  if (status === 401) {
    return 'authentication';
  }
  if (status === 403) {
    return 'permission';
  }
  if (status === 404) {
    return 'not_found';
  }
  if (status === 409) {
    return 'conflict';
  }
  if (status === 413) {
    return 'too_large';
  }
  if (status === 429) {
    return 'rate_limit';
  }
  if (status >= 500) {
    return 'server';
  }
  return 'bad_request';
}

export function isApiError(err: unknown, kind?: ApiErrorKind): err is ApiError {
  return err instanceof ApiError && (kind === undefined || err.kind === kind);
}

/** True for a cancellation, whether ours (ApiError 'aborted') or the platform's AbortError. */
export function isAbort(err: unknown): boolean {
  return isApiError(err, 'aborted') || (err instanceof Error && err.name === 'AbortError');
}

// ---- construction from responses and transport failures, and the sentence for users ----

/**
 * Replaces every occurrence of `secret` (the API key, however short) in `text`, then any other
 * bearer token. The exact key goes first: the token pattern stops at a space, so a key holding
 * one would otherwise be cut in two and its tail left in clear.
 */
export function redact(text: string, secret?: string): string {
  const out = secret ? text.split(secret).join('***') : text;
  return redactWebhookSecrets(out.replace(/(Bearer\s+)[^\s"',;]+/gi, '$1***'));
}

/** Webhook signing secrets (`whsec_...`) are shown once at creation and never again, not even inside an error. */
export function redactWebhookSecrets(text: string): string {
  return text.replace(/whsec_[A-Za-z0-9_-]+/g, 'whsec_***');
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function statusLabel(status: number): string {
  const text = STATUS_TEXT[status];
  return text ? `${status} ${text}` : `HTTP ${status}`;
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The readable part of a non-JSON body: an HTML page's title or text, shortened. */
function plainTextOf(body: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body)?.[1];
  const text = (title ?? body.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' '))
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

export interface ResponseErrorInit {
  status: number;
  bodyText: string;
  requestId?: string;
  retryAfterMs?: number;
  /** Method and path (without query) of the request, for messages. */
  method: string;
  path: string;
  /** An assumed endpoint (docs/PROTOCOL.md): 404/405 means the server lacks it. */
  assumedEndpoint?: boolean;
  /** Removed from anything taken from the body. */
  secret?: string;
}

/** An error's English message from its detail: the wording lives once, in apiDetailText. */
export function said(detail: ApiDetail, stop = true): string {
  return apiDetailText(untranslated, detail) + (stop ? '.' : '');
}

/** The ApiError for a non-2xx response, from the assumed JSON error body or any other body. */
export function errorFromResponse(init: ResponseErrorInit): ApiError {
  const { status, requestId, retryAfterMs, secret } = init;
  let code: string | undefined;
  let type: string | undefined;
  let param: string | undefined;
  let limit: number | undefined;
  let approval: Record<string, unknown> | undefined;
  let memory: Record<string, unknown> | undefined;
  let project: Record<string, unknown> | undefined;
  let message: string | undefined;
  let detail: ApiDetail | undefined;
  let isApiShape = false;
  const safe = (text: string) => escapeControls(redact(text, secret));
  try {
    const parsed: unknown = JSON.parse(init.bodyText);
    if (parsed && typeof parsed === 'object') {
      const record = parsed as Record<string, unknown>;
      const inner = record.error;
      if (inner && typeof inner === 'object') {
        const e = inner as Record<string, unknown>;
        isApiShape = true;
        code = asString(e.code);
        type = asString(e.type);
        param = asString(e.param);
        message = asString(e.message);
        if (Number.isSafeInteger(e.limit) && (e.limit as number) > 0) {
          limit = e.limit as number;
        }
        if (e.approval && typeof e.approval === 'object' && !Array.isArray(e.approval)) {
          approval = e.approval as Record<string, unknown>;
        }
        if (e.memory && typeof e.memory === 'object' && !Array.isArray(e.memory)) {
          memory = e.memory as Record<string, unknown>;
        }
        if (e.project && typeof e.project === 'object' && !Array.isArray(e.project)) {
          project = e.project as Record<string, unknown>;
        }
      } else {
        message = asString(inner) ?? asString(record.message) ?? asString(record.detail);
      }
    }
  } catch {
    const text = plainTextOf(init.bodyText);
    message = text ? `The service answered ${statusLabel(status)}: "${text}"` : undefined;
    if (text) {
      detail = { id: 'serviceAnsweredText', args: [statusLabel(status), safe(text)] };
    }
  }
  if (message === undefined) {
    detail = { id: 'serviceAnswered', args: [statusLabel(status), safe(init.method), safe(init.path)] };
  }
  message = escapeControls(
    redact(message ?? `The service answered ${statusLabel(status)} to ${init.method} ${init.path}`, secret),
  );
  if (code) {
    code = escapeControls(redact(code, secret));
  }
  if (param) {
    param = escapeControls(redact(param, secret));
  }

  let kind = kindForStatus(status);
  if (
    init.assumedEndpoint &&
    (status === 405 ||
      (status === 404 && !(isApiShape && /not[_ ]?found|no[_ ]?such|missing/i.test(`${code ?? ''} ${type ?? ''}`))))
  ) {
    kind = 'not_supported';
    detail = { id: 'notOffered', args: [safe(init.method), safe(init.path), statusLabel(status)] };
    message = said(detail);
  }
  return new ApiError({
    kind,
    status,
    code,
    type,
    param,
    limit,
    approval,
    memory,
    project,
    message,
    requestId,
    retryAfterMs,
    detail,
  });
}

export interface TransportErrorContext {
  /** Where we tried to connect, for the message (scheme://host:port). */
  origin: string;
  /** The caller cancelled: any failure is reported as 'aborted'. */
  callerAborted: boolean;
  secret?: string;
}

/** A copy of a low-level error without anything that could carry request data. */
function cleanCause(err: unknown, secret?: string): Error | undefined {
  if (!(err instanceof Error)) {
    return undefined;
  }
  const copy = new Error(redact(err.message, secret));
  copy.name = err.name;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    (copy as Error & { code?: string }).code = code;
  }
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}

const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_)/;

/** A refused TLS handshake (old protocol, untrusted certificate): retrying cannot help. */
export function isTlsFailure(err: ApiError): boolean {
  return err.code !== undefined && TLS_CODE.test(err.code);
}

/** What a failed TLS handshake with the service means, and the fix, in one sentence. */
function certificateError(code: string, where: string, cause: Error | undefined): ApiError {
  const error = (detail: ApiDetail) =>
    new ApiError({ kind: 'connection', code, message: said(detail, false), detail, cause });
  if (/PROTOCOL_VERSION|UNSUPPORTED_PROTOCOL|WRONG_VERSION/i.test(code)) {
    return error({ id: 'tlsVersion', args: [where] });
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return error({ id: 'certNotValidNow', args: [where, code] });
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code.startsWith('HOSTNAME_')) {
    return error({ id: 'certWrongHost', args: [where, code] });
  }
  return error({ id: 'certUntrusted', args: [where, code] });
}

function transportError(
  kind: 'timeout' | 'connection',
  code: string,
  detail: ApiDetail,
  cause: Error | undefined,
): ApiError {
  return new ApiError({ kind, code, message: said(detail), detail, cause });
}

/**
 * The code of the error a missing or broken file of the extension's own install throws (the lazy
 * file guard esbuild.js writes): nothing was sent, retrying cannot help and the network is fine.
 */
export const INCOMPLETE_INSTALL = 'agent_runtime_incomplete';

/** The ApiError for a request that got no usable answer: refused, reset, timed out, cancelled. */
export function errorFromTransport(err: unknown, ctx: TransportErrorContext): ApiError {
  if (err instanceof ApiError) {
    return err;
  }
  const cause = cleanCause(err, ctx.secret);
  const code = (err as { code?: unknown } | null)?.code;
  const name = err instanceof Error ? err.name : '';
  const where = ctx.origin;
  if (code === INCOMPLETE_INSTALL) {
    return new ApiError({ kind: 'validation', code, message: err instanceof Error ? err.message : String(err), cause });
  }
  if (ctx.callerAborted || code === 'UND_ERR_ABORTED' || name === 'AbortError') {
    const detail: ApiDetail = { id: 'cancelled', args: [] };
    return new ApiError({ kind: 'aborted', message: said(detail), detail, cause });
  }
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return transportError('timeout', code, { id: 'connectTimeout', args: [where] }, cause);
    case 'UND_ERR_HEADERS_TIMEOUT':
      return transportError('timeout', code, { id: 'answerTimeout', args: [where] }, cause);
    case 'UND_ERR_BODY_TIMEOUT':
      return transportError('timeout', code, { id: 'bodyTimeout', args: [where] }, cause);
    case 'ECONNREFUSED':
      return transportError('connection', code, { id: 'refused', args: [where] }, cause);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return transportError('connection', code, { id: 'dnsFailed', args: [where] }, cause);
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return transportError('connection', code, { id: 'closedEarly', args: [where] }, cause);
    case 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH':
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return transportError('connection', code, { id: 'lengthMismatch', args: [where] }, cause);
    case FETCH_FAILED:
      return transportError('connection', code, { id: 'browserUnreachable', args: [where] }, cause);
    case 'UND_ERR_DESTROYED':
      return new ApiError({
        kind: 'aborted',
        code,
        message: 'The request was cancelled because the client was closed.',
        cause,
      });
  }
  if (typeof code === 'string' && TLS_CODE.test(code)) {
    return certificateError(code, where, cause);
  }
  const reason = redact(cause ? cause.message : String(err), ctx.secret);
  const detail: ApiDetail = { id: 'requestFailed', args: [where, reason] };
  return new ApiError({
    kind: 'connection',
    code: typeof code === 'string' ? code : undefined,
    message: said(detail, false),
    detail,
    cause,
  });
}

export type { ApiDetail, ApiDetailId } from './apiDetailText';
