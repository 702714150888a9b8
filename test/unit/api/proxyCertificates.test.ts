// Which CAs the transport trusts beyond Node's roots (NODE_EXTRA_CA_CERTS read again, the system
// store per http.systemCertificates), and the sentence for each kind of refused certificate.
import * as assert from 'node:assert/strict';
import { rootCertificates } from 'node:tls';
import { errorFromTransport } from '../../../src/api/errors';
import { describeError } from '../../../src/api/errorSentences';
import { LINUX_CA_BUNDLES, trustedCertificates } from '../../../src/api/network/certificates';

const PEM_A = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----';
const PEM_B = '-----BEGIN CERTIFICATE-----\nBBBB\n-----END CERTIFICATE-----';

function files(map: Record<string, string>): (path: string) => string {
  return (path) => {
    if (path in map) {
      return map[path];
    }
    throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
  };
}

describe('api/network trusted certificates', () => {
  it('adds nothing without network settings or extra CA (Node defaults stay in force)', () => {
    assert.deepEqual(trustedCertificates(undefined, undefined), { notes: [], warnings: [] });
  });

  it('reads the file NODE_EXTRA_CA_CERTS names from the settings env, on top of the bundled roots', () => {
    const result = trustedCertificates(
      { env: { NODE_EXTRA_CA_CERTS: '/corp/ca.pem' }, systemCertificates: false },
      undefined,
      { readText: files({ '/corp/ca.pem': `${PEM_A}\n${PEM_B}\n` }) },
    );
    assert.deepEqual(result.ca, [...rootCertificates, PEM_A, PEM_B]);
    assert.deepEqual(result.notes, ['2 from NODE_EXTRA_CA_CERTS (/corp/ca.pem)']);
  });

  it('warns about an unreadable NODE_EXTRA_CA_CERTS file and carries on', () => {
    const result = trustedCertificates(
      { env: { NODE_EXTRA_CA_CERTS: '/missing.pem' }, systemCertificates: false },
      undefined,
      { readText: files({}) },
    );
    assert.equal(result.ca, undefined);
    assert.deepEqual(result.warnings, [
      'NODE_EXTRA_CA_CERTS names /missing.pem, which could not be read (ENOENT); its CAs are not trusted.',
    ]);
  });

  it("on Linux without Node's system store reads the first distribution bundle that exists, only with http.systemCertificates on", () => {
    const readText = files({ [LINUX_CA_BUNDLES[1]]: PEM_A, [LINUX_CA_BUNDLES[2]]: PEM_B });
    const on = trustedCertificates({ env: {} }, undefined, { readText, platform: 'linux', systemStore: null });
    assert.deepEqual(on.ca, [...rootCertificates, PEM_A]);
    assert.deepEqual(on.notes, [`1 from ${LINUX_CA_BUNDLES[1]}`]);
    assert.equal(
      trustedCertificates({ env: {}, systemCertificates: false }, undefined, {
        readText,
        platform: 'linux',
        systemStore: null,
      }).ca,
      undefined,
    );
    assert.equal(
      trustedCertificates({ env: {} }, undefined, { readText, platform: 'darwin', systemStore: null }).ca,
      undefined,
    );
  });

  it("uses Node's system store where Node has one, on any platform", () => {
    const result = trustedCertificates({ env: {} }, undefined, { platform: 'win32', systemStore: () => [PEM_B] });
    assert.deepEqual(result.ca, [...rootCertificates, PEM_B]);
  });

  it("adds the client's own extra CA", () => {
    const result = trustedCertificates({ env: {}, systemCertificates: false }, `${PEM_A}\n`, {});
    assert.deepEqual(result.ca, [...rootCertificates, PEM_A]);
  });
});

describe('api/errors certificate sentences', () => {
  const where = 'https://agents.example.com';
  const sentence = (code: string): string =>
    describeError(
      errorFromTransport(Object.assign(new Error('handshake failed'), { code }), {
        origin: where,
        callerAborted: false,
      }),
    );

  it('names NODE_EXTRA_CA_CERTS and http.systemCertificates for an untrusted issuer', () => {
    for (const code of [
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'SELF_SIGNED_CERT_IN_CHAIN',
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    ]) {
      assert.equal(
        sentence(code),
        `The certificate of ${where} is not trusted (${code}; issued by a private CA or a TLS-inspecting proxy?); add that CA to the file NODE_EXTRA_CA_CERTS names, or to the system store with http.systemCertificates on.`,
      );
    }
  });

  it('points at the clock or the administrator for an expired certificate', () => {
    assert.equal(
      sentence('CERT_HAS_EXPIRED'),
      `The certificate of ${where} is not valid now (CERT_HAS_EXPIRED); check this computer's clock, or ask the service's administrator to renew it.`,
    );
  });

  it('points at the address for a certificate made out to another host', () => {
    assert.equal(
      sentence('ERR_TLS_CERT_ALTNAME_INVALID'),
      `The certificate of ${where} is for another host name (ERR_TLS_CERT_ALTNAME_INVALID); use the address the certificate names in agentRuntime.baseUrl.`,
    );
  });

  it('keeps the TLS 1.3 requirement sentence', () => {
    assert.equal(
      sentence('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION'),
      `Secure connection to ${where} failed: the server does not offer TLS 1.3, which is required.`,
    );
  });
});
