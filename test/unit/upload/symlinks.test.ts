// A selected symbolic link: the planner and the API client agree. Neither sends the link's target
// unasked; the plan names the real target so the editor can ask, and the client sends it only
// when told to follow links (after the user said yes). Links inside folders stay skipped.
import * as assert from 'node:assert/strict';
import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isApiError } from '../../../src/api/errors';
import { planUpload } from '../../../src/upload/uploadPlan';
import { makeTempDir, rejectionOf, type RuntimeWithClient, startRuntimeWithClient } from '../api/fixtures';

describe('upload of a symbolic link', function () {
  let ctx: RuntimeWithClient;
  let temp: { dir: string; remove: () => Promise<void> };
  let target: string;
  let link: string;
  let folderLink: string;
  before(async function () {
    if (process.platform === 'win32') {
      this.skip();
    } // symlinks need privileges there
    ctx = await startRuntimeWithClient();
    temp = await makeTempDir();
    const secrets = join(temp.dir, 'outside');
    await mkdir(secrets);
    target = join(secrets, 'id_rsa');
    await writeFile(target, 'PRIVATE KEY');
    link = join(temp.dir, 'notes.txt');
    await symlink(target, link);
    folderLink = join(temp.dir, 'linked-folder');
    await symlink(secrets, folderLink);
    const inner = join(temp.dir, 'project');
    await mkdir(inner);
    await writeFile(join(inner, 'real.txt'), 'real');
    await symlink(target, join(inner, 'sneaky.txt'));
  });
  after(async () => {
    await ctx?.close();
    await temp?.remove();
  });

  async function storedNames(): Promise<string[]> {
    return (await ctx.client.listFiles({ limit: 100 })).data.map((f) => f.filename ?? '');
  }

  it('the plan marks a selected link to a file with its real target, and refuses a link to a folder', async () => {
    const plan = await planUpload([link, folderLink], { expandFolders: true });
    assert.equal(plan.files.length, 1);
    const planned = plan.files[0] as { path: string; name: string; symlinkTarget?: string };
    assert.equal(planned.name, 'notes.txt');
    assert.equal(planned.symlinkTarget, await realpath(target));
    assert.deepEqual(
      plan.refused.map((r) => [r.path, r.reason]),
      [[folderLink, 'not_a_file']],
    );
    assert.deepEqual(plan.folders, []);
  });

  it('folder expansion still leaves links out', async () => {
    const plan = await planUpload([join(temp.dir, 'project')], { expandFolders: true });
    assert.deepEqual(
      plan.files.map((f) => f.name),
      ['project/real.txt'],
    );
  });

  it('the client refuses a link unless told to follow it, sending nothing, and then sends the target', async () => {
    const err = await rejectionOf(ctx.client.uploadFile(link));
    assert.ok(isApiError(err, 'validation'), String(err));
    assert.ok(err.message.includes(await realpath(target)), err.message);
    assert.deepEqual(await storedNames(), []);

    const record = await ctx.client.uploadFile(link, { followSymlinks: true });
    assert.equal(record.filename, 'notes.txt');
    assert.equal(new TextDecoder().decode((await ctx.client.readFileContent(record.id)).content), 'PRIVATE KEY');
  });
});
