// The one sentence a user sees for an error, in the user's language. The API layer stays free of
// vscode: it gives the parts (kind, status, its own wording as an id and arguments), and this
// file says them through vscode.l10n.t, the same sentences describeError writes in English for
// the logs. A message the server wrote itself is shown as it came.
import * as vscode from 'vscode';
import { errorSentenceParts, type ApiDetail, type ApiDetailId, type SteeringConflict } from '../api/errors';

type DetailText = { [K in ApiDetailId]: (...args: Extract<ApiDetail, { id: K }>['args']) => string };

// A Record over every id, so a new wording in the API layer does not compile until it is here.
const DETAIL: DetailText = {
  cancelled: () => vscode.l10n.t('The request was cancelled'),
  missingApiKey: () => vscode.l10n.t('No API key is set'),
  apiKeyUnavailable: () => vscode.l10n.t('The API key could not be read'),
  connectTimeout: (where) => vscode.l10n.t('Connecting to {0} timed out', where),
  answerTimeout: (where) => vscode.l10n.t('{0} did not answer in time', where),
  bodyTimeout: (where) => vscode.l10n.t('{0} stopped sending in the middle of a response', where),
  refused: (where) => vscode.l10n.t('Could not connect to {0} (connection refused)', where),
  dnsFailed: (where) => vscode.l10n.t('Could not find the host of {0} (DNS lookup failed)', where),
  closedEarly: (where) => vscode.l10n.t('The connection to {0} was closed before the answer was complete', where),
  lengthMismatch: (where) => vscode.l10n.t('The transfer with {0} ended early (length mismatch)', where),
  tlsVersion: (where) => vscode.l10n.t('Secure connection to {0} failed: the server does not offer TLS 1.3, which is required', where),
  certNotValidNow: (where, code) =>
    vscode.l10n.t("The certificate of {0} is not valid now ({1}); check this computer's clock, or ask the service's administrator to renew it", where, code),
  certWrongHost: (where, code) =>
    vscode.l10n.t('The certificate of {0} is for another host name ({1}); use the address the certificate names in agentRuntime.baseUrl', where, code),
  certUntrusted: (where, code) =>
    vscode.l10n.t(
      'The certificate of {0} is not trusted ({1}; issued by a private CA or a TLS-inspecting proxy?); add that CA to the file NODE_EXTRA_CA_CERTS names, or to the system store with http.systemCertificates on',
      where,
      code,
    ),
  requestFailed: (where, reason) => vscode.l10n.t('Request to {0} failed: {1}', where, reason),
  serviceAnswered: (status, method, path) => vscode.l10n.t('The service answered {0} to {1} {2}', status, method, path),
  serviceAnsweredText: (status, text) => vscode.l10n.t('The service answered {0}: "{1}"', status, text),
  notOffered: (method, path, status) => vscode.l10n.t('This server does not offer {0} {1} (it answered {2})', method, path, status),
};

// The steering 409s state a fact, so no advice follows; {0} is the status and the server's words.
const STEERING_CONFLICT: Record<SteeringConflict, (statusAndDetail: string) => string> = {
  run_not_active: (d) => vscode.l10n.t('The run already ended ({0})', d),
  run_not_resumable: (d) => vscode.l10n.t('This run cannot be resumed (only failed or cancelled runs can) ({0})', d),
  approval_already_decided: (d) => vscode.l10n.t('This approval was already decided ({0})', d),
  approval_expired: (d) => vscode.l10n.t('This approval expired before it was decided ({0})', d),
};

function detailText(detail: ApiDetail): string {
  const say = DETAIL[detail.id] as (...args: readonly string[]) => string;
  return say(...detail.args).trim().replace(/[.\s]+$/, '');
}

/** describeError's sentence in the user's language; never contains an API key. */
export function describeErrorForUser(err: unknown): string {
  const parts = errorSentenceParts(err);
  const msg = parts.apiDetail ? detailText(parts.apiDetail) : parts.detail;
  const withStatus = parts.status === undefined ? msg : `${parts.status}: ${msg}`;
  let sentence: string;
  switch (parts.kind) {
    case 'cancelled':
      return vscode.l10n.t('The operation was cancelled.');
    case 'unexpected':
      return vscode.l10n.t('Unexpected error: {0}.', msg);
    case 'authentication':
      sentence = parts.noKeySent
        ? vscode.l10n.t('{0}; sign in with an API key to continue', msg)
        : vscode.l10n.t('The service rejected the API key ({0}); sign in again with a valid key', withStatus);
      break;
    case 'permission':
      sentence = vscode.l10n.t('This API key is not allowed to do that ({0}); use a key with the needed access', withStatus);
      break;
    case 'not_found':
      sentence = vscode.l10n.t('Not found ({0}); it may have been deleted, refresh and try again', withStatus);
      break;
    case 'conflict':
      sentence = parts.steeringConflict
        ? STEERING_CONFLICT[parts.steeringConflict](withStatus)
        : vscode.l10n.t('The service reports a conflict ({0}); wait a moment and try again', withStatus);
      break;
    case 'too_large':
      sentence = vscode.l10n.t('Too large ({0}); files may be at most 512 MB', withStatus);
      break;
    case 'rate_limit':
      sentence = parts.waitSeconds
        ? vscode.l10n.t('The service is rate limiting requests ({0}); wait {1} s and try again', withStatus, parts.waitSeconds)
        : vscode.l10n.t('The service is rate limiting requests ({0}); wait a moment and try again', withStatus);
      break;
    case 'bad_request':
      sentence = vscode.l10n.t('The service refused the request ({0})', withStatus);
      break;
    case 'server':
      sentence = vscode.l10n.t('The service had a problem ({0}); try again later', withStatus);
      break;
    case 'not_supported':
      sentence = vscode.l10n.t('{0}; this feature is not available with this server', msg);
      break;
    case 'connection':
      sentence = parts.detailNamesFix ? msg : vscode.l10n.t('{0}; check the service address and your network', msg);
      break;
    case 'timeout':
      sentence = vscode.l10n.t('{0}; the service may be slow or unreachable, try again', msg);
      break;
    case 'protocol':
      sentence = vscode.l10n.t('The service sent an answer the extension cannot read ({0})', msg);
      break;
    case 'proxy':
    case 'validation':
    case 'insecure':
      sentence = msg;
      break;
  }
  return parts.requestId ? vscode.l10n.t('{0} (request id {1}).', sentence, parts.requestId) : vscode.l10n.t('{0}.', sentence);
}
