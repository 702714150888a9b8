// What the API client tests share: a capturing logger, temp dirs, a started runtime with a
// client on it, and a small recording HTTP server for what the runtime cannot show (headers).
import { mkdtemp, rm } from 'node:fs/promises';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiClientOptions } from '../../../src/api/client';
import type { Logger } from '../../../src/common/logger';
import { type RuntimeHandle, type RuntimeOptions, startRuntime } from '../../runtime/index';
import { ApiClient } from './transportUnderTest';

export class CapturingLogger implements Logger {
  readonly lines: string[] = [];
  trace = (m: string): void => void this.lines.push(m);
  debug = (m: string): void => void this.lines.push(m);
  info = (m: string): void => void this.lines.push(m);
  warn = (m: string): void => void this.lines.push(m);
  error = (m: string): void => void this.lines.push(m);
}

export async function makeTempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'api-test-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Fast retries so that tests about retrying do not wait the production backoff. */
export const QUICK_BACKOFF = { baseMs: 5, capMs: 20 };

export interface RuntimeWithClient {
  runtime: RuntimeHandle;
  client: ApiClient;
  logger: CapturingLogger;
  /** Another client on the same runtime (other key, other options); disposed by close(). */
  clientWith(options: Partial<ApiClientOptions>): ApiClient;
  close(): Promise<void>;
}

export async function startRuntimeWithClient(
  runtimeOptions: RuntimeOptions = {},
  clientOptions: Partial<ApiClientOptions> = {},
): Promise<RuntimeWithClient> {
  const runtime = await startRuntime(runtimeOptions);
  const logger = new CapturingLogger();
  const clients: ApiClient[] = [];
  const clientWith = (options: Partial<ApiClientOptions>): ApiClient => {
    const made = new ApiClient({ baseUrl: runtime.baseUrl, getApiKey: async () => runtime.apiKey, logger, ...options });
    clients.push(made);
    return made;
  };
  const client = clientWith(clientOptions);
  return {
    runtime,
    client,
    logger,
    clientWith,
    close: async () => {
      await Promise.all(clients.map((c) => c.dispose()));
      await runtime.close();
    },
  };
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface RecordingServer {
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A loopback HTTP server that records every request (whole body) and answers with `reply`. */
export async function startRecordingServer(
  reply: (req: RecordedRequest, res: ServerResponse, index: number) => void,
): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      reply(recorded, res, requests.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Resolves once `check` is true, polling; for conditions with no event to wait on. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail, but it succeeded');
}
