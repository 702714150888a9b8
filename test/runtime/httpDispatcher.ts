// Every request's path through the runtime: request id, faults, auth, routing, idempotency, reply.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultState, InjectedFailure } from './faults';
import { HostileState } from './hostile';
import { HttpError, sendJson } from './httpErrors';
import { IdempotencyStore } from './idempotency';
import { newId, nowTimestamp } from './records';
import { adminRoutes } from './routes/admin';
import { approvalRoutes } from './routes/approvals';
import { connectorRoutes } from './routes/connectors';
import { fileRoutes } from './routes/files';
import { memoryRoutes } from './routes/memory';
import { projectRoutes } from './routes/projects';
import type { PreparedWrite, Reply, RequestContext, Route } from './routes/routeTypes';
import { runRoutes } from './routes/runs';
import { taskRoutes } from './routes/tasks';
import { toolRoutes } from './routes/tools';
import { usageRoutes } from './routes/usage';
import { webhookRoutes } from './routes/webhooks';
import type { RuntimeCore } from './runtimeCore';

export interface DispatcherConfig {
  apiKeys: string[];
  readOnlyKeys: string[];
  adminKey: string;
  keepAliveMs: number;
  maxUploadBytes: number;
  log: (line: string) => void;
}

const API_ROUTES: Route[] = [
  ...fileRoutes,
  ...taskRoutes,
  ...runRoutes,
  ...approvalRoutes,
  ...usageRoutes,
  ...memoryRoutes,
  ...toolRoutes,
  ...connectorRoutes,
  ...webhookRoutes,
  ...projectRoutes,
];
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/**
 * CORS, so the extension in VS Code for the Web (a page or web worker of another origin) can call
 * the API: a preflight of any /v1 path is answered without authentication, and every response
 * allows the caller's origin and lets it read the headers the client reads.
 */
export const CORS = {
  methods: 'GET, POST, PATCH, DELETE',
  headers: 'authorization, content-type, idempotency-key, last-event-id, accept',
  exposed: 'x-request-id, idempotent-replayed, retry-after',
  maxAgeSeconds: 600,
};
/** How long a connection whose request body we refused to read may linger half-closed. */
const LINGER_MS = 5000;

/** A test's count of the requests that reach the runtime (see RuntimeHandle.countRequests). */
export interface RequestCounter {
  readonly method: string;
  readonly pattern: RegExp;
  count: number;
}

export class HttpDispatcher {
  /** Counted as each request arrives, before faults or routing: what the client really sent. */
  readonly counters = new Set<RequestCounter>();
  private readonly writeKeys: Buffer[];
  private readonly readOnlyKeys: Buffer[];
  private readonly adminKey: Buffer;

  constructor(
    private readonly core: RuntimeCore,
    private readonly faults: FaultState,
    private readonly idempotency: IdempotencyStore,
    private readonly config: DispatcherConfig,
    private readonly hostile: HostileState = new HostileState(),
  ) {
    this.writeKeys = config.apiKeys.map(digest);
    this.readOnlyKeys = config.readOnlyKeys.map(digest);
    this.adminKey = digest(config.adminKey);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const requestId = newId('req');
    res.setHeader('x-request-id', requestId);
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://runtime.invalid');
    allowCrossOrigin(req, res);
    // Only method, path and status: never headers, so an API key can never reach the log.
    res.once('close', () =>
      this.config.log(`${method} ${url.pathname} ${res.statusCode} ${Date.now() - started}ms ${requestId}`),
    );
    for (const counter of this.counters) {
      if (counter.method === method && counter.pattern.test(url.pathname)) {
        counter.count += 1;
      }
    }
    try {
      if (method === 'OPTIONS' && (url.pathname === '/v1' || url.pathname.startsWith('/v1/'))) {
        res.writeHead(204, {
          'access-control-allow-methods': CORS.methods,
          'access-control-allow-headers': CORS.headers,
          'access-control-max-age': String(CORS.maxAgeSeconds),
        });
        res.end();
        return;
      }
      if (url.pathname === '/__admin' || url.pathname.startsWith('/__admin/')) {
        await this.handleAdmin(req, res, method, url, requestId);
      } else {
        await this.handleApi(req, res, method, url, requestId);
      }
    } catch (err) {
      this.sendError(req, res, err);
    }
  }

  private async handleApi(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: URL,
    requestId: string,
  ): Promise<void> {
    const delayMs = this.faults.current.delayMs;
    if (delayMs !== undefined && delayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    const failure = this.faults.takeFailure(method, url.pathname);
    if (failure) {
      this.sendInjectedFailure(req, res, failure);
      return;
    }
    const apiKey = this.authenticate(
      req,
      (key) => this.writeKeys.some((k) => safeEqual(k, key)) || this.readOnlyKeys.some((k) => safeEqual(k, key)),
    );
    const missing = this.faults.missingEndpoint(url.pathname);
    if (missing) {
      throw missingEndpoint(missing, method, url.pathname);
    }
    const { route, params } = match(API_ROUTES, method, url.pathname);
    const mayWrite = this.writeKeys.some((k) => safeEqual(k, digest(apiKey)));
    if (method !== 'GET' && !mayWrite) {
      throw new HttpError(
        403,
        'permission_error',
        'forbidden',
        'This API key may only read; it cannot create or delete.',
      );
    }
    const ctx = this.context(req, res, url, params, requestId);
    const intercepted = await this.hostile.intercept(ctx, method);
    if (intercepted) {
      if (intercepted !== 'handled') {
        this.sendReply(req, res, intercepted);
      }
      return;
    }
    if (route.method !== 'POST') {
      const reply = await route.handle(ctx);
      if (reply) {
        this.sendReply(req, res, reply);
      }
      return;
    }
    const idempotencyKey = req.headers['idempotency-key'];
    if (idempotencyKey === undefined) {
      const prepared = await route.prepare(ctx);
      this.deliver(req, res, method, url.pathname, await commit(prepared));
      return;
    }
    if (Array.isArray(idempotencyKey) || idempotencyKey === '' || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      throw new HttpError(
        400,
        'invalid_request_error',
        'invalid_idempotency_key',
        `Idempotency-Key must be one value of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`,
        'Idempotency-Key',
      );
    }
    await this.idempotentWrite(
      req,
      res,
      method,
      url.pathname,
      route,
      ctx,
      IdempotencyStore.slot(apiKey, idempotencyKey),
    );
  }

  private async idempotentWrite(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    pathname: string,
    route: Extract<Route, { method: 'POST' }>,
    ctx: RequestContext,
    slot: string,
  ): Promise<void> {
    if (this.idempotency.isInFlight(slot)) {
      throw new HttpError(
        409,
        'idempotency_error',
        'idempotency_key_in_use',
        'A request with this Idempotency-Key is still being processed; retry after it finishes.',
        'Idempotency-Key',
      );
    }
    const first = this.idempotency.get(slot);
    if (!first) {
      this.idempotency.begin(slot);
    }
    try {
      const prepared = await route.prepare(ctx);
      const fingerprint = createHash('sha256').update(`${method}\0${pathname}\0${prepared.fingerprint}`).digest('hex');
      if (first) {
        prepared.discard();
        if (first.fingerprint !== fingerprint) {
          throw new HttpError(
            409,
            'idempotency_error',
            'idempotency_key_reused',
            'This Idempotency-Key was already used for a different request.',
            'Idempotency-Key',
          );
        }
        this.deliver(req, res, method, pathname, {
          ...first.reply,
          headers: { ...first.reply.headers, 'Idempotent-Replayed': 'true' },
        });
        return;
      }
      const reply = await commit(prepared);
      // Server faults are not remembered: a retry with the same key gets another chance.
      if (reply.status < 500) {
        this.idempotency.complete(slot, { method, path: pathname, fingerprint, reply, created_at: nowTimestamp() });
      }
      this.deliver(req, res, method, pathname, reply);
    } finally {
      if (!first) {
        this.idempotency.release(slot);
      }
    }
  }

  private async handleAdmin(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: URL,
    requestId: string,
  ): Promise<void> {
    this.authenticate(req, (key) => safeEqual(this.adminKey, key));
    if (await this.hostile.handleAdmin(req, res, method, url.pathname)) {
      return;
    }
    const { route, params } = match(adminRoutes, method, url.pathname);
    const ctx = this.context(req, res, url, params, requestId);
    const reply = route.method === 'POST' ? await commit(await route.prepare(ctx)) : await route.handle(ctx);
    if (reply) {
      this.sendReply(req, res, reply);
    }
  }

  /** The presented key, if it passes `accepts`; otherwise a 401 that never echoes the key. */
  private authenticate(req: IncomingMessage, accepts: (keyDigest: Buffer) => boolean): string {
    const header = req.headers.authorization;
    const challenge = { 'WWW-Authenticate': 'Bearer realm="agent-runtime"' };
    if (!header) {
      throw new HttpError(
        401,
        'authentication_error',
        'missing_api_key',
        'No API key: send Authorization: Bearer <API_KEY>.',
        undefined,
        challenge,
      );
    }
    const found = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!found) {
      throw new HttpError(
        401,
        'authentication_error',
        'invalid_authorization',
        'The Authorization header must be "Bearer <API_KEY>".',
        undefined,
        challenge,
      );
    }
    if (!accepts(digest(found[1]))) {
      throw new HttpError(
        401,
        'authentication_error',
        'invalid_api_key',
        'The API key is not valid.',
        undefined,
        challenge,
      );
    }
    return found[1];
  }

  private context(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    params: string[],
    requestId: string,
  ): RequestContext {
    return {
      req,
      res,
      url,
      params,
      requestId,
      core: this.core,
      faults: this.faults,
      keepAliveMs: this.config.keepAliveMs,
      maxUploadBytes: this.config.maxUploadBytes,
    };
  }

  private deliver(req: IncomingMessage, res: ServerResponse, method: string, pathname: string, reply: Reply): void {
    if (this.faults.takeCommitThenDrop(method, pathname)) {
      // Fault: the work is done and stored, but the client never hears about it.
      req.socket.destroy();
      return;
    }
    this.sendReply(req, res, reply);
  }

  private sendReply(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
    if (!req.complete) {
      this.closeWithoutReading(req, res);
    }
    // Hostile mode poisons a copy on the way out: stored replies (idempotency) stay clean.
    const shown = this.hostile.transformReply(req, reply);
    sendJson(res, shown.status, shown.body, shown.headers);
  }

  private sendError(req: IncomingMessage, res: ServerResponse, err: unknown): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof HttpError) {
      this.sendReply(req, res, { status: err.status, body: err.body(), headers: err.headers });
      return;
    }
    this.config.log(`internal error: ${(err as Error)?.stack ?? String(err)}`);
    this.sendReply(req, res, {
      status: 500,
      body: new HttpError(500, 'api_error', 'internal_error', 'The runtime hit an internal error.').body(),
    });
  }

  private sendInjectedFailure(req: IncomingMessage, res: ServerResponse, failure: InjectedFailure): void {
    if (failure.retryAfterSeconds !== undefined) {
      res.setHeader('Retry-After', String(failure.retryAfterSeconds));
    }
    if (!req.complete) {
      this.closeWithoutReading(req, res);
    }
    if (failure.html) {
      const title = `${failure.status} ${failure.status === 502 ? 'Bad Gateway' : 'Error'}`;
      const html = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
      res.writeHead(failure.status, { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(html) });
      res.end(html);
      return;
    }
    const rateLimited = failure.status === 429;
    const error = new HttpError(
      failure.status,
      rateLimited ? 'rate_limit_error' : 'api_error',
      rateLimited ? 'rate_limited' : 'service_unavailable',
      rateLimited ? 'Too many requests; retry later.' : 'The service is temporarily unavailable; retry later.',
    );
    sendJson(res, failure.status, error.body());
  }

  /**
   * Answers without reading the rest of the request body (a refused upload). Node would destroy
   * the socket right after the reply, and a close with unread bytes sends a RST that can wipe the
   * reply before the client reads it: half-close instead, and destroy once the client is gone.
   */
  private closeWithoutReading(req: IncomingMessage, res: ServerResponse): void {
    res.setHeader('Connection', 'close');
    req.pause();
    const socket = req.socket;
    socket.destroySoon = () => {
      socket.end();
      const timer = setTimeout(() => socket.destroy(), LINGER_MS);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
    };
  }
}

async function commit(prepared: PreparedWrite): Promise<Reply> {
  try {
    return await prepared.commit();
  } catch (err) {
    if (err instanceof HttpError) {
      return { status: err.status, body: err.body(), headers: err.headers };
    }
    throw err;
  }
}

function match(routes: Route[], method: string, pathname: string): { route: Route; params: string[] } {
  const allowed: string[] = [];
  for (const route of routes) {
    const found = route.pattern.exec(pathname);
    if (!found) {
      continue;
    }
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    let params: string[];
    try {
      params = found.slice(1).map((p) => decodeURIComponent(p));
    } catch {
      break;
    }
    return { route, params };
  }
  if (allowed.length > 0) {
    throw new HttpError(
      405,
      'invalid_request_error',
      'method_not_allowed',
      `${method} is not allowed here; use ${allowed.join(', ')}.`,
      undefined,
      { Allow: allowed.join(', ') },
    );
  }
  throw new HttpError(404, 'invalid_request_error', 'not_found', `No endpoint ${method} ${pathname}.`);
}

/** What a server without the feature answers (fault `missingEndpoints` / `noSteering`). */
function missingEndpoint(status: 404 | 405, method: string, pathname: string): HttpError {
  if (status === 405) {
    return new HttpError(
      405,
      'invalid_request_error',
      'method_not_allowed',
      `${method} is not allowed here; use GET.`,
      undefined,
      { Allow: 'GET' },
    );
  }
  return new HttpError(404, 'invalid_request_error', 'not_found', `No endpoint ${method} ${pathname}.`);
}

/** The request's Origin (or * without one) may read this response and the headers the client reads. */
function allowCrossOrigin(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  res.setHeader('access-control-allow-origin', typeof origin === 'string' && origin !== '' ? origin : '*');
  if (typeof origin === 'string' && origin !== '') {
    res.setHeader('vary', 'Origin');
  }
  res.setHeader('access-control-expose-headers', CORS.exposed);
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

function safeEqual(a: Buffer, b: Buffer): boolean {
  return timingSafeEqual(a, b);
}
