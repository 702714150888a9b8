// The one sentence a user sees for any error, built once: errorSentence(err, t) says it through a
// Translate, describeError is the English for logs and tests (t = untranslated), and the editor's
// describeErrorForUser (src/commandSupport/errorText.ts) is the same builder with vscode.l10n.t.
import { type Translate, untranslated } from '../common/translate';
import { apiDetailText } from './apiDetailText';
import { type ApiDetail, ApiError, type ApiErrorKind, isTlsFailure, redact } from './errors';

// The steering 409s state a fact; "try again" would be wrong advice.
const STEERING_CONFLICTS = [
  'run_not_active',
  'run_not_resumable',
  'approval_already_decided',
  'approval_expired',
] as const;

/** A 409 code that states a fact about a run or an approval (the sentence says it, with no advice). */
export type SteeringConflict = (typeof STEERING_CONFLICTS)[number];

function steeringConflictOf(err: ApiError): SteeringConflict | undefined {
  return err.kind === 'conflict' &&
    err.code !== undefined &&
    (STEERING_CONFLICTS as readonly string[]).includes(err.code)
    ? (err.code as SteeringConflict)
    : undefined;
}

function clause(text: string | undefined): string {
  return (text ?? '').trim().replace(/[.\s]+$/, '');
}

/** What the one sentence for an error is made of; errorSentence says it. */
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
    return {
      kind: cancelled ? 'cancelled' : 'unexpected',
      detail: clause(redact(text)),
      noKeySent: false,
      detailNamesFix: false,
    };
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

// {0} is the status and the server's words.
function steeringConflictSentence(t: Translate, conflict: SteeringConflict, statusAndDetail: string): string {
  switch (conflict) {
    case 'run_not_active':
      return t('The run already ended ({0})', statusAndDetail);
    case 'run_not_resumable':
      return t('This run cannot be resumed (only failed or cancelled runs can) ({0})', statusAndDetail);
    case 'approval_already_decided':
      return t('This approval was already decided ({0})', statusAndDetail);
    case 'approval_expired':
      return t('This approval expired before it was decided ({0})', statusAndDetail);
  }
}

/**
 * One sentence a user can act on, for any error, said through `t`; never contains an API key.
 * The API layer's own wordings are said through `t` too; a message the server wrote is kept as it came.
 */
export function errorSentence(err: unknown, t: Translate): string {
  const parts = errorSentenceParts(err);
  const msg = parts.apiDetail ? clause(redact(apiDetailText(t, parts.apiDetail))) : parts.detail;
  const withStatus = parts.status === undefined ? msg : `${parts.status}: ${msg}`;
  let sentence: string;
  switch (parts.kind) {
    case 'cancelled':
      return t('The operation was cancelled.');
    case 'unexpected':
      return t('Unexpected error: {0}.', msg);
    case 'authentication':
      sentence = parts.noKeySent
        ? t('{0}; sign in with an API key to continue', msg)
        : t('The service rejected the API key ({0}); sign in again with a valid key', withStatus);
      break;
    case 'permission':
      sentence = t('This API key is not allowed to do that ({0}); use a key with the needed access', withStatus);
      break;
    case 'not_found':
      sentence = t('Not found ({0}); it may have been deleted, refresh and try again', withStatus);
      break;
    case 'conflict':
      sentence = parts.steeringConflict
        ? steeringConflictSentence(t, parts.steeringConflict, withStatus)
        : t('The service reports a conflict ({0}); wait a moment and try again', withStatus);
      break;
    case 'too_large':
      sentence = t('Too large ({0}); files may be at most 512 MB', withStatus);
      break;
    case 'rate_limit':
      sentence = parts.waitSeconds
        ? t('The service is rate limiting requests ({0}); wait {1} s and try again', withStatus, parts.waitSeconds)
        : t('The service is rate limiting requests ({0}); wait a moment and try again', withStatus);
      break;
    case 'bad_request':
      sentence = t('The service refused the request ({0})', withStatus);
      break;
    case 'server':
      sentence = t('The service had a problem ({0}); try again later', withStatus);
      break;
    case 'not_supported':
      sentence = t('{0}; this feature is not available with this server', msg);
      break;
    case 'connection':
      sentence = parts.detailNamesFix ? msg : t('{0}; check the service address and your network', msg);
      break;
    case 'timeout':
      sentence = t('{0}; the service may be slow or unreachable, try again', msg);
      break;
    case 'protocol':
      sentence = t('The service sent an answer the extension cannot read ({0})', msg);
      break;
    case 'proxy':
    case 'validation':
    case 'insecure':
      sentence = msg;
      break;
  }
  return parts.requestId ? t('{0} (request id {1}).', sentence, parts.requestId) : t('{0}.', sentence);
}

/** The English sentence, for logs and tests. */
export function describeError(err: unknown): string {
  return errorSentence(err, untranslated);
}
