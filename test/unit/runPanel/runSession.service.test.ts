// A run panel stays with the service it opened with: when the base URL changes
// under it, the client the extension hands out talks to another service, and that service's
// events must not reach this run's model, log on disk or store. The panel stops with a message;
// Retry once the base URL is back resumes where its log ends.
import * as assert from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient } from '../../../src/api/client';
import { isApiError } from '../../../src/api/errors';
import { describeError } from '../../../src/api/errorSentences';
import { RunEventSubscription } from '../../../src/api/events';
import { silentLogger } from '../../../src/common/logger';
import { logFilePath } from '../../../src/runLog/logFolder';
import { DEFAULT_UI_STRINGS, type HostMessage } from '../../../src/runPanel/protocol';
import { RunSession } from '../../../src/runPanel/runSession';
import { type RuntimeHandle, startRuntime } from '../../runtime';
import { tempFolder } from '../runLog/synthetic';
import { until } from './fakes';

const FROM_B = 'an event of service B';

/** Service B: answers any run's events with three events of its own, and the run as running. */
async function startServiceB(): Promise<{ url: string; eventRequests: () => number; close(): Promise<void> }> {
  let eventRequests = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const events = /^\/v1\/runs\/([^/]+)\/events$/.exec(url.pathname);
    if (events) {
      eventRequests++;
      const after = Number(url.searchParams.get('after') ?? '0');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (let s = after + 1; s <= after + 3; s++) {
        res.write(
          `id: ${s}\nevent: step.started\ndata: ${JSON.stringify({ sequence: s, step_id: 'step_b', title: FROM_B })}\n\n`,
        );
      }
      res.end();
      return;
    }
    const run = /^\/v1\/runs\/([^/]+)$/.exec(url.pathname);
    res.writeHead(run ? 200 : 404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        run
          ? { id: run[1], object: 'run', status: 'running' }
          : { error: { type: 'not_found_error', code: 'not_found', message: 'no' } },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    eventRequests: () => eventRequests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('RunSession bound to the service it opened with', function () {
  this.timeout(60_000);
  let runtime: RuntimeHandle;
  let serviceB: Awaited<ReturnType<typeof startServiceB>>;
  let folder: ReturnType<typeof tempFolder>;
  const clients: ApiClient[] = [];
  let session: RunSession | undefined;

  beforeEach(async () => {
    // Service A: a live run, paced, whose stream drops every few events so the panel reconnects.
    runtime = await startRuntime({ eventDelayMs: 10, faults: { dropStreamAfterEvents: 4 } });
    serviceB = await startServiceB();
    folder = tempFolder();
  });

  afterEach(async () => {
    session?.dispose();
    for (const c of clients.splice(0)) {
      await c.dispose();
    }
    await serviceB.close();
    await runtime.close();
    folder.remove();
  });

  it("stops when the base URL changes instead of writing the other service's events into this run's log, and resumes after a switch back", async () => {
    const runId = await runtime.createSyntheticRun({ events: 100_000, live: true, terminal: 'completed' });
    const clientA = new ApiClient({ baseUrl: runtime.baseUrl, getApiKey: async () => runtime.apiKey });
    const clientB = new ApiClient({ baseUrl: serviceB.url, getApiKey: async () => 'key-of-b' });
    clients.push(clientA, clientB);
    // What the extension hands out: the client of the base URL set now.
    let current = clientA;
    const posted: HostMessage[] = [];
    session = new RunSession({
      runId,
      client: () => current,
      // As the panel does: the client is looked up per connection.
      subscribe: (after, onState, signal) =>
        new RunEventSubscription(
          { openEventStream: (id, o) => current.openEventStream(id, o), getRun: (id, o) => current.getRun(id, o) },
          runId,
          {
            after,
            signal,
            onState,
            logger: silentLogger,
            backoff: { baseMs: 5, capMs: 20 },
          },
        ),
      post: (m) => posted.push(m),
      strings: DEFAULT_UI_STRINGS,
      describeError,
      isSignInError: (err) => isApiError(err, 'authentication'),
      log: silentLogger,
      channel: { intervalMs: 5 },
      logFolder: folder.dir,
      service: clientA.baseUrl,
      currentService: () => current.baseUrl,
    });
    session.start();
    session.webviewReady();
    await session.logReady;
    await until(() => session!.lastSequence >= 6, 'events of service A, across a reconnect', 10);

    // The base URL changes: the next reconnect reaches service B.
    current = clientB;
    const stopped = () => posted.some((m) => m.type === 'connection' && m.connection.state === 'failed');
    const fromB = () => posted.some((m) => m.type === 'events' && m.events.some((e) => e.data.title === FROM_B));
    await until(() => stopped() || fromB(), "the panel stops, or takes service B's events", 10);
    const file = logFilePath(folder.dir, runId, clientA.baseUrl) as string;
    const kept = async () => {
      await session!.logReady;
      const text = await fsp.readFile(file, 'utf8');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { data: { sequence: number; title?: string } });
    };
    // Let anything service B sent settle into the log before reading it.
    await until(() => session!.logComplete, 'the log holds what the model has', 10);
    assert.ok(!(await kept()).some((e) => e.data.title === FROM_B), "service B's events are not in service A's log");
    assert.ok(!fromB(), 'nor in the panel');
    const failed = [...posted].reverse().find((m) => m.type === 'connection');
    assert.ok(failed?.type === 'connection' && failed.connection.state === 'failed', 'the stream stopped');
    assert.ok(
      failed.connection.message.includes(clientB.baseUrl) && failed.connection.message.includes(runId),
      failed.connection.message,
    );
    assert.strictEqual(failed.connection.signInNeeded, false, 'Retry is offered');

    // Back on service A, Retry resumes where the log ends: its events, in order, no gap.
    current = clientA;
    const before = session.lastSequence;
    session.retry();
    await until(() => session!.lastSequence >= before + 4, "service A's events again", 10);
    await until(() => session!.logComplete, 'the log caught up', 10);
    const sequences = (await kept()).map((e) => e.data.sequence);
    assert.deepStrictEqual(
      sequences,
      sequences.map((_, i) => i + 1),
      "one run's events, 1..n",
    );
  });
});
