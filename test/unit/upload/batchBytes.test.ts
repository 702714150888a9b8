// A planned file that is not on this machine's disk (it has `read`) is sent as the bytes read,
// under its planned name, never opened by path.
import * as assert from 'node:assert/strict';
import { uploadBatch } from '../../../src/upload/batchUpload';
import type { PlannedFile } from '../../../src/upload/uploadPlan';
import { type RuntimeWithClient, startRuntimeWithClient } from '../api/fixtures';

describe('upload/batchUpload of files read in memory', () => {
  let ctx: RuntimeWithClient;
  before(async () => {
    ctx = await startRuntimeWithClient({}, { maxRetries: 0 });
  });
  after(() => ctx.close());

  it("uploads what read() returns under the planned name, and reports a failing read as that file's failure", async () => {
    const data = Buffer.from('# From a virtual file system\n');
    const files: PlannedFile[] = [
      { path: 'memfs:/docs/a.md', name: 'a.md', bytes: data.length, read: async () => data },
      {
        path: 'memfs:/docs/gone.md',
        name: 'gone.md',
        bytes: 3,
        read: async () => {
          throw new Error('gone');
        },
      },
    ];
    const result = await uploadBatch(ctx.client, files, 'task_input', {});
    assert.deepEqual(
      result.uploaded.map((u) => u.record.filename),
      ['a.md'],
    );
    assert.deepEqual(
      result.failed.map((f) => f.file.name),
      ['gone.md'],
    );
    const back = await ctx.client.readFileContent(result.uploaded[0].record.id);
    assert.equal(Buffer.from(back.content).toString(), data.toString());
  });
});
