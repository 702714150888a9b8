// Idempotency-Key on POST: replay of the first response, 409 for a different request or one in flight.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { type RuntimeHandle, startRuntime } from '../index';
import { call, errorOf, upload, uploadOk, waitFor } from './runtimeTestKit';

describe('runtime: idempotency', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime({ apiKeys: ['key-a', 'key-b'] });
  });
  afterEach(() => rt.close());

  const taskCount = async (): Promise<number> => ((await call(rt, 'GET', '/v1/tasks')).json.data as unknown[]).length;

  it('replays the stored first response for the same key and body, with Idempotent-Replayed', async () => {
    const request = { body: { objective: 'Once only' }, headers: { 'Idempotency-Key': 'key-1' } };
    const first = await call(rt, 'POST', '/v1/tasks', request);
    assert.strictEqual(first.status, 201);
    assert.strictEqual(first.headers.get('idempotent-replayed'), null);
    const second = await call(rt, 'POST', '/v1/tasks', request);
    assert.strictEqual(second.status, 201);
    assert.strictEqual(second.headers.get('idempotent-replayed'), 'true');
    assert.deepStrictEqual(second.json, first.json, 'the very first response, status included');
    assert.notStrictEqual(second.headers.get('x-request-id'), first.headers.get('x-request-id'));
    assert.strictEqual(await taskCount(), 1);
  });

  it('answers 409 for the same key with a different body', async () => {
    await call(rt, 'POST', '/v1/tasks', { body: { objective: 'A' }, headers: { 'Idempotency-Key': 'key-2' } });
    const res = await call(rt, 'POST', '/v1/tasks', {
      body: { objective: 'B' },
      headers: { 'Idempotency-Key': 'key-2' },
    });
    assert.strictEqual(res.status, 409);
    assert.strictEqual(errorOf(res).code, 'idempotency_key_reused');
    assert.strictEqual(errorOf(res).param, 'Idempotency-Key');
    assert.strictEqual(await taskCount(), 1);
  });

  it('answers 409 for the same key on another endpoint', async () => {
    await call(rt, 'POST', '/v1/tasks', { body: { objective: 'A' }, headers: { 'Idempotency-Key': 'key-3' } });
    const res = await upload(rt, 'a.txt', 'x', { headers: { 'Idempotency-Key': 'key-3' } });
    assert.strictEqual(res.status, 409);
  });

  it('scopes keys to the API key that sent them', async () => {
    const a = await call(rt, 'POST', '/v1/tasks', {
      key: 'key-a',
      body: { objective: 'A' },
      headers: { 'Idempotency-Key': 'shared' },
    });
    const b = await call(rt, 'POST', '/v1/tasks', {
      key: 'key-b',
      body: { objective: 'A' },
      headers: { 'Idempotency-Key': 'shared' },
    });
    assert.strictEqual(b.status, 201);
    assert.notStrictEqual(b.json.id, a.json.id);
    assert.strictEqual(b.headers.get('idempotent-replayed'), null);
  });

  it('replays the stored answer to an invalid request too', async () => {
    const request = { body: { objective: '' }, headers: { 'Idempotency-Key': 'key-4' } };
    const first = await call(rt, 'POST', '/v1/tasks', request);
    assert.strictEqual(first.status, 400);
    const second = await call(rt, 'POST', '/v1/tasks', request);
    assert.strictEqual(second.status, 400);
    assert.strictEqual(second.headers.get('idempotent-replayed'), 'true');
  });

  it('replays an upload sent again with a new multipart boundary, and keeps one file', async () => {
    const headers = { 'Idempotency-Key': 'upload-1' };
    const first = await upload(rt, 'notes.txt', 'same bytes', { headers });
    const second = await upload(rt, 'notes.txt', 'same bytes', { headers });
    assert.strictEqual(first.status, 201);
    assert.strictEqual(second.status, 201);
    assert.strictEqual(second.headers.get('idempotent-replayed'), 'true');
    assert.strictEqual(second.json.id, first.json.id);
    assert.strictEqual(((await call(rt, 'GET', '/v1/files')).json.data as unknown[]).length, 1);
  });

  it('answers 409 to an upload with the same key but other bytes, purpose or name', async () => {
    const headers = { 'Idempotency-Key': 'upload-2' };
    assert.strictEqual((await upload(rt, 'notes.txt', 'v1', { headers })).status, 201);
    assert.strictEqual((await upload(rt, 'notes.txt', 'v2', { headers })).status, 409);
    assert.strictEqual((await upload(rt, 'notes.txt', 'v1', { headers, purpose: 'dataset' })).status, 409);
    assert.strictEqual((await upload(rt, 'other.txt', 'v1', { headers })).status, 409);
  });

  it('answers 409 to a duplicate that arrives while the first is still in flight', async () => {
    const boundary = 'in-flight-boundary';
    const slow = http.request(`${rt.baseUrl}/v1/files`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${rt.apiKey}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Idempotency-Key': 'upload-3',
      },
    });
    const firstResponse = new Promise<{ status: number; body: string }>((resolve, reject) => {
      slow.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      slow.on('error', reject);
    });
    slow.write(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\ntask_input\r\n`);
    slow.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.txt"\r\n\r\nfirst half `);
    // The first request is now being read; wait until its partial blob exists on disk.
    await waitFor(() => fs.readdirSync(path.join(rt.dataDir, 'tmp')).length > 0, 'the first upload to start');

    const duplicate = await upload(rt, 'slow.txt', 'first half second half', {
      headers: { 'Idempotency-Key': 'upload-3' },
    });
    assert.strictEqual(duplicate.status, 409);
    assert.strictEqual(errorOf(duplicate).code, 'idempotency_key_in_use');

    slow.end(`second half\r\n--${boundary}--\r\n`);
    const first = await firstResponse;
    assert.strictEqual(first.status, 201);
    const retry = await upload(rt, 'slow.txt', 'first half second half', {
      headers: { 'Idempotency-Key': 'upload-3' },
      type: 'text/plain',
    });
    assert.strictEqual(retry.status, 201, retry.text);
    assert.strictEqual(retry.headers.get('idempotent-replayed'), 'true');
    assert.strictEqual(retry.json.id, JSON.parse(first.body).id);
  });

  it('lets requests without a key create a new resource each time', async () => {
    const one = await uploadOk(rt, 'a.txt', 'x');
    const two = await uploadOk(rt, 'a.txt', 'x');
    assert.notStrictEqual(one, two);
  });

  it('rejects an over-long Idempotency-Key with 400', async () => {
    const res = await call(rt, 'POST', '/v1/tasks', {
      body: { objective: 'A' },
      headers: { 'Idempotency-Key': 'k'.repeat(300) },
    });
    assert.strictEqual(res.status, 400);
    assert.strictEqual(errorOf(res).param, 'Idempotency-Key');
  });
});
