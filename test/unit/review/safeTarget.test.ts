// Where a review may write: inside the workspace folder the file came from, symlinks resolved.
import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkWriteTarget } from '../../../src/review/safeTarget';

describe('review write targets', () => {
  let root: string;
  let folder: string;
  let outside: string;
  beforeEach(async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'review-target-')));
    folder = path.join(root, 'ws');
    outside = path.join(root, 'outside');
    await fs.mkdir(path.join(folder, 'src'), { recursive: true });
    await fs.mkdir(outside);
    await fs.writeFile(path.join(folder, 'src', 'a.ts'), 'a');
    await fs.writeFile(path.join(outside, 'secret.txt'), 's');
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('allows a file inside the folder, given relative or absolute', async () => {
    const relative = await checkWriteTarget(folder, 'src/a.ts');
    assert.deepStrictEqual(relative, { ok: true, realPath: path.join(folder, 'src', 'a.ts') });
    assert.strictEqual((await checkWriteTarget(folder, path.join(folder, 'src', 'a.ts'))).ok, true);
  });

  it('refuses a path that climbs out of the folder', async () => {
    const check = await checkWriteTarget(folder, '../outside/secret.txt');
    assert.deepStrictEqual(check.ok ? 'ok' : check.reason, 'outside');
    assert.strictEqual((await checkWriteTarget(folder, path.join(outside, 'secret.txt'))).ok, false);
  });

  it('refuses a file that is a symlink to a file outside the folder', async () => {
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(folder, 'src', 'link.txt'));
    const check = await checkWriteTarget(folder, 'src/link.txt');
    assert.strictEqual(check.ok ? 'ok' : check.reason, 'outside');
  });

  it('refuses a file reached through a symlinked folder that points outside', async () => {
    await fs.symlink(outside, path.join(folder, 'escape'), 'dir');
    const check = await checkWriteTarget(folder, 'escape/secret.txt');
    assert.strictEqual(check.ok ? 'ok' : check.reason, 'outside');
    const create = await checkWriteTarget(folder, 'escape/new/deeper.txt', { allowCreate: true });
    assert.strictEqual(create.ok ? 'ok' : create.reason, 'outside');
  });

  it('allows a symlink that stays inside the folder, writing to its real target', async () => {
    await fs.symlink(path.join(folder, 'src', 'a.ts'), path.join(folder, 'alias.ts'));
    assert.deepStrictEqual(await checkWriteTarget(folder, 'alias.ts'), {
      ok: true,
      realPath: path.join(folder, 'src', 'a.ts'),
    });
  });

  it('accepts a workspace folder that is itself reached through a symlink', async () => {
    const linkedFolder = path.join(root, 'ws-link');
    await fs.symlink(folder, linkedFolder, 'dir');
    assert.deepStrictEqual(await checkWriteTarget(linkedFolder, 'src/a.ts'), {
      ok: true,
      realPath: path.join(folder, 'src', 'a.ts'),
    });
  });

  it('says a file deleted or renamed since upload is gone, and a dangling link too', async () => {
    await fs.rename(path.join(folder, 'src', 'a.ts'), path.join(folder, 'src', 'b.ts'));
    const gone = await checkWriteTarget(folder, 'src/a.ts');
    assert.strictEqual(gone.ok ? 'ok' : gone.reason, 'gone');
    assert.match(gone.ok ? '' : gone.message, /deleted or renamed/);
    await fs.symlink(path.join(outside, 'nothing.txt'), path.join(folder, 'dangling.txt'));
    const dangling = await checkWriteTarget(folder, 'dangling.txt', { allowCreate: true });
    assert.strictEqual(dangling.ok ? 'ok' : dangling.reason, 'gone');
  });

  it('allows creating a file inside the folder only when asked, in a folder not yet there', async () => {
    const check = await checkWriteTarget(folder, 'new/dir/file.md', { allowCreate: true });
    assert.deepStrictEqual(check, { ok: true, realPath: path.join(folder, 'new', 'dir', 'file.md') });
  });

  it('refuses a folder as the target, and a workspace folder that is gone', async () => {
    const dir = await checkWriteTarget(folder, 'src');
    assert.strictEqual(dir.ok ? 'ok' : dir.reason, 'notAFile');
    const self = await checkWriteTarget(folder, '.');
    assert.strictEqual(self.ok, false);
    const none = await checkWriteTarget(path.join(root, 'missing'), 'a.ts');
    assert.strictEqual(none.ok ? 'ok' : none.reason, 'folderGone');
  });
});
