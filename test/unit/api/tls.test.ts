// Transport security over https: TLS 1.3 is required; a TLS 1.2-only server is refused, a TLS 1.3
// one whose self-signed certificate is passed as `ca` is accepted, an untrusted one is refused.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { SecureVersion } from 'node:tls';
import { isApiError } from '../../../src/api/errors';
import { makeTempDir, rejectionOf } from './fixtures';
import { ApiClient, describeUndiciOnly } from './transportUnderTest';

describeUndiciOnly('api/transport TLS', () => {
  let cert: string;
  let key: string;
  const servers: Server[] = [];

  before(async () => {
    const temp = await makeTempDir();
    try {
      // A throwaway self-signed certificate for 127.0.0.1, made for this run only.
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1,DNS:localhost',
          '-keyout',
          join(temp.dir, 'key.pem'),
          '-out',
          join(temp.dir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      cert = readFileSync(join(temp.dir, 'cert.pem'), 'utf8');
      key = readFileSync(join(temp.dir, 'key.pem'), 'utf8');
    } finally {
      await temp.remove();
    }
  });

  after(async () => {
    await Promise.all(
      servers.map(
        (s) =>
          new Promise<void>((r) => {
            s.closeAllConnections();
            s.close(() => r());
          }),
      ),
    );
  });

  async function serve(
    minVersion: SecureVersion,
    maxVersion: SecureVersion,
  ): Promise<{ url: string; hits: () => number; connections: () => number }> {
    let hits = 0;
    let connections = 0;
    const server = createServer({ key, cert, minVersion, maxVersion }, (_req, res) => {
      hits++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'file_tls', object: 'file' }));
    });
    // Every TCP connection is one handshake attempt, whether or not the handshake succeeds.
    server.on('connection', () => void connections++);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return {
      url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      hits: () => hits,
      connections: () => connections,
    };
  }

  it('accepts a TLS 1.3 server whose certificate is passed as ca', async () => {
    const server = await serve('TLSv1.3', 'TLSv1.3');
    const client = new ApiClient({ baseUrl: server.url, getApiKey: async () => 'k', ca: cert });
    try {
      assert.equal((await client.getFile('file_tls')).id, 'file_tls');
      assert.equal(server.hits(), 1);
    } finally {
      await client.dispose();
    }
  });

  it('refuses a server limited to TLS 1.2 after one handshake attempt, before any request is sent', async () => {
    const server = await serve('TLSv1.2', 'TLSv1.2');
    const client = new ApiClient({ baseUrl: server.url, getApiKey: async () => 'k', ca: cert });
    try {
      const err = await rejectionOf(client.getFile('file_tls'));
      assert.ok(isApiError(err, 'connection'), String(err));
      assert.match(err.message, /TLS 1\.3/);
      assert.equal(server.hits(), 0);
      assert.equal(server.connections(), 1, 'a refused handshake was tried again');
    } finally {
      await client.dispose();
    }
  });

  it('refuses a TLS 1.3 server whose certificate is not trusted, after one handshake attempt', async () => {
    const server = await serve('TLSv1.3', 'TLSv1.3');
    const client = new ApiClient({ baseUrl: server.url, getApiKey: async () => 'k' });
    try {
      const err = await rejectionOf(client.getFile('file_tls'));
      assert.ok(isApiError(err, 'connection'), String(err));
      assert.match(err.message, /not trusted/);
      assert.equal(server.hits(), 0);
      assert.equal(server.connections(), 1, 'a refused handshake was tried again');
    } finally {
      await client.dispose();
    }
  });
});
