// The request path: headers, idempotency keys, records with unknown fields kept, the event
// stream opener, a missing key, listener hygiene and dispose.
import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { ApiError, isApiError } from '../../../src/api/errors';
import {
  json,
  QUICK_BACKOFF,
  rejectionOf,
  type RuntimeWithClient,
  startRecordingServer,
  startRuntimeWithClient,
} from './fixtures';
import { ApiClient, TRANSPORT } from './transportUnderTest';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('api/client request path', () => {
  it('sends the bearer key, Accept, the user agent and JSON as application/json; charset=utf-8 under /v1', async () => {
    const server = await startRecordingServer((_req, res) =>
      json(res, 201, { id: 'task_1', object: 'task', status: 'queued' }),
    );
    const client = new ApiClient({
      baseUrl: `${server.baseUrl}/prefix//`,
      getApiKey: async () => 'key-123',
      userAgent: 'agent-runtime-vscode/1.2.3',
    });
    try {
      await client.createTask({ objective: 'Summarise' });
      const [req] = server.requests;
      assert.equal(req.method, 'POST');
      assert.equal(req.url, '/prefix/v1/tasks');
      assert.equal(req.headers.authorization, 'Bearer key-123');
      assert.equal(req.headers.accept, 'application/json');
      // A browser sends its own User-Agent; the fetch transport leaves ours out (fetchTransport.ts).
      if (TRANSPORT === 'undici') {
        assert.equal(req.headers['user-agent'], 'agent-runtime-vscode/1.2.3');
      }
      assert.equal(req.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(JSON.parse(req.body.toString('utf8')), { objective: 'Summarise' });
      assert.match(String(req.headers['idempotency-key']), UUID);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('sends one Idempotency-Key per logical POST, the same on every retry, and a fresh one for the next POST', async () => {
    const server = await startRecordingServer((_req, res, i) =>
      i < 2
        ? json(res, 503, { error: { type: 'server_error', code: 'busy', message: 'busy' } })
        : json(res, 201, { id: `task_${i}` }),
    );
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k', backoff: QUICK_BACKOFF });
    try {
      await client.createTask({ objective: 'a' });
      await client.createTask({ objective: 'b' });
      const keys = server.requests.map((r) => r.headers['idempotency-key']);
      assert.equal(keys.length, 4);
      assert.equal(keys[0], keys[1]);
      assert.equal(keys[1], keys[2]);
      assert.notEqual(keys[3], keys[0]);
      await client.createTask({ objective: 'c' }, { idempotencyKey: 'caller-chosen-key' });
      assert.equal(server.requests[4].headers['idempotency-key'], 'caller-chosen-key');
      await client.getFile('file_1').catch(() => undefined);
      assert.equal(server.requests[5].headers['idempotency-key'], undefined, 'GET carries no key');
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('with no API key fails as authentication without sending anything', async () => {
    const server = await startRecordingServer((_req, res) => json(res, 200, {}));
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => undefined });
    try {
      const err = await rejectionOf(client.getTask('task_1'));
      assert.ok(isApiError(err, 'authentication'));
      assert.equal(err.code, 'missing_api_key');
      assert.ok(isApiError(await rejectionOf(client.openEventStream('run_1', {})), 'authentication'));
      assert.equal(server.requests.length, 0);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('rejects (never throws) an empty id or objective as validation, before anything is sent', async () => {
    const server = await startRecordingServer((_req, res) => json(res, 200, {}));
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k' });
    try {
      assert.ok(isApiError(await rejectionOf(client.getFile('')), 'validation'));
      assert.ok(isApiError(await rejectionOf(client.createTask({ objective: '  ' })), 'validation'));
      assert.equal(server.requests.length, 0);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  describe('against the runtime', () => {
    let ctx: RuntimeWithClient;
    before(async () => {
      ctx = await startRuntimeWithClient();
    });
    after(async () => ctx.close());
    afterEach(() => ctx.runtime.clearFaults());

    it('creates a task with an attachment and reads it, its run and its artifacts back', async () => {
      const task = await ctx.client.createTask({ objective: 'Say hello' });
      assert.match(task.id, /^task_/);
      assert.equal(task.objective, 'Say hello');
      assert.deepEqual(await ctx.client.getTask(task.id).then((t) => t.id), task.id);
      assert.ok(typeof task.run_id === 'string');
      const run = await ctx.client.getRun(task.run_id);
      assert.equal(run.task_id, task.id);
      const runs = await ctx.client.listRuns({ task_id: task.id });
      assert.deepEqual(
        runs.data.map((r) => r.id),
        [task.run_id],
      );
      const artifacts = await ctx.client.listRunArtifacts(task.run_id);
      assert.ok(Array.isArray(artifacts.data));
    });

    it('keeps fields it does not know and status values it does not know', async () => {
      const runId = await ctx.runtime.createSyntheticRun({ events: 2, terminal: 'completed' });
      const run = await ctx.client.getRun(runId);
      assert.equal(run.status, 'completed');
      // created_at is typed, but every other field the server sends survives too.
      const keys = Object.keys(run);
      assert.ok(keys.includes('object') && keys.includes('created_at'));
    });

    it('opens an event stream with after, as text/event-stream, without retrying a failure', async () => {
      const runId = await ctx.runtime.createSyntheticRun({ events: 3, terminal: 'completed' });
      const stream = await ctx.client.openEventStream(runId, { after: 1 });
      assert.equal(stream.status, 200);
      assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
      let text = '';
      for await (const chunk of stream.body) {
        text += Buffer.from(chunk).toString('utf8');
      }
      assert.ok(!/"sequence":1[,}]/.test(text), 'resumes after sequence 1');
      assert.match(text, /"sequence":2/);
      assert.match(text, /event: run\.completed/);

      const missing = await rejectionOf(ctx.client.openEventStream('run_does_not_exist', {}));
      assert.ok(isApiError(missing, 'not_found'));

      ctx.runtime.setFaults({ failNext: { count: 1, status: 503, retryAfterSeconds: 7, pathPrefix: '/v1/runs/' } });
      const busy = await rejectionOf(ctx.client.openEventStream(runId, {}));
      assert.ok(busy instanceof ApiError);
      assert.equal(busy.kind, 'server');
      assert.equal(busy.retryAfterMs, 7000);
      // The one failure was used up by the one attempt: the next open succeeds.
      const again = await ctx.client.openEventStream(runId, {});
      again.body.destroy();
    });

    it('an event stream stops at once when its signal aborts', async () => {
      const runId = await ctx.runtime.createSyntheticRun({ events: 1, terminal: null, live: true });
      const controller = new AbortController();
      const stream = await ctx.client.openEventStream(runId, { signal: controller.signal });
      const reading = (async () => {
        for await (const chunk of stream.body) {
          void chunk;
        }
      })();
      controller.abort();
      await assert.rejects(reading);
    });

    it('leaves no abort listener behind on the caller signal, with or without retries', async () => {
      const controller = new AbortController();
      const client = ctx.clientWith({ backoff: QUICK_BACKOFF });
      ctx.runtime.setFaults({ failNext: { count: 2, status: 503 } });
      for (let i = 0; i < 5; i++) {
        await client.listTasks({ limit: 2 }, { signal: controller.signal });
      }
      await rejectionOf(client.getFile('file_nope', { signal: controller.signal }));
      assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
    });

    it('logs one line per attempt with method, path, status, duration, request id and attempt, and no query', async () => {
      const before = ctx.logger.lines.length;
      await ctx.client.listTasks({ limit: 3 });
      const lines = ctx.logger.lines.slice(before);
      assert.equal(lines.length, 1);
      assert.match(lines[0], /^GET \/v1\/tasks -> 200 \(\d+ ms, attempt 1\/3, request \S+\)$/);
      assert.ok(!lines[0].includes('limit'));
    });

    it('after dispose every call fails as aborted', async () => {
      const client = ctx.clientWith({});
      await client.dispose();
      assert.ok(isApiError(await rejectionOf(client.listTasks()), 'aborted'));
    });
  });
});
