// A file under a workspace folder by its path may lie elsewhere by its real path (a linked folder):
// real disks, real links.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { realInside } from '../../../src/upload/realPaths';

describe('upload/realPaths', () => {
  let root: string;
  let workspace: string;
  let elsewhere: string;

  before(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'real-paths-'));
    workspace = path.join(root, 'workspace');
    elsewhere = path.join(root, 'home', '.ssh');
    await fs.mkdir(path.join(workspace, 'docs'), { recursive: true });
    await fs.mkdir(elsewhere, { recursive: true });
    await fs.writeFile(path.join(workspace, 'docs', 'plan.md'), 'plan');
    await fs.writeFile(path.join(elsewhere, 'id_ed25519'), 'key');
    await fs.symlink(elsewhere, path.join(workspace, 'linked'), 'dir');
    await fs.symlink(path.join(workspace, 'docs'), path.join(workspace, 'docs-alias'), 'dir');
  });
  after(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('a file inside by its real path is inside', async () => {
    assert.equal(await realInside(path.join(workspace, 'docs', 'plan.md'), [workspace]), true);
    assert.equal(await realInside(path.join(workspace, 'docs-alias', 'plan.md'), [workspace]), true);
  });

  it('a file reached through a linked folder that leads out is outside', async () => {
    assert.equal(await realInside(path.join(workspace, 'linked', 'id_ed25519'), [workspace]), false);
    assert.equal(await realInside(path.join(workspace, 'linked', 'id_ed25519'), [workspace, elsewhere]), true);
  });

  it('a workspace opened through a link still holds its own files', async () => {
    const alias = path.join(root, 'workspace-alias');
    await fs.symlink(workspace, alias, 'dir');
    assert.equal(await realInside(path.join(alias, 'docs', 'plan.md'), [alias]), true);
    assert.equal(await realInside(path.join(workspace, 'docs', 'plan.md'), [alias]), true);
  });

  it('what cannot be resolved cannot be told', async () => {
    assert.equal(await realInside(path.join(workspace, 'missing.md'), [workspace]), undefined);
  });
});
