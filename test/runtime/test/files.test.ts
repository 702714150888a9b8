// /v1/files: streamed upload with validation, metadata, download headers, list, delete, encryption at rest.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { type RuntimeHandle, startRuntime } from '../index';
import { call, errorOf, upload, uploadOk } from './runtimeTestKit';

describe('runtime: files', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime();
  });
  afterEach(() => rt.close());

  it('stores an upload and returns the file record', async () => {
    const res = await upload(rt, 'notes.md', '# Hi\nthere\n', { purpose: 'reference' });
    assert.strictEqual(res.status, 201);
    const file = res.json;
    assert.match(file.id as string, /^file_[0-9a-f]{32}$/);
    assert.strictEqual(file.object, 'file');
    assert.strictEqual(file.purpose, 'reference');
    assert.strictEqual(file.filename, 'notes.md');
    assert.strictEqual(file.bytes, 11);
    assert.strictEqual(
      file.content_type,
      'text/markdown',
      'guessed from the extension when the part says octet-stream',
    );
    assert.match(file.created_at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const got = await call(rt, 'GET', `/v1/files/${file.id}`);
    assert.deepStrictEqual(got.json, file);
  });

  it('keeps the content type the part declares', async () => {
    const res = await upload(rt, 'data.bin', 'abc', { type: 'application/x-custom' });
    assert.strictEqual(res.json.content_type, 'application/x-custom');
  });

  it('serves the content with Content-Type, Content-Length and Content-Disposition', async () => {
    const content = 'naïve café, ünïcode ✓\n';
    const id = await uploadOk(rt, 'résumé notes.txt', content);
    const res = await fetch(`${rt.baseUrl}/v1/files/${id}/content`, {
      headers: { Authorization: `Bearer ${rt.apiKey}` },
    });
    assert.strictEqual(res.status, 200);
    assert.strictEqual(res.headers.get('content-type'), 'text/plain');
    assert.strictEqual(res.headers.get('content-length'), String(Buffer.byteLength(content)));
    const disposition = res.headers.get('content-disposition') ?? '';
    assert.match(
      disposition,
      /^attachment; filename="r_sum_ notes.txt"; filename\*=UTF-8''r%C3%A9sum%C3%A9%20notes.txt$/,
    );
    assert.strictEqual(await res.text(), content);
  });

  it('round-trips binary content of several megabytes byte for byte', async () => {
    const content = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < content.length; i++) {
      content[i] = (i * 31 + (i >> 8)) & 0xff;
    }
    const id = await uploadOk(rt, 'blob.bin', content);
    const res = await fetch(`${rt.baseUrl}/v1/files/${id}/content`, {
      headers: { Authorization: `Bearer ${rt.apiKey}` },
    });
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(content));
  });

  it('rejects a missing or unknown purpose with 400 naming purpose', async () => {
    const missing = await upload(rt, 'a.txt', 'x', { purpose: null });
    assert.strictEqual(missing.status, 400);
    assert.strictEqual(errorOf(missing).param, 'purpose');
    const wrong = await upload(rt, 'a.txt', 'x', { purpose: 'fine-tune' });
    assert.strictEqual(wrong.status, 400);
    assert.strictEqual(errorOf(wrong).param, 'purpose');
    assert.strictEqual(errorOf(wrong).type, 'invalid_request_error');
    assert.deepStrictEqual(fs.readdirSync(path.join(rt.dataDir, 'blobs')), [], 'nothing kept');
  });

  it('refuses a bad purpose sent before the file part without reading the file', async () => {
    const boundary = 'early-purpose';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nwrong\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n`;
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${rt.baseUrl}/v1/files`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${rt.apiKey}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      });
      req.on('response', (r) => {
        let body = '';
        r.setEncoding('utf8');
        r.on('data', (d: string) => (body += d));
        r.on('end', () => {
          resolve({ status: r.statusCode ?? 0, body });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write(head); // the file part never ends: only an early answer can arrive
    });
    assert.strictEqual(res.status, 400);
    assert.strictEqual(JSON.parse(res.body).error.param, 'purpose');
  });

  it('rejects a body without a file part with 400 naming file', async () => {
    const form = new FormData();
    form.append('purpose', 'task_input');
    const res = await fetch(`${rt.baseUrl}/v1/files`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${rt.apiKey}` },
      body: form,
    });
    assert.strictEqual(res.status, 400);
    const body = (await res.json()) as { error: { param: string; code: string } };
    assert.strictEqual(body.error.param, 'file');
    assert.strictEqual(body.error.code, 'missing_parameter');
  });

  it('rejects a body that is not multipart with 400', async () => {
    const res = await call(rt, 'POST', '/v1/files', { body: { purpose: 'task_input' } });
    assert.strictEqual(res.status, 400);
    assert.strictEqual(errorOf(res).param, 'file');
  });

  it('answers 404 naming id for unknown files', async () => {
    for (const [method, suffix] of [
      ['GET', ''],
      ['GET', '/content'],
      ['DELETE', ''],
    ]) {
      const res = await call(rt, method, `/v1/files/file_unknown${suffix}`);
      assert.strictEqual(res.status, 404);
      assert.strictEqual(errorOf(res).code, 'not_found');
      assert.strictEqual(errorOf(res).param, 'id');
    }
  });

  it('deletes a file: record gone, content gone, blob removed', async () => {
    const id = await uploadOk(rt, 'a.txt', 'bye');
    const del = await call(rt, 'DELETE', `/v1/files/${id}`);
    assert.strictEqual(del.status, 200);
    assert.deepStrictEqual(del.json, { id, object: 'file', deleted: true });
    assert.strictEqual((await call(rt, 'GET', `/v1/files/${id}`)).status, 404);
    assert.strictEqual((await call(rt, 'GET', `/v1/files/${id}/content`)).status, 404);
    assert.strictEqual((await call(rt, 'DELETE', `/v1/files/${id}`)).status, 404);
    assert.ok(!fs.existsSync(path.join(rt.dataDir, 'blobs', `${id}.bin`)));
  });

  it('lists uploaded files newest first and filters by purpose', async () => {
    const a = await uploadOk(rt, 'a.txt', 'a', 'task_input');
    const b = await uploadOk(rt, 'b.csv', 'b', 'dataset');
    const c = await uploadOk(rt, 'c.txt', 'c', 'reference');
    const all = await call(rt, 'GET', '/v1/files');
    assert.strictEqual(all.json.object, 'list');
    assert.deepStrictEqual(
      (all.json.data as { id: string }[]).map((f) => f.id),
      [c, b, a],
    );
    assert.strictEqual(all.json.has_more, false);
    assert.strictEqual(all.json.next_cursor, null);
    const datasets = await call(rt, 'GET', '/v1/files?purpose=dataset');
    assert.deepStrictEqual(
      (datasets.json.data as { id: string }[]).map((f) => f.id),
      [b],
    );
  });

  it('encrypts contents at rest: the blob on disk holds no plaintext and is AES-GCM sized', async () => {
    const secret = 'TOP-SECRET-PLAINTEXT-'.repeat(200);
    const id = await uploadOk(rt, 'secret.txt', secret);
    const blob = fs.readFileSync(path.join(rt.dataDir, 'blobs', `${id}.bin`));
    assert.ok(!blob.includes(Buffer.from('TOP-SECRET')), 'no plaintext on disk');
    assert.strictEqual(blob.length, Buffer.byteLength(secret) + 4 + 12 + 16, 'magic + IV + ciphertext + tag');
    assert.strictEqual(fs.readFileSync(path.join(rt.dataDir, 'blob.key')).length, 32, 'a 256-bit key in the data dir');
    const res = await call(rt, 'GET', `/v1/files/${id}/content`);
    assert.strictEqual(res.text, secret);
  });

  it('refuses to serve a blob whose ciphertext was tampered with', async () => {
    const id = await uploadOk(rt, 'x.txt', 'x'.repeat(100000));
    const file = path.join(rt.dataDir, 'blobs', `${id}.bin`);
    const blob = fs.readFileSync(file);
    blob[5000] ^= 0xff;
    fs.writeFileSync(file, blob);
    await assert.rejects(async () => {
      const res = await fetch(`${rt.baseUrl}/v1/files/${id}/content`, {
        headers: { Authorization: `Bearer ${rt.apiKey}` },
      });
      await res.arrayBuffer();
    }, 'the body is cut, never completed');
  });
});
