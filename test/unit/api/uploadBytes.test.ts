// Bytes already in memory (a file the editor read through a non-disk file system): the same
// multipart framing, checks before sending, progress, and a retry that resends them whole.
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { isApiError } from '../../../src/api/errors';
import { MAX_UPLOAD_BYTES } from '../../../src/api/types';
import { prepareBytesUpload } from '../../../src/api/upload';
import {
  json,
  QUICK_BACKOFF,
  rejectionOf,
  type RuntimeWithClient,
  startRecordingServer,
  startRuntimeWithClient,
} from './fixtures';
import { ApiClient } from './transportUnderTest';

const sha = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

describe('api/upload of bytes in memory', () => {
  let ctx: RuntimeWithClient;
  before(async () => {
    ctx = await startRuntimeWithClient({}, { backoff: QUICK_BACKOFF });
  });
  after(() => ctx.close());
  afterEach(() => ctx.runtime.clearFaults());

  it('uploads bytes under the given name, with progress, and they download back identical', async () => {
    const data = randomBytes(1024 * 1024 + 333);
    const progress: [number, number][] = [];
    const record = await ctx.client.uploadBytes(data, {
      filename: 'notes.md',
      purpose: 'reference',
      onProgress: (s, t) => progress.push([s, t]),
    });
    assert.equal(record.filename, 'notes.md');
    assert.equal(record.purpose, 'reference');
    assert.equal(record.bytes, data.length);
    assert.equal(record.content_type, 'text/markdown');
    assert.deepEqual(progress[0], [0, data.length]);
    assert.deepEqual(progress[progress.length - 1], [data.length, data.length]);
    assert.equal(sha((await ctx.client.readFileContent(record.id)).content), sha(data));
  });

  it('sends an exact Content-Length and the same framing as a file from disk', async () => {
    const data = Buffer.from('a,b\n1,2\n');
    const server = await startRecordingServer((_req, res) => json(res, 201, { id: 'file_1' }));
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k' });
    try {
      await client.uploadBytes(data, { filename: 'table.csv' });
      const [req] = server.requests;
      assert.equal(Number(req.headers['content-length']), req.body.length);
      const text = req.body.toString('latin1');
      const purposeAt = text.indexOf('name="purpose"\r\n\r\ntask_input\r\n');
      const fileAt = text.indexOf('name="file"; filename="table.csv"\r\nContent-Type: text/csv\r\n\r\na,b\n1,2\n\r\n');
      assert.ok(purposeAt > 0 && fileAt > purposeAt, text);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('refuses an empty name, an invalid purpose and too many bytes before sending', async () => {
    const server = await startRecordingServer((_req, res) => json(res, 201, { id: 'file_1' }));
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k' });
    try {
      const empty = await rejectionOf(client.uploadBytes(Buffer.from('x'), { filename: ' ' }));
      assert.ok(isApiError(empty, 'validation'));
      // An invalid purpose, as a caller without types might pass it.
      const homework = { filename: 'a.txt', purpose: 'homework' } as unknown as Parameters<ApiClient['uploadBytes']>[1];
      const purpose = await rejectionOf(client.uploadBytes(Buffer.from('x'), homework));
      assert.ok(isApiError(purpose, 'validation'));
      assert.equal(purpose.param, 'purpose');
      const big = await rejectionOf(client.uploadBytes(Buffer.alloc(11), { filename: 'big.bin', maxBytes: 10 }));
      assert.ok(isApiError(big, 'validation'));
      assert.match(big.message, /over the limit/);
      assert.equal(server.requests.length, 0);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('checks against the spec limit by default', () => {
    // A view with a length beyond the limit, without allocating half a gigabyte.
    const huge = { byteLength: MAX_UPLOAD_BYTES + 1 } as Uint8Array;
    assert.throws(
      () => prepareBytesUpload(huge, { filename: 'huge.bin' }),
      (err: unknown) => isApiError(err, 'validation'),
    );
    assert.doesNotThrow(() =>
      prepareBytesUpload({ byteLength: MAX_UPLOAD_BYTES } as Uint8Array, { filename: 'exact.bin' }),
    );
  });

  it('a retried upload resends the whole bytes under the same key: one file, identical content', async () => {
    const data = randomBytes(2 * 1024 * 1024);
    const before = (await ctx.client.listFiles({ limit: 100 })).data.length;
    ctx.runtime.setFaults({ commitThenDrop: { count: 1, pathPrefix: '/v1/files' } });
    const record = await ctx.client.uploadBytes(data, { filename: 'retry.bin' });
    assert.equal((await ctx.client.listFiles({ limit: 100 })).data.length, before + 1);
    assert.equal(sha((await ctx.client.readFileContent(record.id)).content), sha(data));
    ctx.runtime.setFaults({ failNext: { count: 1, status: 503, pathPrefix: '/v1/files' } });
    const second = await ctx.client.uploadBytes(data, { filename: 'retry2.bin' });
    assert.equal(sha((await ctx.client.readFileContent(second.id)).content), sha(data));
  });
});
