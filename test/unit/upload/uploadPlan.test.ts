// The batch upload planner: what is sent, what is refused before anything is sent, and why.
import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_UPLOAD_BYTES } from '../../../src/api/types';
import { listFolder, planUpload } from '../../../src/upload/uploadPlan';

describe('upload planner', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'upload-plan-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const write = async (rel: string, content = 'x') => {
    const file = path.join(dir, rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
    return file;
  };

  it('plans every selected file once, with sizes and a total', async () => {
    const a = await write('a.md', 'hello');
    const b = await write('b.txt', 'hi');
    const plan = await planUpload([a, b, a], { expandFolders: false });
    assert.deepStrictEqual(
      plan.files.map((f) => [f.name, f.bytes]),
      [
        ['a.md', 5],
        ['b.txt', 2],
      ],
    );
    assert.strictEqual(plan.totalBytes, 7);
    assert.deepStrictEqual(plan.refused, []);
  });

  it('refuses a missing file as unreadable without failing the others', async () => {
    const a = await write('a.md');
    const plan = await planUpload([a, path.join(dir, 'gone.txt')], { expandFolders: false });
    assert.strictEqual(plan.files.length, 1);
    assert.deepStrictEqual(
      plan.refused.map((r) => [path.basename(r.path), r.reason, r.detail]),
      [['gone.txt', 'unreadable', 'ENOENT']],
    );
  });

  it('accepts a sparse file of exactly 512 MB and refuses one byte more, reading neither', async () => {
    const exact = path.join(dir, 'exact.bin');
    const over = path.join(dir, 'over.bin');
    await fs.writeFile(exact, '');
    await fs.truncate(exact, MAX_UPLOAD_BYTES);
    await fs.writeFile(over, '');
    await fs.truncate(over, MAX_UPLOAD_BYTES + 1);
    const plan = await planUpload([exact, over], { expandFolders: false });
    assert.deepStrictEqual(
      plan.files.map((f) => f.name),
      ['exact.bin'],
    );
    assert.deepStrictEqual(
      plan.refused.map((r) => r.reason),
      ['too_large'],
    );
  });

  it('refuses a file it cannot open for reading', async function () {
    if (process.getuid?.() === 0) {
      this.skip();
    } // root reads everything: the check cannot be provoked
    const locked = await write('locked.txt');
    await fs.chmod(locked, 0o000);
    const plan = await planUpload([locked], { expandFolders: false });
    assert.deepStrictEqual(
      plan.refused.map((r) => [r.reason, r.detail]),
      [['unreadable', 'EACCES']],
    );
  });

  it('counts a folder without expanding it until asked, then expands it skipping .git and node_modules', async () => {
    await write('docs/one.md');
    await write('docs/sub/two.md');
    await write('docs/.git/HEAD');
    await write('docs/node_modules/x/index.js');
    const folder = path.join(dir, 'docs');
    const counted = await planUpload([folder], { expandFolders: false });
    assert.deepStrictEqual(counted.folders, [{ path: folder, fileCount: 2 }]);
    assert.strictEqual(counted.files.length, 0);
    const expanded = await planUpload([folder], { expandFolders: true });
    assert.deepStrictEqual(
      expanded.files.map((f) => path.relative(folder, f.path)),
      ['one.md', path.join('sub', 'two.md')],
    );
    // Named by their path below the folder's parent, so same-named files in subfolders stay apart.
    assert.deepStrictEqual(
      expanded.files.map((f) => f.name),
      ['docs/one.md', 'docs/sub/two.md'],
    );
    assert.strictEqual(expanded.truncated, false);
  });

  it('refuses an empty folder with a reason', async () => {
    await fs.mkdir(path.join(dir, 'empty'));
    const plan = await planUpload([path.join(dir, 'empty')], { expandFolders: true });
    assert.deepStrictEqual(
      plan.refused.map((r) => r.reason),
      ['empty_folder'],
    );
  });

  it('stops listing a huge folder at the limit', async () => {
    for (let i = 0; i < 12; i++) {
      await write(`many/f${String(i).padStart(2, '0')}.txt`);
    }
    const files = await listFolder(path.join(dir, 'many'), 5);
    assert.strictEqual(files.length, 5);
  });
});
