// One error of every sentence kind and every wording the API layer writes itself, shared by the
// English sentence's tests (api/errorSentences) and the translated one's (commandSupport/errorText).
import {
  API_ERROR_KINDS,
  ApiError,
  type ApiErrorKind,
  errorFromResponse,
  errorFromTransport,
} from '../../../src/api/errors';

export const ORIGIN = 'https://agents.example.com:8443';

export function byKind(kind: ApiErrorKind, withStatus: boolean): ApiError {
  return new ApiError({
    kind,
    message: 'The server said no.',
    status: withStatus ? 418 : undefined,
    requestId: withStatus ? 'req_42' : undefined,
    retryAfterMs: kind === 'rate_limit' && withStatus ? 2500 : undefined,
  });
}

export function transport(code: string, callerAborted = false): ApiError {
  return errorFromTransport(Object.assign(new Error(`low-level ${code}`), { code }), { origin: ORIGIN, callerAborted });
}

/** One error for each wording the API layer writes itself (ApiError.detail). */
export function apiWorded(): ApiError[] {
  return [
    transport('UND_ERR_CONNECT_TIMEOUT'),
    transport('UND_ERR_HEADERS_TIMEOUT'),
    transport('UND_ERR_BODY_TIMEOUT'),
    transport('ECONNREFUSED'),
    transport('ENOTFOUND'),
    transport('ECONNRESET'),
    transport('UND_ERR_RES_CONTENT_LENGTH_MISMATCH'),
    transport('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION'),
    transport('CERT_HAS_EXPIRED'),
    transport('ERR_TLS_CERT_ALTNAME_INVALID'),
    transport('SELF_SIGNED_CERT_IN_CHAIN'),
    transport('EHOSTUNREACH'),
    errorFromResponse({
      status: 502,
      bodyText: '<html><title>Bad gateway</title></html>',
      method: 'GET',
      path: '/v1/files',
      requestId: 'req_7',
    }),
    errorFromResponse({ status: 500, bodyText: '', method: 'POST', path: '/v1/tasks' }),
    errorFromResponse({
      status: 405,
      bodyText: '',
      method: 'POST',
      path: '/v1/runs/run_1/steer',
      assumedEndpoint: true,
    }),
    new ApiError({
      kind: 'authentication',
      code: 'missing_api_key',
      message: 'No API key is set',
      detail: { id: 'missingApiKey', args: [] },
    }),
    new ApiError({
      kind: 'authentication',
      code: 'api_key_unavailable',
      message: 'The API key could not be read',
      detail: { id: 'apiKeyUnavailable', args: [] },
    }),
  ];
}

/** The steering 409s, whose sentence states the fact instead of advising a retry. */
export function steeringConflicts(): ApiError[] {
  return ['run_not_active', 'run_not_resumable', 'approval_already_decided', 'approval_expired'].map(
    (code) => new ApiError({ kind: 'conflict', status: 409, code, message: 'Refused.', requestId: 'req_9' }),
  );
}

/** Every sentence kind: each ApiError kind with and without status, each wording, each steering 409, foreign errors. */
export function errorSamples(): unknown[] {
  return [
    ...API_ERROR_KINDS.flatMap((kind) => [byKind(kind, true), byKind(kind, false)]),
    ...apiWorded(),
    ...steeringConflicts(),
    transport('ECONNRESET', true),
    transport('UND_ERR_DESTROYED'),
    new ApiError({
      kind: 'connection',
      code: 'proxy_refused',
      message: 'The proxy refused the tunnel; check http.proxy.',
    }),
    new ApiError({ kind: 'rate_limit', status: 429, message: 'Slow down', retryAfterMs: 1 }),
    Object.assign(new Error('stopped'), { name: 'AbortError' }),
    new Error('Something broke with Bearer abc.def.'),
    'a thrown string',
  ];
}
