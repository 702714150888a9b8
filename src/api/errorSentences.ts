// The one sentence a user sees for any error: what it is made of (errorSentenceParts, which the
// editor says in the user's language) and describeError, the English for logs and tests.
import { ApiError, isTlsFailure, redact, type ApiDetail, type ApiErrorKind } from './errors';

// The steering 409s state a fact; "try again" would be wrong advice.
const STEERING_CONFLICTS = {
  run_not_active: 'The run already ended',
  run_not_resumable: 'This run cannot be resumed (only failed or cancelled runs can)',
  approval_already_decided: 'This approval was already decided',
  approval_expired: 'This approval expired before it was decided',
} as const;

/** A 409 code that states a fact about a run or an approval (the sentence says it, with no advice). */
export type SteeringConflict = keyof typeof STEERING_CONFLICTS;

function steeringConflictOf(err: ApiError): SteeringConflict | undefined {
  return err.kind === 'conflict' && err.code !== undefined && Object.hasOwn(STEERING_CONFLICTS, err.code) ? (err.code as SteeringConflict) : undefined;
}

function clause(text: string | undefined): string {
  return (text ?? '').trim().replace(/[.\s]+$/, '');
}

/**
 * What the one sentence for an error is made of: describeError says it in English (logs, tests),
 * the editor says it in the user's language (src/common/errorText.ts) from the same parts.
 */
export interface ErrorSentenceParts {
  /** Which sentence: an ApiError's kind, a cancellation of any sort, or anything else. */
  kind: Exclude<ApiErrorKind, 'aborted'> | 'cancelled' | 'unexpected';
  /** The error's own message, redacted, without its final full stop. */
  detail: string;
  /** When the API layer wrote `detail` itself: its id and arguments. */
  apiDetail?: ApiDetail;
  status?: number;
  requestId?: string;
  /** rate_limit: how long the service asked to wait, in whole seconds. */
  waitSeconds?: number;
  /** authentication: no key was sent at all (none set), rather than a key rejected. */
  noKeySent: boolean;
  /** connection: the detail already names its fix (a refused handshake, a proxy's answer). */
  detailNamesFix: boolean;
  /** conflict: the fact a steering 409 states. */
  steeringConflict?: SteeringConflict;
}

export function errorSentenceParts(err: unknown): ErrorSentenceParts {
  if (!(err instanceof ApiError)) {
    const cancelled = err instanceof Error && err.name === 'AbortError';
    const text = err instanceof Error ? err.message : String(err);
    return { kind: cancelled ? 'cancelled' : 'unexpected', detail: clause(redact(text)), noKeySent: false, detailNamesFix: false };
  }
  return {
    kind: err.kind === 'aborted' ? 'cancelled' : err.kind,
    detail: clause(redact(err.message)),
    apiDetail: err.detail,
    status: err.status,
    requestId: err.requestId,
    waitSeconds: err.retryAfterMs ? Math.ceil(err.retryAfterMs / 1000) : undefined,
    noKeySent: err.kind === 'authentication' && err.status === undefined,
    detailNamesFix: err.kind === 'connection' && (isTlsFailure(err) || err.code?.startsWith('proxy_') === true),
    steeringConflict: steeringConflictOf(err),
  };
}

/** One sentence a user can act on, for any error; never contains an API key. */
export function describeError(err: unknown): string {
  const parts = errorSentenceParts(err);
  const msg = parts.detail;
  const st = parts.status === undefined ? '' : `${parts.status}: `;
  let sentence: string;
  switch (parts.kind) {
    case 'cancelled':
      return 'The operation was cancelled.';
    case 'unexpected':
      return `Unexpected error: ${msg}.`;
    case 'authentication':
      sentence = parts.noKeySent
        ? `${msg}; sign in with an API key to continue`
        : `The service rejected the API key (${st}${msg}); sign in again with a valid key`;
      break;
    case 'permission':
      sentence = `This API key is not allowed to do that (${st}${msg}); use a key with the needed access`;
      break;
    case 'not_found':
      sentence = `Not found (${st}${msg}); it may have been deleted, refresh and try again`;
      break;
    case 'conflict':
      sentence = parts.steeringConflict
        ? `${STEERING_CONFLICTS[parts.steeringConflict]} (${st}${msg})`
        : `The service reports a conflict (${st}${msg}); wait a moment and try again`;
      break;
    case 'too_large':
      sentence = `Too large (${st}${msg}); files may be at most 512 MB`;
      break;
    case 'rate_limit':
      sentence = parts.waitSeconds
        ? `The service is rate limiting requests (${st}${msg}); wait ${parts.waitSeconds} s and try again`
        : `The service is rate limiting requests (${st}${msg}); wait a moment and try again`;
      break;
    case 'bad_request':
      sentence = `The service refused the request (${st}${msg})`;
      break;
    case 'server':
      sentence = `The service had a problem (${st}${msg}); try again later`;
      break;
    case 'not_supported':
      sentence = `${msg}; this feature is not available with this server`;
      break;
    case 'connection':
      sentence = parts.detailNamesFix ? msg : `${msg}; check the service address and your network`;
      break;
    case 'timeout':
      sentence = `${msg}; the service may be slow or unreachable, try again`;
      break;
    case 'protocol':
      sentence = `The service sent an answer the extension cannot read (${msg})`;
      break;
    case 'proxy':
    case 'validation':
    case 'insecure':
      sentence = msg;
      break;
  }
  return parts.requestId ? `${sentence} (request id ${parts.requestId}).` : `${sentence}.`;
}
