// The 512 MB upload limit: 413 as soon as the file passes it, the read stopped, nothing kept.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { type RuntimeHandle, startRuntime } from '../index';
import { call, safeJson } from './runtimeTestKit';

const LIMIT = 512 * 1024 * 1024;
const CHUNK = Buffer.alloc(1024 * 1024, 0x61);

/** A multipart body whose file part goes on and on (up to `fileBytes`), generated, never held. */
function endlessMultipart(boundary: string, fileBytes: number, counter: { pulled: number }): Readable {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\ntask_input\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  let sentHead = false;
  let fileSent = 0;
  return new Readable({
    read() {
      if (!sentHead) {
        sentHead = true;
        this.push(head);
        return;
      }
      if (fileSent < fileBytes) {
        const piece = CHUNK.subarray(0, Math.min(CHUNK.length, fileBytes - fileSent));
        fileSent += piece.length;
        counter.pulled += piece.length;
        this.push(piece);
        return;
      }
      this.push(tail);
      this.push(null);
    },
  });
}

describe('runtime: upload size limit', function () {
  this.timeout(60000);
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime();
  });
  afterEach(() => rt.close());

  it('answers 413 once the file passes 512 MiB, stops reading, and keeps nothing', async () => {
    const boundary = 'limit-test-boundary';
    const counter = { pulled: 0 };
    // 512 MiB + 1 is where the limit is passed; the generator would go on to 1 GiB if the
    // server kept reading, which is how the test sees that the read stopped.
    const body = endlessMultipart(boundary, 2 * LIMIT, counter);
    const response = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(`${rt.baseUrl}/v1/files`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${rt.apiKey}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text });
          body.unpipe(req);
          req.destroy();
        });
      });
      req.on('error', (err) => reject(err));
      body.pipe(req);
    });
    assert.strictEqual(response.status, 413);
    const error = (safeJson(response.text).error ?? {}) as Record<string, string>;
    assert.strictEqual(error.code, 'file_too_large');
    assert.strictEqual(error.param, 'file');
    assert.ok(counter.pulled > LIMIT, 'the limit was really passed');
    assert.ok(
      counter.pulled < LIMIT + 64 * 1024 * 1024,
      `the server stopped reading (client produced ${counter.pulled} bytes)`,
    );

    const list = await call(rt, 'GET', '/v1/files');
    assert.deepStrictEqual(list.json.data, []);
    assert.deepStrictEqual(fs.readdirSync(path.join(rt.dataDir, 'blobs')), []);
    assert.deepStrictEqual(fs.readdirSync(path.join(rt.dataDir, 'tmp')), [], 'the partial blob is removed');
  });
});
