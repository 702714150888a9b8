// Shared pieces of the run event tests: a real ApiClient, a logger that records, a raw SSE
// server for byte-exact control, and waiting on conditions instead of fixed sleeps.
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ConnectionState, RunEventSubscription } from '../../../src/api/events';
import type { RunEvent } from '../../../src/api/types';
import type { Logger } from '../../../src/common/logger';
import { ApiClient } from './transportUnderTest';

const openClients = new Set<ApiClient>();

/** A real ApiClient; disposeClients() (in afterEach) closes every one made. */
export function clientFor(baseUrl: string, apiKey = 'test-key'): ApiClient {
  const client = new ApiClient({ baseUrl, getApiKey: async () => apiKey, timeoutMs: 10_000 });
  openClients.add(client);
  return client;
}

export async function disposeClients(): Promise<void> {
  const clients = [...openClients];
  openClients.clear();
  await Promise.all(clients.map((c) => c.dispose()));
}

export interface RecordingLogger extends Logger {
  readonly lines: { level: string; message: string }[];
}

export function recordingLogger(): RecordingLogger {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  return { lines, trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Every state a subscription reports, in order. */
export function stateRecorder(): { states: ConnectionState[]; onState: (s: ConnectionState) => void } {
  const states: ConnectionState[] = [];
  return { states, onState: (s) => void states.push(s) };
}

/** The two ways to take a subscription's events: one per step, or every event read so far per step. */
export type DeliveryPath = 'events' | 'batches';
export const DELIVERY_PATHS: readonly DeliveryPath[] = ['events', 'batches'];

export async function collect(
  sub: RunEventSubscription,
  onEvent?: (e: RunEvent) => void | Promise<void>,
  path: DeliveryPath = 'events',
): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  if (path === 'batches') {
    for await (const batch of sub.batches()) {
      // An empty batch would be a wake-up with nothing in it: the consumer pays a step for nothing.
      if (batch.length === 0) {
        throw new Error('an empty batch');
      }
      for (const event of batch) {
        events.push(event);
        await onEvent?.(event);
      }
    }
    return events;
  }
  for await (const event of sub) {
    events.push(event);
    await onEvent?.(event);
  }
  return events;
}

/** Every batch a subscription delivers, as it delivered them. */
export async function collectBatches(sub: RunEventSubscription): Promise<(readonly RunEvent[])[]> {
  const batches: (readonly RunEvent[])[] = [];
  for await (const batch of sub.batches()) {
    batches.push(batch);
  }
  return batches;
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface RawServer {
  baseUrl: string;
  /** Requests seen, in order (URL and headers). */
  readonly requests: { url: string; headers: http.IncomingHttpHeaders }[];
  readonly sockets: Set<Socket>;
  close(): Promise<void>;
}

/** A bare HTTP server: `handler` writes the SSE bytes itself; the response head is sent first. */
export async function startRawServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, index: number) => void | Promise<void>,
): Promise<RawServer> {
  const requests: RawServer['requests'] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    req.socket.setNoDelay(true);
    void Promise.resolve(handler(req, res, requests.length - 1)).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

/**
 * The raw servers of a suite (call inside `describe`): the returned function is startRawServer,
 * and after each test every client is disposed and every server it started is closed.
 */
export function rawServersPerTest(): typeof startRawServer {
  const started: RawServer[] = [];
  afterEach(async () => {
    await disposeClients();
    await Promise.all(started.splice(0).map((server) => server.close()));
  });
  return async (handler) => {
    const server = await startRawServer(handler);
    started.push(server);
    return server;
  };
}

export function sseHead(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  res.flushHeaders();
}

/** One SSE message as the runtime writes it. */
export function sseMessage(event: string, data: Record<string, unknown>, eol = '\n'): string {
  return `id: ${String(data.sequence)}${eol}event: ${event}${eol}data: ${JSON.stringify(data)}${eol}${eol}`;
}

/** The `after` query parameter of a request URL, or undefined. */
export function afterOf(url: string): string | undefined {
  return new URL(url, 'http://x').searchParams.get('after') ?? undefined;
}
