// CORS: the extension in VS Code for the Web calls the runtime from another origin, so every /v1
// path answers a preflight without authentication, and every answer (errors too) allows the
// caller's origin and exposes the headers the client reads.
import * as assert from 'node:assert';
import { type RuntimeHandle, startRuntime } from '../index';
import { call } from './runtimeTestKit';

const ORIGIN = 'http://127.0.0.1:8080';
const PATHS = ['/v1/files', '/v1/tasks', '/v1/tasks/task_x', '/v1/runs/run_x/events', '/v1/approvals/a_1/decision'];

describe('runtime: CORS', () => {
  let rt: RuntimeHandle;
  before(async () => {
    rt = await startRuntime();
  });
  after(() => rt.close());

  it('answers a preflight of every /v1 path, without an API key, with what the client sends', async () => {
    for (const path of PATHS) {
      const res = await call(rt, 'OPTIONS', path, {
        key: null,
        headers: {
          Origin: ORIGIN,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, content-type, idempotency-key',
        },
      });
      assert.strictEqual(res.status, 204, path);
      assert.strictEqual(res.headers.get('access-control-allow-origin'), ORIGIN, path);
      assert.strictEqual(res.headers.get('access-control-allow-methods'), 'GET, POST, PATCH, DELETE');
      assert.strictEqual(
        res.headers.get('access-control-allow-headers'),
        'authorization, content-type, idempotency-key, last-event-id, accept',
      );
      assert.strictEqual(res.headers.get('access-control-max-age'), '600');
    }
  });

  it('allows any origin (*) when the request names none', async () => {
    const res = await call(rt, 'OPTIONS', '/v1/tasks', { key: null });
    assert.strictEqual(res.status, 204);
    assert.strictEqual(res.headers.get('access-control-allow-origin'), '*');
  });

  it('lets the caller read x-request-id, idempotent-replayed and retry-after on answers and errors', async () => {
    const ok = await call(rt, 'GET', '/v1/tasks', { headers: { Origin: ORIGIN } });
    const refused = await call(rt, 'GET', '/v1/tasks', { key: null, headers: { Origin: ORIGIN } });
    const missing = await call(rt, 'GET', '/v1/no-such-endpoint', { headers: { Origin: ORIGIN } });
    for (const [res, status] of [
      [ok, 200],
      [refused, 401],
      [missing, 404],
    ] as const) {
      assert.strictEqual(res.status, status);
      assert.strictEqual(res.headers.get('access-control-allow-origin'), ORIGIN, String(status));
      assert.strictEqual(
        res.headers.get('access-control-expose-headers'),
        'x-request-id, idempotent-replayed, retry-after',
        String(status),
      );
    }
  });

  it('still answers OPTIONS outside /v1 as before (not an API path)', async () => {
    const res = await call(rt, 'OPTIONS', '/__admin/faults', { key: null });
    assert.notStrictEqual(res.status, 204);
  });
});
