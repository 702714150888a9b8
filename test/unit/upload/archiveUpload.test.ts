// A folder packed into one archive attachment, against the runtime: the zip read back by an
// independent reader (yauzl) has the folder's structure, names and bytes; hostile entries in the
// folder (a link climbing out with "..", a name as long as the file system allows) are handled.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAbort } from '../../../src/api/errors';
import { type ArchiveUploadProgress, uploadArchive } from '../../../src/upload/archiveUpload';
import { planUpload } from '../../../src/upload/uploadPlan';
import { makeTempDir, type RuntimeWithClient, startRuntimeWithClient } from '../api/fixtures';
import { zipContents } from './zipContents';

describe('upload/archiveUpload', () => {
  let ctx: RuntimeWithClient;
  let temp: { dir: string; remove: () => Promise<void> };
  beforeEach(async () => {
    ctx = await startRuntimeWithClient();
    temp = await makeTempDir();
  });
  afterEach(async () => {
    await ctx.close();
    await temp.remove();
  });

  async function folderOf(files: Record<string, Buffer | string>): Promise<string> {
    const root = join(temp.dir, 'project');
    for (const [name, content] of Object.entries(files)) {
      await mkdir(join(root, name, '..'), { recursive: true });
      await writeFile(join(root, name), content);
    }
    return root;
  }

  it('round-trips a folder: one attachment named after it, every file under its relative path with its bytes', async () => {
    const files: Record<string, Buffer> = {
      'README.md': Buffer.from('# read me\n'),
      'src/main.ts': Buffer.from('export const x = 1;\n'.repeat(500)),
      'src/deep/er/data.bin': randomBytes(300_000),
      'images/photo.png': randomBytes(10_000),
      'empty.txt': Buffer.alloc(0),
      'ünïcödé/名前.txt': Buffer.from('unicode'),
    };
    const root = await folderOf(files);
    const plan = await planUpload([root], { expandFolders: true });
    const progress: ArchiveUploadProgress[] = [];
    const result = await uploadArchive(ctx.client, plan.files, 'task_input', { onProgress: (p) => progress.push(p) });

    assert.equal(result.filename, 'project.zip');
    assert.equal(result.record.filename, 'project.zip');
    const stored = await ctx.client.readFileContent(result.record.id);
    assert.equal(stored.content.byteLength, result.bytes);
    const read = await zipContents(stored.content);
    const expected = Object.entries(files)
      .map(([name, bytes]) => ({ name: `project/${name}`, bytes }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    assert.deepEqual(
      read.map((e) => e.name).sort(),
      expected.map((e) => e.name),
    );
    for (const e of expected) {
      assert.ok(read.find((r) => r.name === e.name)?.bytes.equals(e.bytes), e.name);
    }

    const packed = progress.filter((p) => p.phase === 'pack');
    const last = packed[packed.length - 1];
    assert.deepEqual(
      [last.filesDone, last.fileCount, last.bytesDone, last.totalBytes],
      [6, 6, plan.totalBytes, plan.totalBytes],
    );
    const sent = progress.filter((p) => p.phase === 'send');
    assert.equal(sent[sent.length - 1].bytesDone, result.bytes);
  });

  it('leaves out a link inside the folder whose target climbs out with "..", and keeps a name of 255 bytes whole', async function () {
    if (process.platform === 'win32') {
      this.skip();
    }
    await writeFile(join(temp.dir, 'secret.txt'), 'not for the service');
    const longName = `${'n'.repeat(251)}.txt`;
    const root = await folderOf({ 'a.txt': 'a', [longName]: 'long' });
    await symlink('../secret.txt', join(root, 'escape.txt'));
    await symlink('..', join(root, 'parent'));
    const plan = await planUpload([root], { expandFolders: true });
    const result = await uploadArchive(ctx.client, plan.files, 'task_input');
    const read = await zipContents((await ctx.client.readFileContent(result.record.id)).content);
    assert.deepEqual(read.map((e) => e.name).sort(), [`project/${longName}`, 'project/a.txt'].sort());
    assert.ok(read.every((e) => !e.bytes.toString('utf8').includes('not for the service')));
  });

  it('packs planned names that would climb out of the folder into safe entries', async () => {
    const root = await folderOf({ 'x.txt': 'x', 'y.txt': 'y' });
    const plan = await planUpload([root], { expandFolders: true });
    const hostile = plan.files.map((f, i) => ({ ...f, name: i === 0 ? '../../etc/x.txt' : '/abs/y.txt' }));
    const result = await uploadArchive(ctx.client, hostile, 'task_input');
    const read = await zipContents((await ctx.client.readFileContent(result.record.id)).content);
    assert.deepEqual(
      read.map((e) => e.name),
      ['etc/x.txt', 'abs/y.txt'],
    );
  });

  it('a cancel while packing stores nothing and leaves no temporary archive', async () => {
    const root = await folderOf(
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}.bin`, randomBytes(64 * 1024)])),
    );
    const plan = await planUpload([root], { expandFolders: true });
    const temps = async () => (await readdir(tmpdir())).filter((n) => n.startsWith('agent-runtime-archive-')).length;
    const tempsBefore = await temps();
    const controller = new AbortController();
    await assert.rejects(
      uploadArchive(ctx.client, plan.files, 'task_input', {
        signal: controller.signal,
        onProgress: (p) => p.filesDone >= 3 && controller.abort(),
      }),
      (err: unknown) => isAbort(err),
    );
    assert.deepEqual((await ctx.client.listFiles()).data, []);
    assert.equal(await temps(), tempsBefore);
  });
});
