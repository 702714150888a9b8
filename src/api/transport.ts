// The narrow slice of undici the API layer uses, one Agent and the request call, loaded by deep
// path so that the extension bundle leaves out the rest of undici (fetch, mocks, caches, proxies).
import type { Dispatcher } from 'undici';
import { rootCertificates } from 'node:tls';
import AgentImpl from 'undici/lib/dispatcher/agent';
import requestImpl from 'undici/lib/api/api-request';

export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** A response body: async iterable of bytes, destroyable. */
export interface ResponseBody extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): void;
}

export interface TransportResponse {
  status: number;
  headers: ResponseHeaders;
  body: ResponseBody;
}

export interface TransportRequest {
  origin: string;
  /** Path with its query string, e.g. /v1/files?limit=10. */
  path: string;
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string | Uint8Array | AsyncIterable<Uint8Array>;
  signal?: AbortSignal;
  headersTimeout?: number;
  /** 0 turns the idle timeout between body chunks off (event streams). */
  bodyTimeout?: number;
}

export interface TransportOptions {
  timeoutMs: number;
  ca?: string | Buffer;
}

/** One connection pool per client: TLS 1.3 only, a connect timeout, an optional extra CA. */
export class Transport {
  private readonly agent: Dispatcher;

  constructor(options: TransportOptions) {
    this.agent = new AgentImpl({
      connect: {
        minVersion: 'TLSv1.3',
        timeout: options.timeoutMs,
        // `ca` replaces Node's bundled roots, so an extra CA is added to them, not swapped in.
        ...(options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca.toString()] }),
      },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  async request(req: TransportRequest): Promise<TransportResponse> {
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
    const res = await requestImpl.call(this.agent, options);
    // destroy() without an error makes undici emit one; with nobody listening that would be an
    // uncaught exception. Readers (for await) still see every error.
    res.body.on('error', () => undefined);
    return { status: res.statusCode, headers: res.headers, body: res.body };
  }

  /** Closes every connection at once; requests still running fail. */
  async destroy(): Promise<void> {
    await this.agent.destroy();
  }
}
