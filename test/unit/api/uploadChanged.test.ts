// A file edited while it is being sent is never stored as a mix of old and new bytes: the upload
// fails as validation and the request is abandoned, so the server keeps nothing.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { closeSync, futimesSync, openSync, writeSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isApiError } from '../../../src/api/errors';
import { makeTempDir, rejectionOf, type RuntimeWithClient, startRuntimeWithClient } from './fixtures';

const SIZE = 3 * 1024 * 1024;

describe('api/upload of a file that changes meanwhile', () => {
  let ctx: RuntimeWithClient;
  let temp: { dir: string; remove: () => Promise<void> };
  before(async () => {
    ctx = await startRuntimeWithClient({}, { maxRetries: 0 });
    temp = await makeTempDir();
  });
  after(async () => {
    await ctx.close();
    await temp.remove();
  });

  async function storedCount(): Promise<number> {
    return (await ctx.client.listFiles({ limit: 100 })).data.length;
  }

  /** Uploads a fresh file and runs `edit` on it once the first chunk has gone out. */
  async function uploadWhileEditing(name: string, edit: (fd: number) => void): Promise<unknown> {
    const path = join(temp.dir, name);
    await writeFile(path, randomBytes(SIZE));
    let edited = false;
    return rejectionOf(
      ctx.client.uploadFile(path, {
        onProgress: (sent) => {
          if (edited || sent === 0) {
            return;
          }
          edited = true;
          const fd = openSync(path, 'r+');
          try {
            edit(fd);
          } finally {
            closeSync(fd);
          }
        },
      }),
    );
  }

  it('rewritten in place (same size): fails as validation and nothing is stored', async () => {
    const before = await storedCount();
    const err = await uploadWhileEditing('rewritten.bin', (fd) => {
      writeSync(fd, randomBytes(SIZE), 0, SIZE, 0);
      // A coarse clock could give the same mtime as the write before: make the edit visible.
      const later = new Date(Date.now() + 60_000);
      futimesSync(fd, later, later);
    });
    assert.ok(isApiError(err, 'validation'), String(err));
    assert.match(err.message, /rewritten\.bin.*changed while it was being uploaded; nothing was kept/);
    assert.equal(await storedCount(), before);
  });

  it('grown meanwhile: fails as validation and nothing is stored', async () => {
    const before = await storedCount();
    const err = await uploadWhileEditing('grown.bin', (fd) => {
      writeSync(fd, Buffer.from('more'), 0, 4, SIZE);
    });
    assert.ok(isApiError(err, 'validation'), String(err));
    assert.match(err.message, /changed while it was being uploaded/);
    assert.equal(await storedCount(), before);
  });
});
