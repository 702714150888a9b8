// The Node transport: the narrow slice of undici the API layer uses, loaded by deep path so the
// extension bundle leaves out the rest of undici (fetch, mocks, caches). Everything about how
// bytes reach the service on Node lives below this file: TLS 1.3, trusted CAs, proxies (this
// folder). Nothing above ../transport.ts knows whether undici or fetch carries the request.
//
// What an extension can reach of VS Code's networking, and what we do (see also proxyRoute.ts):
// with http.proxySupport "on"/"fallback"/"override", VS Code's extension host patches the http,
// https, net and tls modules that extensions require, global fetch, and a plain
// require('undici'). It does not patch a bundled undici loaded by path, as ours is, so the
// transport applies the settings itself: http.proxy, http.proxyAuthorization, http.noProxy,
// http.proxyStrictSSL, http.proxySupport, then the proxy environment variables, through undici's
// ProxyAgent. VS Code's last step, the OS or PAC resolver, runs in the main process and is only
// reachable through those patched modules, so a system or PAC proxy is not resolved here.
import { createSecureContext, type SecureContext } from 'node:tls';
import type { Dispatcher } from 'undici';
import { type Logger, silentLogger } from '../../common/logger';
import { ApiError } from '../errors';
import type { HttpTransport, TransportOptions, TransportRequest, TransportResponse } from '../transport';
import { trustedCertificates } from './certificates';
import { directDispatcher, proxyDispatcher, type TlsTrust } from './dispatchers';
import { describeProxy, proxyFailure } from './proxyErrors';
import { type ProxyRoute, resolveProxyRoute } from './proxyRoute';
import { loadUndici } from './undici';

/** The Node transport (the extension host on the desktop and in remote hosts). */
export const undiciTransport = (options: TransportOptions): HttpTransport => new UndiciTransport(options);

/** Connection pools per route (direct, or each proxy): TLS 1.3 only, a connect timeout, trusted CAs. */
export class UndiciTransport implements HttpTransport {
  private readonly options: TransportOptions;
  private readonly logger: Logger;
  private readonly routes = new Map<string, ProxyRoute>();
  private readonly dispatchers = new Map<string, Dispatcher>();
  private trust?: TlsTrust;

  constructor(options: TransportOptions) {
    this.options = options;
    this.logger = options.logger ?? silentLogger;
  }

  async request(req: TransportRequest): Promise<TransportResponse> {
    const route = this.routeFor(req.origin);
    if (route.kind === 'invalid') {
      throw new ApiError({ kind: 'proxy', code: 'proxy_invalid', message: route.message });
    }
    const options: Dispatcher.RequestOptions = {
      origin: req.origin,
      path: req.path,
      method: req.method,
      headers: req.headers,
      // undici streams any async iterable with backpressure; its typings list only Readable.
      body: req.body as Dispatcher.RequestOptions['body'],
      signal: req.signal,
      headersTimeout: req.headersTimeout,
      bodyTimeout: req.bodyTimeout,
    };
    let res: Dispatcher.ResponseData;
    try {
      res = await loadUndici().request.call(this.dispatcherFor(route, req.origin), options);
    } catch (err) {
      if (route.kind === 'proxy' && !req.signal?.aborted) {
        throw proxyFailure(err, route.proxy, req.origin) ?? err;
      }
      throw err;
    }
    // destroy() without an error makes undici emit one; with nobody listening that would be an
    // uncaught exception. Readers (for await) still see every error.
    res.body.on('error', () => undefined);
    return { status: res.statusCode, headers: res.headers, body: res.body };
  }

  /** Loads undici and builds the dispatcher (with its trusted CAs) `origin` will use; connects nothing. */
  prepare(origin: string): void {
    const route = this.routeFor(origin);
    if (route.kind !== 'invalid') {
      this.dispatcherFor(route, origin);
    }
  }

  /** Closes every connection at once; requests still running fail. */
  async destroy(): Promise<void> {
    const all = [...this.dispatchers.values()];
    this.dispatchers.clear();
    await Promise.all(all.map((d) => d.destroy()));
  }

  private routeFor(origin: string): ProxyRoute {
    let route = this.routes.get(origin);
    if (!route) {
      route = this.options.network
        ? resolveProxyRoute(origin, this.options.network)
        : { kind: 'direct', reason: 'no proxy configured' };
      this.routes.set(origin, route);
      if (this.options.network) {
        this.logger.info(`Network: ${origin} ${describeRoute(route)}`);
      }
    }
    return route;
  }

  private dispatcherFor(route: ProxyRoute & { kind: 'direct' | 'proxy' }, origin: string): Dispatcher {
    // A direct plain-http connection has no TLS, so it needs none of the CAs (building their
    // context is the largest part of the first request's set-up: about 50 ms for 288 CAs).
    const plain = route.kind === 'direct' && origin.startsWith('http:');
    const key =
      route.kind === 'proxy'
        ? `proxy ${route.proxy.url.href} ${route.proxy.authorization ?? ''}`
        : plain
          ? 'direct plain'
          : 'direct';
    let dispatcher = this.dispatchers.get(key);
    if (!dispatcher) {
      const trust = plain ? {} : this.tlsTrust();
      const options = { timeoutMs: this.options.timeoutMs, trust, lookup: this.options.lookup };
      dispatcher =
        route.kind === 'proxy'
          ? proxyDispatcher(route.proxy, this.options.network?.proxyStrictSSL !== false, options)
          : directDispatcher(options);
      this.dispatchers.set(key, dispatcher);
    }
    return dispatcher;
  }

  /** Built on first use: gathering the system store and building a context with it takes a moment. */
  private tlsTrust(): TlsTrust {
    if (this.trust) {
      return this.trust;
    }
    const { ca, notes, warnings } = trustedCertificates(this.options.network, this.options.ca);
    for (const warning of warnings) {
      this.logger.warn(`Network: ${warning}`);
    }
    if (notes.length > 0) {
      this.logger.info(`Network: trusting extra CA certificates: ${notes.join(', ')}`);
    }
    let proxyContext: SecureContext | undefined;
    this.trust =
      ca === undefined
        ? {}
        : {
            service: createSecureContext({ ca, minVersion: 'TLSv1.3' }),
            proxy: () => (proxyContext ??= createSecureContext({ ca })),
          };
    return this.trust;
  }
}

function describeRoute(route: ProxyRoute): string {
  switch (route.kind) {
    case 'proxy':
      return `through the proxy ${describeProxy(route.proxy)}`;
    case 'invalid':
      return `cannot be reached: ${route.message}`;
    default:
      return `direct (${route.reason})`;
  }
}
