// Retries: what is retried (connection failures, timeouts, 408/409/429/5xx), how long we wait
// (Retry-After honoured), what is not (other 4xx), and cancellation during a wait.
import * as assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { ApiError, isApiError } from '../../../src/api/errors';
import {
  CapturingLogger,
  QUICK_BACKOFF,
  rejectionOf,
  type RuntimeWithClient,
  startRuntimeWithClient,
  waitFor,
} from './fixtures';
import { ApiClient } from './transportUnderTest';

describe('api/client retries', () => {
  let ctx: RuntimeWithClient;
  before(async () => {
    ctx = await startRuntimeWithClient();
  });
  after(async () => ctx.close());
  afterEach(() => ctx.runtime.clearFaults());

  for (const status of [429, 503]) {
    it(`a ${status} with Retry-After: 1 succeeds on the retry after about a second`, async () => {
      ctx.runtime.setFaults({ failNext: { count: 1, status, retryAfterSeconds: 1, pathPrefix: '/v1/tasks' } });
      const started = Date.now();
      const page = await ctx.client.listTasks();
      const waited = Date.now() - started;
      assert.ok(Array.isArray(page.data));
      assert.ok(waited >= 950, `waited ${waited} ms`);
    });
  }

  it('commit-then-drop on POST /v1/tasks leaves exactly one task after the retry', async () => {
    const client = ctx.clientWith({ backoff: QUICK_BACKOFF });
    const before = (await client.listTasks({ limit: 100 })).data.length;
    ctx.runtime.setFaults({ commitThenDrop: { count: 1, pathPrefix: '/v1/tasks' } });
    const task = await client.createTask({ objective: 'Exactly once' });
    const tasks = (await client.listTasks({ limit: 100 })).data;
    assert.equal(tasks.length, before + 1);
    assert.equal(tasks.filter((t) => t.objective === 'Exactly once').length, 1);
    assert.equal(tasks.find((t) => t.objective === 'Exactly once')?.id, task.id);
  });

  it('retries 408, 409, 500 and 502 and gives up after maxRetries with the last error', async () => {
    const logger = new CapturingLogger();
    const client = ctx.clientWith({ backoff: QUICK_BACKOFF, logger });
    for (const status of [408, 409, 500, 502]) {
      ctx.runtime.setFaults({ failNext: { count: 2, status, pathPrefix: '/v1/tasks' } });
      await client.listTasks();
    }
    ctx.runtime.setFaults({ failNext: { count: 3, status: 500, pathPrefix: '/v1/tasks' } });
    logger.lines.length = 0;
    const err = await rejectionOf(client.listTasks());
    assert.ok(isApiError(err, 'server'));
    assert.equal(err.status, 500);
    assert.deepEqual(
      logger.lines.map((l) => /attempt (\d\/\d)/.exec(l)?.[1]),
      ['1/3', '2/3', '3/3'],
    );
  });

  it('does not retry other 4xx', async () => {
    for (const status of [400, 401, 403, 404, 413, 422]) {
      ctx.runtime.setFaults({ failNext: { count: 1, status, pathPrefix: '/v1/tasks' } });
      const err = await rejectionOf(ctx.client.listTasks());
      assert.ok(err instanceof ApiError);
      assert.equal(err.status, status);
    }
  });

  it('maxRetries 0 makes one attempt only', async () => {
    const client = ctx.clientWith({ maxRetries: 0 });
    ctx.runtime.setFaults({ failNext: { count: 1, status: 503, pathPrefix: '/v1/tasks' } });
    assert.ok(isApiError(await rejectionOf(client.listTasks()), 'server'));
    await client.listTasks();
  });

  it('retries a refused connection and then reports it as a connection error', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const { port } = blocker.address() as AddressInfo;
    await new Promise<void>((r) => blocker.close(() => r()));
    const logger = new CapturingLogger();
    const client = new ApiClient({
      baseUrl: `http://127.0.0.1:${port}`,
      getApiKey: async () => 'k',
      logger,
      backoff: QUICK_BACKOFF,
    });
    try {
      const err = await rejectionOf(client.listTasks());
      assert.ok(isApiError(err, 'connection'));
      assert.match(err.message, /refused/);
      assert.equal(logger.lines.length, 3);
    } finally {
      await client.dispose();
    }
  });

  it('a server slower than timeoutMs is a timeout', async () => {
    const client = ctx.clientWith({ timeoutMs: 200, maxRetries: 0 });
    ctx.runtime.setFaults({ delayMs: 1500 });
    const err = await rejectionOf(client.listTasks());
    assert.ok(isApiError(err, 'timeout'), String(err));
  });

  it('an abort during the backoff wait rejects at once as aborted', async () => {
    const logger = new CapturingLogger();
    const client = ctx.clientWith({ logger });
    ctx.runtime.setFaults({ failNext: { count: 1, status: 503, retryAfterSeconds: 30, pathPrefix: '/v1/tasks' } });
    const controller = new AbortController();
    const pending = rejectionOf(client.listTasks({}, { signal: controller.signal }));
    await waitFor(() => logger.lines.some((l) => l.includes('retrying in 30000 ms')), 'the first attempt to fail');
    controller.abort();
    assert.ok(isApiError(await pending, 'aborted'));
  });

  it('an abort while the request is in flight rejects as aborted, and an aborted signal sends nothing', async () => {
    const logger = new CapturingLogger();
    const client = ctx.clientWith({ logger });
    ctx.runtime.setFaults({ delayMs: 5000 });
    const controller = new AbortController();
    const pending = rejectionOf(client.listTasks({}, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    assert.ok(isApiError(await pending, 'aborted'));
    const lines = logger.lines.length;
    assert.ok(isApiError(await rejectionOf(client.listTasks({}, { signal: controller.signal })), 'aborted'));
    assert.equal(logger.lines.length, lines, 'no attempt was made');
  });
});
