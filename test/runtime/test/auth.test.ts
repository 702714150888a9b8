// Bearer auth on every endpoint, read-only keys, the admin key, and the error body + request id.
import * as assert from 'node:assert';
import { type RuntimeHandle, startRuntime } from '../index';
import { call, createTask, errorOf, upload, uploadOk } from './runtimeTestKit';

const ENDPOINTS: [string, string][] = [
  ['POST', '/v1/files'],
  ['GET', '/v1/files'],
  ['GET', '/v1/files/file_x'],
  ['DELETE', '/v1/files/file_x'],
  ['GET', '/v1/files/file_x/content'],
  ['POST', '/v1/tasks'],
  ['GET', '/v1/tasks'],
  ['GET', '/v1/tasks/task_x'],
  ['GET', '/v1/runs'],
  ['GET', '/v1/runs?task_id=task_x'],
  ['GET', '/v1/runs/run_x'],
  ['GET', '/v1/runs/run_x/artifacts'],
  ['GET', '/v1/runs/run_x/events'],
  ['POST', '/v1/runs/run_x/cancel'],
  ['GET', '/v1/no-such-endpoint'],
];

describe('runtime: authentication', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime({
      apiKeys: ['secret-key-1', 'secret-key-2'],
      readOnlyKeys: ['reader-key'],
      adminKey: 'the-admin',
    });
  });
  afterEach(() => rt.close());

  it('answers 401 with the error body and a request id on every endpoint when the key is missing', async () => {
    for (const [method, path] of ENDPOINTS) {
      const res = await call(rt, method, path, { key: null, body: method === 'POST' ? {} : undefined });
      assert.strictEqual(res.status, 401, `${method} ${path}`);
      assert.strictEqual(errorOf(res).type, 'authentication_error', `${method} ${path}`);
      assert.strictEqual(errorOf(res).code, 'missing_api_key');
      assert.ok(errorOf(res).message, 'a message');
      assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
    }
  });

  it('answers 401 invalid_api_key on every endpoint for a wrong key, without echoing the key', async () => {
    for (const [method, path] of ENDPOINTS) {
      const res = await call(rt, method, path, { key: 'wrong-key-value', body: method === 'POST' ? {} : undefined });
      assert.strictEqual(res.status, 401, `${method} ${path}`);
      assert.strictEqual(errorOf(res).code, 'invalid_api_key');
      assert.ok(!res.text.includes('wrong-key-value'));
    }
  });

  it('rejects a malformed Authorization header', async () => {
    const res = await call(rt, 'GET', '/v1/files', { key: null, headers: { Authorization: 'Basic abc' } });
    assert.strictEqual(res.status, 401);
    assert.strictEqual(errorOf(res).code, 'invalid_authorization');
  });

  it('accepts every configured key', async () => {
    assert.strictEqual((await call(rt, 'GET', '/v1/files', { key: 'secret-key-1' })).status, 200);
    assert.strictEqual((await call(rt, 'GET', '/v1/files', { key: 'secret-key-2' })).status, 200);
  });

  it('lets a read-only key GET but answers 403 to its POST and DELETE', async () => {
    const fileId = await uploadOk(rt, 'a.txt', 'hello');
    assert.strictEqual((await call(rt, 'GET', `/v1/files/${fileId}`, { key: 'reader-key' })).status, 200);
    const del = await call(rt, 'DELETE', `/v1/files/${fileId}`, { key: 'reader-key' });
    assert.strictEqual(del.status, 403);
    assert.strictEqual(errorOf(del).type, 'permission_error');
    const post = await call(rt, 'POST', '/v1/tasks', { key: 'reader-key', body: { objective: 'x' } });
    assert.strictEqual(post.status, 403);
    assert.strictEqual((await call(rt, 'GET', `/v1/files/${fileId}`)).status, 200, 'the file is still there');
  });

  it('puts an x-request-id on successful, error and streaming responses', async () => {
    const fileId = await uploadOk(rt, 'a.txt', 'hello');
    const task = await createTask(rt, 'Look', [fileId]);
    const ids = new Set<string>();
    for (const path of [
      '/v1/files',
      `/v1/files/${fileId}/content`,
      '/v1/files/file_nope',
      `/v1/runs/${task.run_id}/events`,
    ]) {
      const res = await call(rt, 'GET', path);
      const id = res.headers.get('x-request-id');
      assert.match(id ?? '', /^req_[0-9a-f]{32}$/, path);
      ids.add(id as string);
    }
    const up = await upload(rt, 'b.txt', 'x');
    assert.match(up.headers.get('x-request-id') ?? '', /^req_/);
    assert.strictEqual(ids.size, 4, 'a fresh id per request');
  });

  it('guards the admin endpoints with the admin key, not an API key', async () => {
    const paths: [string, string][] = [
      ['GET', '/__admin/faults'],
      ['POST', '/__admin/faults'],
      ['POST', '/__admin/runs'],
      ['GET', '/__admin/runs/run_x/log'],
    ];
    for (const [method, path] of paths) {
      const res = await call(rt, method, path, { key: 'secret-key-1', body: method === 'POST' ? {} : undefined });
      assert.strictEqual(res.status, 401, `${method} ${path}`);
      assert.strictEqual(errorOf(res).type, 'authentication_error');
    }
    assert.strictEqual((await call(rt, 'GET', '/__admin/faults', { key: 'the-admin' })).status, 200);
    assert.strictEqual(
      (await call(rt, 'GET', '/v1/files', { key: 'the-admin' })).status,
      401,
      'the admin key is no API key',
    );
  });

  it('answers 404 for unknown endpoints and 405 with Allow for a wrong method', async () => {
    const missing = await call(rt, 'GET', '/v1/nothing');
    assert.strictEqual(missing.status, 404);
    assert.strictEqual(errorOf(missing).code, 'not_found');
    const wrong = await call(rt, 'PUT', '/v1/files');
    assert.strictEqual(wrong.status, 405);
    assert.match(wrong.headers.get('allow') ?? '', /GET/);
  });
});
