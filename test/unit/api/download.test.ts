// Downloads: streamed to a temporary file and renamed; a cut or cancelled download leaves
// nothing behind; progress follows Content-Length.
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isApiError } from '../../../src/api/errors';
import { makeTempDir, QUICK_BACKOFF, rejectionOf, type RuntimeWithClient, startRuntimeWithClient } from './fixtures';

const sha = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

describe('api/download', () => {
  let ctx: RuntimeWithClient;
  let temp: { dir: string; remove: () => Promise<void> };
  let fileId: string;
  let data: Buffer;
  before(async () => {
    ctx = await startRuntimeWithClient({}, { backoff: QUICK_BACKOFF });
    temp = await makeTempDir();
    data = randomBytes(5 * 1024 * 1024 + 3);
    const source = join(temp.dir, 'source.bin');
    await writeFile(source, data);
    fileId = (await ctx.client.uploadFile(source)).id;
  });
  after(async () => {
    await ctx.close();
    await temp.remove();
  });
  afterEach(() => ctx.runtime.clearFaults());

  /** A folder path that does not exist yet: the download creates it. */
  const freshDir = (name: string): string => join(temp.dir, name);

  it('writes the content to the target with progress from Content-Length', async () => {
    const dir = freshDir('ok');
    const target = join(dir, 'copy.bin');
    const progress: [number, number | undefined][] = [];
    const result = await ctx.client.downloadFile(fileId, target, { onProgress: (r, t) => progress.push([r, t]) });
    assert.deepEqual(result, { path: target, bytes: data.length });
    assert.equal(sha(await readFile(target)), sha(data));
    assert.deepEqual(await readdir(dir), ['copy.bin'], 'no temporary file left');
    assert.deepEqual(progress[0], [0, data.length]);
    assert.deepEqual(progress[progress.length - 1], [data.length, data.length]);
  });

  it('replaces an existing target only once the new content is complete', async () => {
    const dir = freshDir('replace');
    const target = join(dir, 'copy.bin');
    await ctx.client.downloadFile(fileId, target);
    await writeFile(target, 'old');
    ctx.runtime.setFaults({ cutDownloadAfterBytes: 1000 });
    await rejectionOf(ctx.client.downloadFile(fileId, target));
    assert.equal(await readFile(target, 'utf8'), 'old');
    ctx.runtime.clearFaults();
    await ctx.client.downloadFile(fileId, target);
    assert.equal(sha(await readFile(target)), sha(data));
  });

  it('a download cut mid-body fails as a connection error and leaves no file', async () => {
    const dir = freshDir('cut');
    ctx.runtime.setFaults({ cutDownloadAfterBytes: 1024 * 1024 });
    const err = await rejectionOf(ctx.client.downloadFile(fileId, join(dir, 'cut.bin')));
    assert.ok(isApiError(err, 'connection'), String(err));
    assert.deepEqual(await readdir(dir), []);
  });

  it('a cancelled download rejects as aborted and leaves no file', async () => {
    const dir = freshDir('cancel');
    const controller = new AbortController();
    const err = await rejectionOf(
      ctx.client.downloadFile(fileId, join(dir, 'c.bin'), {
        signal: controller.signal,
        onProgress: (received) => {
          if (received > 0) {
            controller.abort();
          }
        },
      }),
    );
    assert.ok(isApiError(err, 'aborted'), String(err));
    assert.deepEqual(await readdir(dir), []);
  });

  it('an unknown file id fails as not_found without creating anything', async () => {
    const dir = freshDir('missing');
    assert.ok(isApiError(await rejectionOf(ctx.client.downloadFile('file_nope', join(dir, 'x.bin'))), 'not_found'));
    assert.deepEqual(await readdir(dir).catch(() => []), []);
  });

  it('a target it cannot write fails as validation, not retried, and leaves no temporary file', async () => {
    const dir = freshDir('blocked');
    await ctx.client.downloadFile(fileId, join(dir, 'taken'));
    await rm(join(dir, 'taken'));
    await mkdir(join(dir, 'taken', 'inside'), { recursive: true });
    const before = ctx.logger.lines.length;
    const err = await rejectionOf(ctx.client.downloadFile(fileId, join(dir, 'taken')));
    assert.ok(isApiError(err, 'validation'), String(err));
    assert.match(err.message, /Could not save/);
    assert.equal(ctx.logger.lines.length - before, 1, 'one attempt');
    assert.deepEqual(await readdir(dir), ['taken']);
  });

  it('reads content into memory up to maxBytes and refuses more', async () => {
    const small = await ctx.client.readFileContent(fileId, { maxBytes: data.length });
    assert.equal(small.content.length, data.length);
    assert.equal(small.contentType, 'application/octet-stream');
    assert.ok(isApiError(await rejectionOf(ctx.client.readFileContent(fileId, { maxBytes: 1000 })), 'too_large'));
  });
});
