// The seam between the API layer and whatever carries its bytes. Everything above this file (the
// request path with its retries and idempotency keys, event subscriptions, uploads) is one code
// for every host; below it are two transports: undici on Node (network/undiciTransport.ts, with
// proxies and private CAs) and fetch in a browser or web worker (fetchTransport.ts, where the
// browser applies its own proxy and certificate settings). The composition picks one
// (ApiClientOptions.transport, else platformTransport.ts, whose .web.ts twin the web bundle
// takes); nothing here imports either.
import type { LookupFunction } from 'node:net';
import type { Logger } from '../common/logger';
import type { NetworkSettings } from './network/settings';

export type { NetworkSettings } from './network/settings';

export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** A response body: async iterable of bytes, destroyable. */
export interface ResponseBody extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): void;
}

export interface TransportResponse {
  status: number;
  /** Lower-case names. */
  headers: ResponseHeaders;
  body: ResponseBody;
}

export interface TransportRequest {
  origin: string;
  /** Path with its query string, e.g. /v1/files?limit=10. */
  path: string;
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH';
  headers: Record<string, string>;
  body?: string | Uint8Array | AsyncIterable<Uint8Array>;
  signal?: AbortSignal;
  headersTimeout?: number;
  /** 0 turns the idle timeout between body chunks off (event streams). */
  bodyTimeout?: number;
}

export interface TransportOptions {
  /** Connect, headers and body-idle timeout. */
  timeoutMs: number;
  /** An extra trusted CA, added to the others (Node only; a browser trusts what it trusts). */
  ca?: string | Buffer;
  /** Proxies and trusted CAs (VS Code's http.* settings); absent: direct. Node only. */
  network?: NetworkSettings;
  logger?: Logger;
  /** Name lookup for direct connections (tests point made-up names at loopback). Node only. */
  lookup?: LookupFunction;
}

/**
 * Carries one request and hands back its status, headers and streamed body. A failure that got
 * no answer throws an Error whose `code` is one errors.ts's errorFromTransport knows (undici's
 * codes; the fetch transport uses the same ones for the same failures).
 */
export interface HttpTransport {
  request(req: TransportRequest): Promise<TransportResponse>;
  /** Closes every connection at once; requests still running fail. */
  destroy(): Promise<void>;
  /**
   * Optional: does now the set-up the first request to `origin` would do (loading code, trusted
   * CAs), connecting nothing, so it can run while the caller waits for something else.
   */
  prepare?(origin: string): void;
}

/** The code of a fetch that got no answer and says nothing about why (a browser never does). */
export const FETCH_FAILED = 'agent_runtime_fetch_failed';

export type TransportFactory = (options: TransportOptions) => HttpTransport;
