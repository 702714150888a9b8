// describeError's English sentence, word for word, for every sentence kind: logs and tests read
// it, and the one builder it shares with the editor's translated sentence must not change it.
import * as assert from 'node:assert/strict';
import { describeError } from '../../../src/api/errors';
import { errorSamples } from './errorSamples';

// Captured from describeError before the English and the translated sentence had one builder.
const ENGLISH = [
  'The service rejected the API key (418: The server said no); sign in again with a valid key (request id req_42).',
  'The server said no; sign in with an API key to continue.',
  'This API key is not allowed to do that (418: The server said no); use a key with the needed access (request id req_42).',
  'This API key is not allowed to do that (The server said no); use a key with the needed access.',
  'Not found (418: The server said no); it may have been deleted, refresh and try again (request id req_42).',
  'Not found (The server said no); it may have been deleted, refresh and try again.',
  'The service reports a conflict (418: The server said no); wait a moment and try again (request id req_42).',
  'The service reports a conflict (The server said no); wait a moment and try again.',
  'Too large (418: The server said no); files may be at most 512 MB (request id req_42).',
  'Too large (The server said no); files may be at most 512 MB.',
  'The service is rate limiting requests (418: The server said no); wait 3 s and try again (request id req_42).',
  'The service is rate limiting requests (The server said no); wait a moment and try again.',
  'The service refused the request (418: The server said no) (request id req_42).',
  'The service refused the request (The server said no).',
  'The service had a problem (418: The server said no); try again later (request id req_42).',
  'The service had a problem (The server said no); try again later.',
  'The server said no; this feature is not available with this server (request id req_42).',
  'The server said no; this feature is not available with this server.',
  'The server said no; check the service address and your network (request id req_42).',
  'The server said no; check the service address and your network.',
  'The server said no (request id req_42).',
  'The server said no.',
  'The server said no; the service may be slow or unreachable, try again (request id req_42).',
  'The server said no; the service may be slow or unreachable, try again.',
  'The operation was cancelled.',
  'The operation was cancelled.',
  'The server said no (request id req_42).',
  'The server said no.',
  'The server said no (request id req_42).',
  'The server said no.',
  'The service sent an answer the extension cannot read (The server said no) (request id req_42).',
  'The service sent an answer the extension cannot read (The server said no).',
  'Connecting to https://agents.example.com:8443 timed out; the service may be slow or unreachable, try again.',
  'https://agents.example.com:8443 did not answer in time; the service may be slow or unreachable, try again.',
  'https://agents.example.com:8443 stopped sending in the middle of a response; the service may be slow or unreachable, try again.',
  'Could not connect to https://agents.example.com:8443 (connection refused); check the service address and your network.',
  'Could not find the host of https://agents.example.com:8443 (DNS lookup failed); check the service address and your network.',
  'The connection to https://agents.example.com:8443 was closed before the answer was complete; check the service address and your network.',
  'The transfer with https://agents.example.com:8443 ended early (length mismatch); check the service address and your network.',
  'Secure connection to https://agents.example.com:8443 failed: the server does not offer TLS 1.3, which is required.',
  'The certificate of https://agents.example.com:8443 is not valid now (CERT_HAS_EXPIRED); check this computer\'s clock, or ask the service\'s administrator to renew it.',
  'The certificate of https://agents.example.com:8443 is for another host name (ERR_TLS_CERT_ALTNAME_INVALID); use the address the certificate names in agentRuntime.baseUrl.',
  'The certificate of https://agents.example.com:8443 is not trusted (SELF_SIGNED_CERT_IN_CHAIN; issued by a private CA or a TLS-inspecting proxy?); add that CA to the file NODE_EXTRA_CA_CERTS names, or to the system store with http.systemCertificates on.',
  'Request to https://agents.example.com:8443 failed: low-level EHOSTUNREACH; check the service address and your network.',
  'The service had a problem (502: The service answered 502 Bad Gateway: "Bad gateway"); try again later (request id req_7).',
  'The service had a problem (500: The service answered 500 Internal Server Error to POST /v1/tasks); try again later.',
  'This server does not offer POST /v1/runs/run_1/steer (it answered 405 Method Not Allowed); this feature is not available with this server.',
  'No API key is set; sign in with an API key to continue.',
  'The API key could not be read; sign in with an API key to continue.',
  'The run already ended (409: Refused) (request id req_9).',
  'This run cannot be resumed (only failed or cancelled runs can) (409: Refused) (request id req_9).',
  'This approval was already decided (409: Refused) (request id req_9).',
  'This approval expired before it was decided (409: Refused) (request id req_9).',
  'The operation was cancelled.',
  'The operation was cancelled.',
  'The proxy refused the tunnel; check http.proxy.',
  'The service is rate limiting requests (429: Slow down); wait 1 s and try again.',
  'The operation was cancelled.',
  'Unexpected error: Something broke with Bearer ***.',
  'Unexpected error: a thrown string.',
];

describe('api/errorSentences', () => {
  it('the English sentence of every sample is unchanged', () => {
    const samples = errorSamples();
    assert.equal(samples.length, ENGLISH.length);
    samples.forEach((err, i) => assert.equal(describeError(err), ENGLISH[i], String((err as Error).message ?? err)));
  });
});
