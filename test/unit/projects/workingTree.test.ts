// Uncommitted work read from a real git repository: tracked changes, untracked files only when
// ticked, .gitignore honoured, paths relative to the root, and a patch that git applies.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveCommit, uncommittedFiles, uncommittedPatch } from '../../../src/projects/workingTree';
import { makeRepository } from './gitRepoKit';

describe('projects/workingTree', () => {
  let repo: ReturnType<typeof makeRepository>;
  beforeEach(() => {
    repo = makeRepository();
    fs.writeFileSync(path.join(repo.dir, '.gitignore'), 'secret.env\n');
    repo.git('add', '.gitignore');
    repo.git('commit', '-q', '-m', 'ignore');
    repo.commit = repo.git('rev-parse', 'HEAD');
  });
  afterEach(() => fs.rmSync(repo.dir, { recursive: true, force: true }));

  it('lists tracked changes and untracked files, never ignored ones', async () => {
    fs.writeFileSync(path.join(repo.dir, 'src', 'app.ts'), 'export const a = 2;\n');
    fs.writeFileSync(path.join(repo.dir, 'new.txt'), 'new\n');
    fs.writeFileSync(path.join(repo.dir, 'secret.env'), 'TOKEN=x\n');
    const files = await uncommittedFiles('git', repo.dir, repo.commit);
    assert.deepEqual(files, { tracked: ['src/app.ts'], untracked: ['new.txt'], cut: false, trackedCut: false });
  });

  it('says when the tracked list was cut at its bound', async () => {
    const names = Array.from({ length: 1001 }, (_, i) => `many/f${i}.txt`);
    fs.mkdirSync(path.join(repo.dir, 'many'));
    for (const name of names) {
      fs.writeFileSync(path.join(repo.dir, name), 'a\n');
    }
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'many');
    const commit = repo.git('rev-parse', 'HEAD');
    for (const name of names) {
      fs.writeFileSync(path.join(repo.dir, name), 'b\n');
    }
    const files = await uncommittedFiles('git', repo.dir, commit);
    assert.equal(files.tracked.length, 1000);
    assert.equal(files.trackedCut, true);
  });

  it('diffs against the commit; untracked files only when ticked; the patch applies with git apply', async () => {
    fs.writeFileSync(path.join(repo.dir, 'src', 'app.ts'), 'export const a = 2;\n');
    fs.writeFileSync(path.join(repo.dir, 'new.txt'), 'new\n');
    fs.writeFileSync(path.join(repo.dir, 'secret.env'), 'TOKEN=x\n');
    const without = await uncommittedPatch('git', repo.dir, repo.commit);
    assert.match(without, /^diff --git a\/src\/app\.ts b\/src\/app\.ts$/m);
    assert.ok(!without.includes('new.txt'));
    const withNew = await uncommittedPatch('git', repo.dir, repo.commit, ['new.txt', 'secret.env', '../outside']);
    assert.match(withNew, /^\+\+\+ b\/new\.txt$/m);
    assert.ok(!withNew.includes('TOKEN'), 'an ignored file is never added, even when asked');

    // On a clean checkout of the commit, git apply takes the patch.
    const clone = `${repo.dir}-clone`;
    execFileSync('git', ['clone', '-q', repo.dir, clone]);
    try {
      execFileSync('git', ['-C', clone, 'apply', '-'], { input: withNew });
      assert.equal(fs.readFileSync(path.join(clone, 'new.txt'), 'utf8'), 'new\n');
      assert.equal(fs.readFileSync(path.join(clone, 'src', 'app.ts'), 'utf8'), 'export const a = 2;\n');
    } finally {
      fs.rmSync(clone, { recursive: true, force: true });
    }
  });

  it('resolves HEAD to a 40-hex commit and refuses option-like revisions', async () => {
    assert.equal(await resolveCommit('git', repo.dir, 'HEAD'), repo.commit);
    await assert.rejects(resolveCommit('git', repo.dir, '--output=/tmp/x'));
    await assert.rejects(resolveCommit('git', repo.dir, 'nope'));
  });

  it('says clearly when git is missing', async () => {
    await assert.rejects(uncommittedFiles('/nonexistent/git', repo.dir, repo.commit), /git diff failed/);
  });
});
