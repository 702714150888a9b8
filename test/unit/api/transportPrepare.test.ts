// The Node transport's set-up ahead of the first request: prepare() gathers the trusted CAs (and
// loads undici) without connecting, so activation can do it while it waits for the key; a direct
// plain-http origin needs no TLS, so neither prepare() nor a request to it gathers the CAs.
import * as assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { ApiClient } from '../../../src/api/client';
import { UndiciTransport, undiciTransport } from '../../../src/api/network/undiciTransport';
import type { Logger } from '../../../src/common/logger';
import { describeUndiciOnly } from './transportUnderTest';

// The trusted CAs are gathered exactly when this warning is logged: the variable names no file.
const MISSING_CA = '/nonexistent/agent-runtime-test-ca.pem';
const gathered = (lines: string[]) => lines.filter((l) => l.includes(MISSING_CA)).length;

function recorder(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const put = (msg: string) => void lines.push(msg);
  return { lines, logger: { trace: put, debug: put, info: put, warn: put, error: put } };
}

const network = { systemCertificates: false, env: { NODE_EXTRA_CA_CERTS: MISSING_CA } };

describeUndiciOnly('api/transport prepare', () => {
  let tcp: Server;
  let connections = 0;

  before(async () => {
    tcp = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  });

  after(() => tcp.close());

  it('gathers the trusted CAs for an https origin at once, connecting nothing', () => {
    const { logger, lines } = recorder();
    const transport = new UndiciTransport({ timeoutMs: 5_000, network, logger });
    const before = connections;
    transport.prepare(`https://127.0.0.1:${(tcp.address() as AddressInfo).port}`);
    assert.equal(gathered(lines), 1, lines.join('\n'));
    transport.prepare(`https://127.0.0.1:${(tcp.address() as AddressInfo).port}`);
    assert.equal(gathered(lines), 1, 'once per transport');
    assert.equal(connections, before);
    void transport.destroy();
  });

  it('gathers no CAs for a direct plain-http origin, prepared or requested', async () => {
    const server = createHttpServer((_req, res) => res.end('pong'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { logger, lines } = recorder();
    const transport = new UndiciTransport({ timeoutMs: 5_000, network, logger });
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      transport.prepare(origin);
      const res = await transport.request({ origin, path: '/', method: 'GET', headers: {} });
      let body = '';
      for await (const chunk of res.body) {
        body += Buffer.from(chunk).toString();
      }
      assert.equal(body, 'pong');
      assert.equal(gathered(lines), 0, lines.join('\n'));
    } finally {
      await transport.destroy();
      server.close();
    }
  });

  it("a client's prepare() reaches its transport for the service's origin, and never throws", () => {
    const { logger, lines } = recorder();
    const client = new ApiClient({
      baseUrl: `https://127.0.0.1:${(tcp.address() as AddressInfo).port}`,
      getApiKey: async () => undefined,
      logger,
      network,
      transport: undiciTransport,
    });
    client.prepare();
    assert.equal(gathered(lines), 1, lines.join('\n'));
    const broken = new ApiClient({ baseUrl: 'not a url', getApiKey: async () => undefined, logger });
    assert.doesNotThrow(() => broken.prepare());
    void client.dispose();
  });
});
