// What only the fetch transport does (the suites of this folder run on it as well): headers a
// browser sets itself stay out, a streamed body is sent whole with its length, and a fetch that
// failed without saying why (a browser's TypeError) is a connection failure naming CORS.
import * as assert from 'node:assert/strict';
import { errorFromTransport } from '../../../src/api/errors';
import { describeError } from '../../../src/api/errorSentences';
import { RunEventSubscription } from '../../../src/api/events';
import { fetchTransport } from '../../../src/api/fetchTransport';
import { FETCH_FAILED } from '../../../src/api/transport';
import { startRuntime } from '../../runtime';
import { collect } from './eventsSupport';
import { startRecordingServer } from './fixtures';
import { ApiClient } from './transportUnderTest';

describe('api/fetchTransport', () => {
  it('sends a streamed body whole, without user-agent or content-length of ours', async () => {
    const server = await startRecordingServer((_req, res) => res.writeHead(204).end());
    const transport = fetchTransport({ timeoutMs: 10_000 });
    try {
      async function* parts(): AsyncIterable<Uint8Array> {
        yield new TextEncoder().encode('hello, ');
        yield new TextEncoder().encode('world');
      }
      const res = await transport.request({
        origin: server.baseUrl,
        path: '/v1/files',
        method: 'POST',
        headers: {
          'user-agent': 'agent-runtime-vscode/x',
          'content-length': '999',
          'cache-control': 'no-cache',
          'x-kept': 'yes',
        },
        body: parts(),
      });
      res.body.destroy();
      const [req] = server.requests;
      assert.equal(res.status, 204);
      assert.equal(req.body.toString('utf8'), 'hello, world');
      assert.equal(req.headers['content-length'], '12');
      assert.notEqual(req.headers['user-agent'], 'agent-runtime-vscode/x');
      assert.equal(req.headers['cache-control'], undefined, 'a header no CORS answer need allow');
      assert.equal(req.headers['x-kept'], 'yes');
    } finally {
      await transport.destroy();
      await server.close();
    }
  });

  it('makes a fetch that failed without a reason a retryable connection failure that names CORS', () => {
    const failed = Object.assign(new Error('Failed to fetch'), { code: FETCH_FAILED });
    const err = errorFromTransport(failed, { origin: 'https://agents.example', callerAborted: false });
    assert.equal(err.kind, 'connection');
    assert.match(err.message, /could not reach https:\/\/agents\.example.*CORS/);
    assert.match(describeError(err), /CORS/);
  });

  it('follows a run through dropped streams where a timer is a number, as in a web worker', async () => {
    const runtime = await startRuntime({ faults: { dropStreamAfterEvents: 2 } });
    const client = new ApiClient({
      baseUrl: runtime.baseUrl,
      getApiKey: async () => runtime.apiKey,
      timeoutMs: 10_000,
      transport: fetchTransport,
    });
    // A web worker's setTimeout gives a number: no unref(), no refresh(). The subscription's own
    // timers get one here (Node's fetch needs its Timeout objects); Node's clearTimeout takes the number.
    const realSetTimeout = globalThis.setTimeout;
    globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
      const timer = realSetTimeout(...args);
      return /[/\\]src[/\\]api[/\\]events\.js/.test(new Error().stack ?? '') ? Number(timer) : timer;
    }) as unknown as typeof setTimeout;
    try {
      const runId = await runtime.createSyntheticRun({ events: 7, terminal: 'completed' });
      const sub = new RunEventSubscription(client, runId, { backoff: { baseMs: 2, capMs: 20 } });
      const events = await collect(sub);
      assert.deepEqual(
        events.map((e) => e.data.sequence),
        [1, 2, 3, 4, 5, 6, 7, 8],
      );
    } finally {
      globalThis.setTimeout = realSetTimeout;
      await client.dispose();
      await runtime.close();
    }
  });
});
