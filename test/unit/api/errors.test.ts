// Errors: one ApiError per HTTP failure with its kind, status, code, type, param and request
// id; readable messages for non-JSON bodies; "not supported" for missing assumed endpoints;
// and describeError's one sentence.
import * as assert from 'node:assert/strict';
import { ApiError, errorFromResponse, isApiError } from '../../../src/api/errors';
import { describeError } from '../../../src/api/errorSentences';
import { json, rejectionOf, type RuntimeWithClient, startRecordingServer, startRuntimeWithClient } from './fixtures';
import { ApiClient } from './transportUnderTest';

describe('api/errors', () => {
  describe('from the runtime', () => {
    let ctx: RuntimeWithClient;
    before(async () => {
      ctx = await startRuntimeWithClient(
        { apiKeys: ['rw-key'], readOnlyKeys: ['ro-key'] },
        { maxRetries: 0, timeoutMs: 10_000 },
      );
    });
    after(async () => ctx.close());
    afterEach(() => ctx.runtime.clearFaults());

    it('a rejected key is authentication (401) with the request id', async () => {
      const client = ctx.clientWith({ getApiKey: async () => 'wrong-key' });
      const err = await rejectionOf(client.listTasks());
      assert.ok(err instanceof ApiError);
      assert.equal(err.kind, 'authentication');
      assert.equal(err.status, 401);
      assert.ok(err.requestId, 'x-request-id is kept');
      assert.match(describeError(err), /sign in again/);
      assert.match(describeError(err), new RegExp(`request id ${err.requestId}`));
    });

    it('a read-only key may read but a write is permission (403)', async () => {
      const client = ctx.clientWith({ getApiKey: async () => 'ro-key' });
      await client.listTasks();
      const err = await rejectionOf(client.createTask({ objective: 'x' }));
      assert.ok(isApiError(err, 'permission'));
      assert.equal(err.status, 403);
    });

    it('an unknown id is not_found (404) with the server code, type and param', async () => {
      const err = await rejectionOf(ctx.client.getFile('file_missing'));
      assert.ok(err instanceof ApiError);
      assert.equal(err.kind, 'not_found');
      assert.equal(err.status, 404);
      assert.equal(err.type, 'invalid_request_error');
      assert.equal(err.code, 'not_found');
      assert.equal(err.param, 'id');
      assert.match(err.message, /file_missing/);
      // On an assumed endpoint the API's own not_found still means "no such id", not "no endpoint".
      assert.ok(isApiError(await rejectionOf(ctx.client.getTask('task_missing')), 'not_found'));
      assert.ok(isApiError(await rejectionOf(ctx.client.getRun('run_missing')), 'not_found'));
    });

    it('the same idempotency key with another body is conflict (409)', async () => {
      await ctx.client.createTask({ objective: 'first' }, { idempotencyKey: 'conflict-key' });
      const replay = await ctx.client.createTask({ objective: 'first' }, { idempotencyKey: 'conflict-key' });
      assert.match(replay.id, /^task_/);
      const err = await rejectionOf(ctx.client.createTask({ objective: 'second' }, { idempotencyKey: 'conflict-key' }));
      assert.ok(isApiError(err, 'conflict'));
      assert.equal(err.status, 409);
    });

    it('a body over the server limit is too_large (413)', async () => {
      const err = await rejectionOf(ctx.client.createTask({ objective: 'x'.repeat(1024 * 1024 + 10) }));
      assert.ok(isApiError(err, 'too_large'), String(err));
      assert.equal(err.status, 413);
      assert.match(describeError(err), /413/);
    });

    it('an HTML 502 page becomes a readable message with its status', async () => {
      ctx.runtime.setFaults({ failNext: { count: 1, status: 502, html: true } });
      const err = await rejectionOf(ctx.client.listTasks());
      assert.ok(isApiError(err, 'server'));
      assert.equal(err.status, 502);
      assert.match(err.message, /502/);
      assert.ok(!/<[a-z]/i.test(err.message), err.message);
      assert.match(describeError(err), /^The service had a problem \(502: .*try again later/);
    });

    it('a 429 is rate_limit and carries the server wait', async () => {
      ctx.runtime.setFaults({ failNext: { count: 1, status: 429, retryAfterSeconds: 3 } });
      const err = await rejectionOf(ctx.client.listTasks());
      assert.ok(isApiError(err, 'rate_limit'));
      assert.equal(err.retryAfterMs, 3000);
      assert.match(describeError(err), /wait 3 s/);
    });
  });

  it('404 or 405 on an assumed endpoint is not_supported; on a spec endpoint it stays not_found', async () => {
    const server = await startRecordingServer((req, res) => {
      if (req.url.startsWith('/v1/runs?')) {
        res.writeHead(405, { 'content-type': 'text/plain' });
        res.end('Method Not Allowed');
        return;
      }
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>');
    });
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k' });
    try {
      for (const call of [
        client.listFiles(),
        client.listTasks(),
        client.getTask('task_1'),
        client.getRun('run_1'),
        client.listRuns({ task_id: 'task_1' }),
      ]) {
        const err = await rejectionOf(call);
        assert.ok(isApiError(err, 'not_supported'), String(err));
        assert.match(describeError(err), /not available with this server/);
      }
      assert.ok(isApiError(await rejectionOf(client.getFile('file_1')), 'not_found'));
      assert.ok(isApiError(await rejectionOf(client.listRunArtifacts('run_1')), 'not_found'));
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('an answer that is not JSON, or a list without a data array, is a protocol error', async () => {
    const server = await startRecordingServer((req, res) => {
      if (req.url.startsWith('/v1/tasks?')) {
        return json(res, 200, { object: 'list', items: [] });
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>hello</html>');
    });
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k' });
    try {
      assert.ok(isApiError(await rejectionOf(client.getFile('file_1')), 'protocol'));
      assert.ok(isApiError(await rejectionOf(client.listTasks({ limit: 5 })), 'protocol'));
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('reads the assumed error shape and tolerates others', () => {
    const shaped = errorFromResponse({
      status: 422,
      bodyText: JSON.stringify({
        error: { type: 'invalid_request_error', code: 'bad_purpose', message: 'purpose is wrong', param: 'purpose' },
      }),
      method: 'POST',
      path: '/v1/files',
    });
    assert.deepEqual(
      [shaped.kind, shaped.code, shaped.type, shaped.param, shaped.message],
      ['bad_request', 'bad_purpose', 'invalid_request_error', 'purpose', 'purpose is wrong'],
    );
    assert.equal(
      errorFromResponse({ status: 400, bodyText: '{"message":"flat"}', method: 'GET', path: '/v1/x' }).message,
      'flat',
    );
    assert.match(
      errorFromResponse({ status: 500, bodyText: '', method: 'GET', path: '/v1/x' }).message,
      /500 Internal Server Error/,
    );
    assert.equal(errorFromResponse({ status: 599, bodyText: 'odd', method: 'GET', path: '/v1/x' }).kind, 'server');
  });

  it('describeError gives one actionable sentence for every kind and for foreign errors', () => {
    const kinds = [
      'authentication',
      'permission',
      'not_found',
      'conflict',
      'too_large',
      'rate_limit',
      'bad_request',
      'server',
      'not_supported',
      'connection',
      'timeout',
      'aborted',
      'validation',
      'insecure',
      'protocol',
    ] as const;
    for (const kind of kinds) {
      const sentence = describeError(new ApiError({ kind, message: 'Something specific.' }));
      assert.match(sentence, /^[A-Z].*\.$/, kind);
      assert.ok(!/\.\s+[A-Z]/.test(sentence.slice(0, -1)), `one sentence: ${sentence}`);
    }
    assert.equal(describeError(Object.assign(new Error('x'), { name: 'AbortError' })), 'The operation was cancelled.');
    assert.equal(describeError(new Error('boom with Bearer abc.def')), 'Unexpected error: boom with Bearer ***.');
    assert.equal(describeError('plain'), 'Unexpected error: plain.');
  });
});
