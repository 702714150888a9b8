// errorSentence, the one builder of the error sentence: every sentence and every wording of the
// API layer goes through the Translate it is given (so the editor can say each in the user's
// language and the l10n bundle holds each), and describeError's English is unchanged word for word.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeError, errorSentence, errorSentenceParts } from '../../../src/api/errorSentences';
import { type Translate, untranslated } from '../../../src/common/translate';
import { repoRoot } from '../../e2e/harness/paths';
import { apiWorded, errorSamples } from './errorSamples';

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
  "The certificate of https://agents.example.com:8443 is not valid now (CERT_HAS_EXPIRED); check this computer's clock, or ask the service's administrator to renew it.",
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

/** Kinds whose sentence is the message itself (the API layer's or the server's words). */
const MESSAGE_ONLY: ReadonlySet<string> = new Set(['proxy', 'validation', 'insecure']);
const CLOSERS: ReadonlySet<string> = new Set(['{0}.', '{0} (request id {1}).']);

/** A Translate that brackets what it says and records which messages it was asked for. */
function marking(): { t: Translate; used: string[] } {
  const used: string[] = [];
  return { used, t: (message, ...args) => (used.push(message), `«${untranslated(message, ...args)}»`) };
}

describe('api/errorSentences', () => {
  it('describeError is the builder through the untranslated Translate', () => {
    for (const err of errorSamples()) {
      assert.equal(describeError(err), errorSentence(err, untranslated));
    }
  });

  it('every sentence kind is said through the Translate, closer and all, and says the English without it', () => {
    for (const err of errorSamples()) {
      const { t, used } = marking();
      const marked = errorSentence(err, t);
      const parts = errorSentenceParts(err);
      assert.ok(marked.startsWith('«') && marked.endsWith('»'), `the whole sentence goes through t: ${marked}`);
      assert.equal(marked.replace(/[«»]/g, ''), describeError(err));
      const messageOnly = MESSAGE_ONLY.has(parts.kind) || (parts.kind === 'connection' && parts.detailNamesFix);
      if (!messageOnly) {
        assert.ok(
          used.some((m) => !CLOSERS.has(m)),
          `${parts.kind} has its own sentence through t: ${JSON.stringify(used)}`,
        );
      }
    }
  });

  it("every wording of the API layer is said through the Translate, not passed on from the error's English message", () => {
    for (const err of apiWorded()) {
      const { t } = marking();
      const english = errorSentenceParts(err).detail;
      assert.ok(errorSentence(err, t).includes(`«${english}»`), `${err.detail?.id}: the wording is bracketed by t`);
    }
  });

  it('every message the builder hands to the Translate is in the l10n bundle (extracted from the builder)', () => {
    const bundle = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const all = new Set<string>();
    for (const err of errorSamples()) {
      const { t, used } = marking();
      errorSentence(err, t);
      for (const message of used) {
        all.add(message);
      }
    }
    for (const message of all) {
      assert.ok(Object.hasOwn(bundle, message), `not in the bundle: ${message}`);
    }
    // 22 sentences (with the 4 steering facts and the 2 closers) and 18 wordings: the samples reach each.
    assert.equal(all.size, 40, JSON.stringify([...all], null, 1));
  });

  it('the English sentence of every sample is unchanged', () => {
    const samples = errorSamples();
    assert.equal(samples.length, ENGLISH.length);
    samples.forEach((err, i) => assert.equal(describeError(err), ENGLISH[i], String((err as Error).message ?? err)));
  });
});
