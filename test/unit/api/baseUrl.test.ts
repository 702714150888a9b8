// The base URL: normalisation, validation, and plain http refused for anything but loopback.
import * as assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { isLoopbackHost, normaliseBaseUrl } from '../../../src/api/baseUrl';
import { ApiError, isApiError } from '../../../src/api/errors';
import { rejectionOf } from './fixtures';
import { ApiClient } from './transportUnderTest';

describe('api/baseUrl', () => {
  it('drops trailing slashes and a pasted /v1, keeping a path prefix', () => {
    assert.equal(normaliseBaseUrl('https://agents.example.com///'), 'https://agents.example.com');
    assert.equal(normaliseBaseUrl('  https://agents.example.com/v1/ '), 'https://agents.example.com');
    assert.equal(normaliseBaseUrl('https://example.com:8443/runtime/'), 'https://example.com:8443/runtime');
    assert.equal(normaliseBaseUrl('HTTP://LOCALHOST:8787'), 'http://localhost:8787');
  });

  it('accepts plain http only for loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', '[::1]']) {
      assert.equal(normaliseBaseUrl(`http://${host}:8787/`), `http://${host}:8787`);
    }
    for (const host of ['example.com', '10.0.0.5', '192.168.1.2', '[::2]', 'localhost.example.com', '128.0.0.1']) {
      assert.throws(
        () => normaliseBaseUrl(`http://${host}:8787`),
        (err: unknown) => isApiError(err, 'insecure'),
        host,
      );
    }
    assert.ok(isLoopbackHost('[::ffff:7f00:1]'));
  });

  it('refuses malformed addresses, other schemes, credentials, queries and fragments', () => {
    for (const raw of [
      '',
      'not a url',
      'ftp://example.com',
      'https://user:pw@example.com',
      'https://example.com/?a=1',
      'https://example.com/#x',
    ]) {
      assert.throws(
        () => normaliseBaseUrl(raw),
        (err: unknown) => isApiError(err, 'validation'),
        raw,
      );
    }
  });

  it('a client on http to a remote host fails every call as insecure without any connection attempt', async () => {
    let connects = 0;
    let keyAsked = 0;
    const onConnect = (): void => void connects++;
    subscribe('undici:client:beforeConnect', onConnect);
    try {
      const client = new ApiClient({ baseUrl: 'http://192.0.2.10:8787', getApiKey: async () => (keyAsked++, 'k') });
      assert.equal(client.baseUrl, 'http://192.0.2.10:8787');
      const err = await rejectionOf(client.getFile('file_1'));
      assert.ok(err instanceof ApiError);
      assert.equal(err.kind, 'insecure');
      assert.match(err.message, /https/);
      const streamErr = await rejectionOf(client.openEventStream('run_1', {}));
      assert.ok(isApiError(streamErr, 'insecure'));
      await client.dispose();
    } finally {
      unsubscribe('undici:client:beforeConnect', onConnect);
    }
    assert.equal(connects, 0);
    assert.equal(keyAsked, 0);
  });
});
