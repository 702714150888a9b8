// Edges a hostile or odd server (or a bad id) can reach: a sequence at the top of the safe
// integers, an idempotency key reused with another body, an abort during a long Retry-After,
// ids that are not one path segment, a download without a length, Windows device names.
import * as assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isApiError } from '../../../src/api/errors';
import { RunEventSubscription } from '../../../src/api/events';
import { decodeRunEvent } from '../../../src/api/runEventDecoding';
import { safeFileName } from '../../../src/api/safeName';
import type { RunEvent } from '../../../src/api/types';
import {
  CapturingLogger,
  json,
  makeTempDir,
  QUICK_BACKOFF,
  rejectionOf,
  startRecordingServer,
  startRuntimeWithClient,
} from './fixtures';
import { ApiClient } from './transportUnderTest';

function sse(events: { event: string; data: Record<string, unknown> }[]): string {
  return events.map((e) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join('');
}

describe('api edges', () => {
  it('a sequence at or above MAX_SAFE_INTEGER is refused, skipped and counted, never taken as the last one', async () => {
    const top = Number.MAX_SAFE_INTEGER;
    assert.equal(decodeRunEvent('step.started', JSON.stringify({ sequence: top, step_id: 's', title: 't' })).ok, false);
    assert.equal(
      decodeRunEvent('step.started', JSON.stringify({ sequence: top - 1, step_id: 's', title: 't' })).ok,
      true,
    );
    const body = sse([
      { event: 'step.started', data: { sequence: 1, step_id: 's1', title: 'one' } },
      { event: 'step.started', data: { sequence: top, step_id: 'sx', title: 'huge' } },
      { event: 'step.started', data: { sequence: 2, step_id: 's2', title: 'two' } },
      { event: 'run.completed', data: { sequence: 3, status: 'completed' } },
    ]);
    const server = await startRecordingServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(body);
    });
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k-1234' });
    try {
      const sub = new RunEventSubscription(client, 'run_1', { idleTimeoutMs: 0 });
      const seen: number[] = [];
      for await (const event of sub as AsyncIterable<RunEvent>) {
        seen.push(event.data.sequence);
      }
      assert.deepEqual(seen, [1, 2, 3]);
      assert.equal(sub.skipped, 1);
      assert.equal(sub.lastSequence, 3);
      assert.throws(
        () => new RunEventSubscription(client, 'run_1', { after: top }),
        (e: unknown) => isApiError(e, 'validation'),
      );
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('409 idempotency_key_reused is a conflict at once; a 409 still in flight is retried', async () => {
    let code = 'idempotency_key_reused';
    const server = await startRecordingServer((_req, res) =>
      json(res, 409, { error: { type: 'idempotency_error', code, message: 'conflict', param: 'Idempotency-Key' } }),
    );
    const client = new ApiClient({
      baseUrl: server.baseUrl,
      getApiKey: async () => 'k-1234',
      backoff: QUICK_BACKOFF,
      maxRetries: 2,
    });
    try {
      const reused = await rejectionOf(client.createTask({ objective: 'second body' }, { idempotencyKey: 'key-1' }));
      assert.ok(isApiError(reused, 'conflict'), String(reused));
      assert.equal(reused.code, 'idempotency_key_reused');
      assert.equal(server.requests.length, 1);
      code = 'idempotency_key_in_use';
      const busy = await rejectionOf(client.createTask({ objective: 'x' }, { idempotencyKey: 'key-2' }));
      assert.ok(isApiError(busy, 'conflict'));
      assert.equal(server.requests.length, 4);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('a task creation waiting on an hour-long Retry-After settles as aborted when its signal aborts', async () => {
    const controller = new AbortController();
    const logger = new CapturingLogger();
    // The first failed attempt is logged just before the wait: abort right then.
    logger.warn = (m: string) => {
      logger.lines.push(m);
      if (/retrying in/.test(m)) {
        controller.abort();
      }
    };
    const ctx = await startRuntimeWithClient(
      { faults: { failNext: { count: 1, status: 503, retryAfterSeconds: 3600, pathPrefix: '/v1/tasks' } } },
      { logger },
    );
    try {
      const err = await rejectionOf(ctx.client.createTask({ objective: 'wait' }, { signal: controller.signal }));
      assert.ok(isApiError(err, 'aborted'), String(err));
      assert.ok(logger.lines.some((l) => /retrying in/.test(l)));
    } finally {
      await ctx.close();
    }
  });

  it('an id that is not one safe path segment is refused as validation before anything is sent', async () => {
    const server = await startRecordingServer((_req, res) => json(res, 200, { id: 'x' }));
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k-1234' });
    const temp = await makeTempDir();
    try {
      const bad = ['', '.', '..', 'a/b', 'a\\b', 'a?b', 'a#b', 'a%2e', '%2e%2e', 'a\nb', 'a\u0000b', ' ', 'a b\u202e'];
      const calls: [string, (id: string) => Promise<unknown>][] = [
        ['getFile', (id) => client.getFile(id)],
        ['deleteFile', (id) => client.deleteFile(id)],
        ['downloadFile', (id) => client.downloadFile(id, join(temp.dir, 'out.bin'))],
        ['readFileContent', (id) => client.readFileContent(id)],
        ['getTask', (id) => client.getTask(id)],
        ['getRun', (id) => client.getRun(id)],
        ['listRunArtifacts', (id) => client.listRunArtifacts(id)],
        ['openEventStream', (id) => client.openEventStream(id, {})],
      ];
      for (const [name, call] of calls) {
        for (const id of bad) {
          const err = await rejectionOf(call(id));
          assert.ok(isApiError(err, 'validation'), `${name}(${JSON.stringify(id)}): ${String(err)}`);
        }
      }
      assert.equal(server.requests.length, 0, server.requests.map((r) => r.url).join(' '));
      await client.getFile('file_ok-1.2_x');
      assert.equal(server.requests.length, 1);
    } finally {
      await client.dispose();
      await server.close();
      await temp.remove();
    }
  });

  it('a download past maxBytes fails as too_large, with or without Content-Length, and leaves no file', async () => {
    const chunk = Buffer.alloc(64 * 1024, 7);
    const server = await startRecordingServer((req, res) => {
      if (req.url.includes('with_length')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(chunk.length * 48) });
      } else {
        res.writeHead(200, { 'content-type': 'application/octet-stream' }); // chunked, no length
      }
      let sent = 0;
      const more = (): void => {
        while (sent < 48) {
          sent++;
          if (!res.write(chunk)) {
            return void res.once('drain', more);
          }
        }
        res.end();
      };
      res.on('error', () => undefined);
      more();
    });
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k-1234', maxRetries: 0 });
    const temp = await makeTempDir();
    try {
      for (const id of ['file_no_length', 'file_with_length']) {
        const target = join(temp.dir, `${id}.bin`);
        const err = await rejectionOf(client.downloadFile(id, target, { maxBytes: 1024 * 1024 }));
        assert.ok(isApiError(err, 'too_large'), `${id}: ${String(err)}`);
        assert.deepEqual(await readdir(temp.dir), [], id);
      }
      const small = await client.downloadFile('file_no_length', join(temp.dir, 'ok.bin'), {
        maxBytes: 4 * 1024 * 1024,
      });
      assert.equal(small.bytes, chunk.length * 48);
    } finally {
      await client.dispose();
      await server.close();
      await temp.remove();
    }
  });

  it('Windows device names with trailing spaces or dots before the extension are prefixed', () => {
    for (const name of ['CON .txt', 'COM1 .txt', 'nul.', 'lpt1  .log', 'Aux . .md', 'prn..txt']) {
      const safe = safeFileName(name);
      assert.ok(safe.startsWith('_'), `${name} -> ${safe}`);
    }
    assert.equal(safeFileName('console .txt'), 'console .txt');
  });
});
