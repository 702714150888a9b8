// The undici dispatchers behind the transport: one Agent for direct connections and one
// ProxyAgent per proxy. undici's own proxy agent does the HTTP CONNECT tunnel (the proxy looks up
// and connects to the service's host; the client never resolves it), and TLS to the service runs
// inside the tunnel, so the proxy sees neither the API key nor anything else of the request.
// EnvHttpProxyAgent is not used: it reads process.env itself and its NO_PROXY rules are not
// VS Code's; proxyRoute.ts decides the route and this file only builds what the route needs.
import type { LookupFunction } from 'node:net';
import type { SecureContext } from 'node:tls';
import type { buildConnector, Dispatcher } from 'undici';
import type { ProxyEndpoint } from './proxyRoute';
import { loadUndici } from './undici';

export interface TlsTrust {
  /** For the service: TLS 1.3 minimum and the trusted CAs; absent: Node's roots, TLS 1.3 minimum. */
  service?: SecureContext;
  /** For an https:// proxy: the same CAs, Node's default protocol range. */
  proxy?: () => SecureContext | undefined;
}

export interface DispatcherOptions {
  timeoutMs: number;
  trust: TlsTrust;
  lookup?: LookupFunction;
}

/** Errors raised while connecting to the proxy itself (not to the service through it). */
const proxyHopErrors = new WeakSet<object>();

/** True when `err` (or its cause) came from reaching the proxy, not the service. */
export function isProxyHopError(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (proxyHopErrors.has(e)) {
      return true;
    }
  }
  return false;
}

function serviceTls(trust: TlsTrust): buildConnector.BuildOptions {
  // A given secure context was made with minVersion TLSv1.3; tls.connect ignores minVersion then.
  return trust.service ? { secureContext: trust.service } : { minVersion: 'TLSv1.3' };
}

export function directDispatcher(options: DispatcherOptions): Dispatcher {
  return new (loadUndici().Agent)({
    connect: {
      timeout: options.timeoutMs,
      ...serviceTls(options.trust),
      ...(options.lookup ? { lookup: options.lookup } : {}),
    },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
}

/**
 * The client that talks to the proxy itself: a Pool whose connector marks its failures (so a
 * refused or untrusted proxy is told apart from a refusing service) and which has `connect`,
 * the CONNECT call undici's index adds to every dispatcher but the deep-path modules do not.
 */
function proxyClientFactory(origin: URL, opts: object): Dispatcher {
  const connect = (opts as { connect: buildConnector.connector }).connect;
  const marked: buildConnector.connector = (connectOptions, callback) => {
    connect(connectOptions, (...args) => {
      const [err] = args;
      if (err) {
        proxyHopErrors.add(err);
      }
      callback(...args);
    });
  };
  const { Pool, connect: connectImpl } = loadUndici();
  const pool = new Pool(origin, { ...opts, connect: marked });
  Object.defineProperty(pool, 'connect', {
    value: (connectOptions: Dispatcher.ConnectOptions) => connectImpl.call(pool, connectOptions),
  });
  return pool;
}

export function proxyDispatcher(proxy: ProxyEndpoint, strictSSL: boolean, options: DispatcherOptions): Dispatcher {
  const proxyContext = proxy.url.protocol === 'https:' ? options.trust.proxy?.() : undefined;
  return new (loadUndici().ProxyAgent)({
    uri: proxy.url.href,
    ...(proxy.authorization ? { token: proxy.authorization } : {}),
    clientFactory: proxyClientFactory,
    // The TLS session with the service, inside the tunnel: the same rules as a direct connection.
    requestTls: { timeout: options.timeoutMs, ...serviceTls(options.trust) },
    // http.proxyStrictSSL governs the proxy's own certificate only (see ARCHITECTURE.md).
    proxyTls: {
      timeout: options.timeoutMs,
      rejectUnauthorized: strictSSL,
      ...(proxyContext ? { secureContext: proxyContext } : {}),
    },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
}
