// The client behind a real forward proxy (squid): HTTPS to a service whose certificate comes from
// a private CA, through an HTTP CONNECT tunnel, with and without Basic authentication; the
// settings' order, bypass rules, the proxy's own certificate, and the sentences for failures.
// The service's host name (agent-runtime.test) is known only to squid's hosts file: a request
// that succeeds went through the proxy, and the proxy, not the client, looked the name up.
import * as assert from 'node:assert/strict';
import type { LookupFunction } from 'node:net';
import { type ApiError, isApiError } from '../../../src/api/errors';
import { describeError } from '../../../src/api/errorSentences';
import { UndiciTransport as Transport } from '../../../src/api/network/undiciTransport';
import type { NetworkSettings } from '../../../src/api/transport';
import { type RuntimeHandle, startRuntime } from '../../runtime/index';
import { CapturingLogger, QUICK_BACKOFF, rejectionOf } from './fixtures';
import { makePrivateCa, type PrivateCa, startRecordingTunnelProxy, startTlsFront, type TlsFront } from './proxyTlsKit';
import { type AccessLogLine, freePort, type SquidHandle, startSquid } from './squidKit';
import { ApiClient, describeUndiciOnly } from './transportUnderTest';

const API_KEY = 'sk-proxy-test-7f3a9c1e5b2d';
const USER = 'alice';
/** The user of the http.proxyAuthorization test only, so its tunnel's line is told from the others. */
const HEADER_USER = 'bob';
const PASSWORD = 'pr0xy-p@ss';
const SERVICE_HOST = 'agent-runtime.test';

describeUndiciOnly('api/transport through a proxy (squid)', function () {
  // Squid and openssl take seconds to start; the requests themselves are quick.
  this.timeout(60_000);

  let ca: PrivateCa;
  let proxyCa: PrivateCa;
  let runtime: RuntimeHandle;
  let service: TlsFront;
  let tls12Service: TlsFront;
  let squid: SquidHandle;
  const clients: ApiClient[] = [];
  const closers: (() => Promise<void>)[] = [];

  before(async () => {
    ca = await makePrivateCa('Agent Runtime Test Private CA');
    proxyCa = await makePrivateCa('Agent Runtime Test Proxy CA');
    const serviceCert = await ca.issue(SERVICE_HOST, [SERVICE_HOST, 'bypass-runtime.test']);
    runtime = await startRuntime({ apiKeys: [API_KEY] });
    service = await startTlsFront(runtime.port, serviceCert);
    tls12Service = await startTlsFront(runtime.port, serviceCert, { min: 'TLSv1.2', max: 'TLSv1.2' });
    squid = await startSquid({
      hosts: { [SERVICE_HOST]: '127.0.0.1', 'bypass-runtime.test': '127.0.0.1' },
      users: { [USER]: PASSWORD, [HEADER_USER]: PASSWORD },
      tls: await proxyCa.issue('127.0.0.1', ['127.0.0.1']),
    });
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  after(async () => {
    await squid?.close();
    await service?.close();
    await tls12Service?.close();
    await runtime?.close();
    await ca?.remove();
    await proxyCa?.remove();
  });

  /** The settings under test, isolated from this machine: no environment, no system store. */
  function settings(network: NetworkSettings): NetworkSettings {
    return { systemCertificates: false, ...network, env: { NODE_EXTRA_CA_CERTS: ca.certFile, ...network.env } };
  }

  function clientFor(network: NetworkSettings, options: { port?: number; logger?: CapturingLogger } = {}): ApiClient {
    const client = new ApiClient({
      baseUrl: `https://${SERVICE_HOST}:${options.port ?? service.port}`,
      getApiKey: async () => API_KEY,
      network: settings(network),
      logger: options.logger,
      backoff: QUICK_BACKOFF,
    });
    clients.push(client);
    return client;
  }

  function withCredentials(proxyUrl: string, user: string, password: string): string {
    const url = new URL(proxyUrl);
    url.username = user;
    url.password = encodeURIComponent(password);
    return url.href;
  }

  const tunnelTo = (port: number) => (line: AccessLogLine) =>
    line.method === 'CONNECT' && line.url === `${SERVICE_HOST}:${port}`;

  async function failure(promise: Promise<unknown>): Promise<ApiError> {
    const err = await rejectionOf(promise);
    assert.ok(isApiError(err), String(err));
    return err;
  }

  it('reaches the service over HTTPS through an open proxy, trusting the private CA named by NODE_EXTRA_CA_CERTS', async () => {
    const client = clientFor({ proxy: squid.url });
    const task = await client.createTask({ objective: 'through the proxy' });
    assert.equal((await client.getTask(task.id)).id, task.id);
    await client.dispose();
    const line = await squid.waitForLine(tunnelTo(service.port), 'the CONNECT tunnel');
    assert.equal(line.result, 'TCP_TUNNEL/200');
    assert.equal(line.user, '-');
  });

  it('authenticates with Basic credentials in the proxy URL (percent-encoded), and logs them redacted', async () => {
    const logger = new CapturingLogger();
    const proxy = withCredentials(squid.authUrl ?? '', USER, PASSWORD);
    const client = clientFor({ proxy }, { logger });
    await client.listTasks({ limit: 1 });
    await client.dispose();
    const line = await squid.waitForLine(
      (l) => tunnelTo(service.port)(l) && l.user === USER,
      'the authenticated tunnel',
    );
    assert.equal(line.result, 'TCP_TUNNEL/200');
    assert.ok(
      logger.lines.some((l) => l.includes(`through the proxy http://${USER}:***@127.0.0.1:`)),
      logger.lines.join('\n'),
    );
    for (const l of logger.lines) {
      assert.ok(!l.includes(PASSWORD) && !l.includes(encodeURIComponent(PASSWORD)), l);
      assert.ok(!l.includes(API_KEY), l);
    }
  });

  it('sends http.proxyAuthorization as the Proxy-Authorization header', async () => {
    const token = `Basic ${Buffer.from(`${HEADER_USER}:${PASSWORD}`).toString('base64')}`;
    const client = clientFor({ proxy: squid.authUrl, proxyAuthorization: token });
    await client.listTasks({ limit: 1 });
    await client.dispose();
    await squid.waitForLine(
      (l) => tunnelTo(service.port)(l) && l.user === HEADER_USER && l.result === 'TCP_TUNNEL/200',
      'the tunnel opened with the header',
    );
  });

  it('says the proxy refused the credentials (407) and where to fix them, once, without the password', async () => {
    const denied = async () => (await squid.settledLog()).filter((l) => l.result === 'TCP_DENIED/407').length;
    const before = await denied();
    const logger = new CapturingLogger();
    const client = clientFor({ proxy: withCredentials(squid.authUrl ?? '', USER, 'wrong-password') }, { logger });
    const err = await failure(client.listTasks());
    assert.equal(err.kind, 'proxy');
    assert.equal(err.status, 407);
    const sentence = describeError(err);
    assert.match(
      sentence,
      /^The proxy http:\/\/alice:\*\*\*@127\.0\.0\.1:\d+ \(from http\.proxy\) refused the credentials \(407 Proxy Authentication Required\); check the user name and password in the http\.proxy setting\.$/,
    );
    assert.ok(!JSON.stringify([sentence, err.message, String(err.cause), logger.lines]).includes('wrong-password'));
    // Not retried: a wrong password sent again and again can lock the account.
    assert.equal(await denied(), before + 1);
  });

  it('says the proxy asks for credentials when none are configured', async () => {
    const client = clientFor({ proxy: squid.authUrl });
    const err = await failure(client.listTasks());
    assert.equal(err.kind, 'proxy');
    assert.match(
      describeError(err),
      /asks for credentials \(407 Proxy Authentication Required\); put them in the http\.proxy setting as http:\/\/user:password@host:port, or set http\.proxyAuthorization\.$/,
    );
  });

  it('uses HTTPS_PROXY from the environment when http.proxy is empty, and http.proxy when both are set', async () => {
    const fromEnv = clientFor({ proxy: '', env: { HTTPS_PROXY: squid.url } });
    await fromEnv.listTasks({ limit: 1 });

    const unreachable = `http://127.0.0.1:${await freePort()}`;
    const settingWins = clientFor({ proxy: unreachable, env: { HTTPS_PROXY: squid.url } });
    const err = await failure(settingWins.listTasks());
    assert.equal(err.kind, 'proxy');
    assert.equal(
      describeError(err),
      `Could not connect to the proxy ${unreachable} (from http.proxy) (connection refused); check the http.proxy setting.`,
    );
  });

  it('names the environment variable when the proxy from HTTPS_PROXY cannot be reached', async () => {
    const unreachable = `http://127.0.0.1:${await freePort()}`;
    const err = await failure(clientFor({ env: { https_proxy: unreachable } }).listTasks());
    assert.match(
      describeError(err),
      /\(from https_proxy\) \(connection refused\); check the https_proxy environment variable\.$/,
    );
  });

  it('says when the proxy cannot reach the service (the proxy, not the client, looks the host up)', async () => {
    const closedPort = await freePort();
    const err = await failure(clientFor({ proxy: squid.url }, { port: closedPort }).listTasks());
    assert.equal(err.kind, 'connection');
    assert.equal(err.code, 'proxy_tunnel_failed');
    assert.match(
      describeError(err),
      new RegExp(
        `^The proxy http://127\\.0\\.0\\.1:\\d+ \\(from http\\.proxy\\) could not reach agent-runtime\\.test:${closedPort} \\(it answered 50[234]\\); check the service address \\(the proxy looks the host name up itself\\)\\.$`,
      ),
    );
  });

  it('refuses an unsupported proxy scheme with a sentence instead of going direct', async () => {
    const err = await failure(clientFor({ proxy: 'socks5://127.0.0.1:1080' }).listTasks());
    assert.equal(err.kind, 'proxy');
    assert.match(
      describeError(err),
      /The proxy in http\.proxy uses socks5:\/\/, which is not supported; use an http:\/\/ or https:\/\/ proxy\./,
    );
  });

  it('refuses a service certificate from an untrusted private CA with the fix in one sentence', async () => {
    const client = clientFor({ proxy: squid.url, env: { NODE_EXTRA_CA_CERTS: undefined } });
    const err = await failure(client.listTasks());
    assert.equal(err.kind, 'connection');
    assert.match(
      describeError(err),
      /^The certificate of https:\/\/agent-runtime\.test:\d+ is not trusted \([A-Z_]+; issued by a private CA or a TLS-inspecting proxy\?\); add that CA to the file NODE_EXTRA_CA_CERTS names, or to the system store with http\.systemCertificates on\.$/,
    );
  });

  it('keeps TLS 1.3 as the minimum inside the tunnel', async () => {
    const err = await failure(clientFor({ proxy: squid.url }, { port: tls12Service.port }).listTasks());
    assert.equal(err.kind, 'connection');
    assert.match(err.message, /does not offer TLS 1\.3/);
  });

  describe('an https:// proxy whose certificate comes from a CA the client does not trust', () => {
    it('is refused with http.proxyStrictSSL on (the default), naming the setting', async () => {
      const err = await failure(clientFor({ proxy: squid.tlsUrl }).listTasks());
      assert.equal(err.kind, 'proxy');
      assert.match(
        describeError(err),
        /^The certificate of the proxy https:\/\/127\.0\.0\.1:\d+ \(from http\.proxy\) is not trusted \([A-Z_]+\); .*set http\.proxyStrictSSL to false/,
      );
    });

    it('is used with http.proxyStrictSSL false, which skips checking the proxy certificate only', async () => {
      const client = clientFor({ proxy: squid.tlsUrl, proxyStrictSSL: false });
      await client.listTasks({ limit: 1 });
      // The service's certificate is still checked: without its CA the same request fails.
      const untrusted = clientFor({
        proxy: squid.tlsUrl,
        proxyStrictSSL: false,
        env: { NODE_EXTRA_CA_CERTS: undefined },
      });
      const err = await failure(untrusted.listTasks());
      assert.equal(err.kind, 'connection');
      assert.match(err.message, /^The certificate of https:\/\/agent-runtime\.test:\d+ is not trusted/);
    });
  });

  it('shows the proxy only a CONNECT line: the API key travels inside the TLS tunnel', async () => {
    const recorder = await startRecordingTunnelProxy(service.port);
    closers.push(() => recorder.close());
    const client = clientFor({ proxy: recorder.url });
    await client.createTask({ objective: 'what does the proxy see?' });
    await client.listTasks();
    assert.ok(recorder.connects.length >= 1);
    for (const seen of recorder.connects) {
      assert.equal(seen.target, `${SERVICE_HOST}:${service.port}`);
      const allowed = new Set(['host', 'proxy-connection', 'connection']);
      assert.deepEqual(
        Object.keys(seen.headers).filter((name) => !allowed.has(name)),
        [],
      );
      assert.ok(seen.tunnelBytes.length > 0);
      assert.ok(
        !seen.tunnelBytes.includes(API_KEY) &&
          !seen.tunnelBytes.includes('Bearer') &&
          !seen.tunnelBytes.includes('/v1/'),
        'plain request bytes in the tunnel',
      );
    }
    // Squid's log of every request header it was shown has no trace of the key either.
    for (const line of await squid.settledLog()) {
      assert.ok(!line.raw.includes(API_KEY) && !/authorization: bearer/i.test(line.headers), line.raw);
    }
  });

  describe('bypass (the transport, with a name lookup that knows the service host)', () => {
    // A direct connection needs the client to resolve the name; this lookup stands in for DNS.
    const lookups: string[] = [];
    const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      lookups.push(hostname);
      if (options.all) {
        callback(null, [{ address: '127.0.0.1', family: 4 }]);
      } else {
        callback(null, '127.0.0.1', 4);
      }
    }) as unknown as LookupFunction;

    async function get(network: NetworkSettings, host: string, port: number): Promise<number> {
      const transport = new Transport({ timeoutMs: 10_000, network: settings(network), lookup });
      closers.push(() => transport.destroy());
      const res = await transport.request({
        origin: `https://${host}:${port}`,
        path: '/v1/tasks?limit=1',
        method: 'GET',
        headers: { authorization: `Bearer ${API_KEY}` },
      });
      for await (const _chunk of res.body) {
        void _chunk;
      } // drain it so the connection can close
      await transport.destroy();
      return res.status;
    }

    it('goes direct for a host in NO_PROXY or http.noProxy, and through the proxy otherwise', async () => {
      // A front of its own, so that its port appears in squid's log only because of this test.
      const front = await startTlsFront(runtime.port, await ca.issue('bypass-runtime.test', ['bypass-runtime.test']));
      closers.push(() => front.close());
      const lines = async () => (await squid.settledLog()).filter((l) => l.url.endsWith(`:${front.port}`));

      lookups.length = 0;
      assert.equal(
        await get(
          { env: { HTTPS_PROXY: squid.url, NO_PROXY: 'example.com, bypass-runtime.test' } },
          'bypass-runtime.test',
          front.port,
        ),
        200,
      );
      assert.equal(
        await get(
          { proxy: squid.url, noProxy: [`.runtime.test:1`, `bypass-runtime.test:${front.port}`] },
          'bypass-runtime.test',
          front.port,
        ),
        200,
      );
      // http.noProxy, when set, replaces NO_PROXY: this one goes through squid.
      assert.equal(
        await get(
          { proxy: squid.url, noProxy: ['other.test'], env: { NO_PROXY: 'bypass-runtime.test' } },
          'bypass-runtime.test',
          front.port,
        ),
        200,
      );
      await squid.waitForLine(
        (l) => l.method === 'CONNECT' && l.url === `bypass-runtime.test:${front.port}`,
        'the proxied request',
      );
      // Squid saw only the last request; the client looked the name up only for the first two.
      assert.equal((await lines()).length, 1, (await lines()).map((l) => l.raw).join('\n'));
      assert.deepEqual(lookups, ['bypass-runtime.test', 'bypass-runtime.test']);
    });
  });
});
