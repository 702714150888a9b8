// The batch upload against the runtime: a failure does not stop the batch, and "Retry Failed"
// sends each failed file under the key of its first attempt, so a file the server stored before
// the answer was lost is not stored twice.
import * as assert from 'node:assert/strict';
import { realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isApiError } from '../../../src/api/errors';
import { uploadBatch, type UploadKeys } from '../../../src/upload/batchUpload';
import type { PlannedFile } from '../../../src/upload/uploadPlan';
import { makeTempDir, type RuntimeWithClient, startRuntimeWithClient } from '../api/fixtures';

describe('upload/batchUpload', () => {
  let ctx: RuntimeWithClient;
  let temp: { dir: string; remove: () => Promise<void> };
  before(async () => {
    // One attempt per call: the retry under test is the user's "Retry Failed", not the client's.
    ctx = await startRuntimeWithClient({}, { maxRetries: 0 });
    temp = await makeTempDir();
  });
  after(async () => {
    await ctx.close();
    await temp.remove();
  });
  afterEach(() => ctx.runtime.clearFaults());

  it('"Retry Failed" reuses each file\'s key: a file stored before its answer was lost is stored once', async () => {
    const files: PlannedFile[] = [];
    for (const name of ['a.txt', 'b.txt']) {
      const path = join(temp.dir, name);
      await writeFile(path, `content of ${name}`);
      files.push({ path, name, bytes: `content of ${name}`.length });
    }
    const keys: UploadKeys = new Map();
    // The server stores the first upload, then drops the connection before answering.
    ctx.runtime.setFaults({ commitThenDrop: { count: 1, pathPrefix: '/v1/files' } });
    // One at a time, so the fault meets a.txt: which of two parallel requests lands first is chance.
    const first = await uploadBatch(ctx.client, files, 'task_input', { keys, concurrency: 1 });
    assert.deepEqual(
      first.failed.map((f) => f.file.name),
      ['a.txt'],
    );
    assert.deepEqual(
      first.uploaded.map((f) => f.file.name),
      ['b.txt'],
    );
    assert.equal(first.cancelled, false);

    const retry = await uploadBatch(
      ctx.client,
      first.failed.map((f) => f.file),
      'task_input',
      { keys },
    );
    assert.deepEqual(
      retry.uploaded.map((f) => f.file.name),
      ['a.txt'],
    );
    assert.deepEqual(retry.failed, []);
    const stored = (await ctx.client.listFiles({ limit: 100 })).data.map((f) => f.filename).sort();
    assert.deepEqual(stored, ['a.txt', 'b.txt']);
  });

  it('sends a planned symbolic link only when the batch is told the user confirmed it', async function () {
    if (process.platform === 'win32') {
      this.skip();
    }
    const target = join(temp.dir, 'target.txt');
    await writeFile(target, 'linked content');
    const link = join(temp.dir, 'link.txt');
    await symlink(target, link);
    const planned: PlannedFile = { path: link, name: 'link.txt', bytes: 14, symlinkTarget: await realpath(target) };
    const unconfirmed = await uploadBatch(ctx.client, [planned], 'task_input', {});
    assert.equal(unconfirmed.failed.length, 1);
    assert.ok(isApiError(unconfirmed.failed[0].error, 'validation'), String(unconfirmed.failed[0].error));
    const confirmed = await uploadBatch(ctx.client, [planned], 'task_input', { followSymlinks: true });
    assert.equal(confirmed.uploaded.length, 1);
    assert.equal(
      new TextDecoder().decode((await ctx.client.readFileContent(confirmed.uploaded[0].record.id)).content),
      'linked content',
    );
  });
});
