// Apply to a New Branch, against a real git repository: every file's new text is computed from
// `git show base_commit:path` before anything is written; the branch starts at base_commit even
// when the working tree moved on; refused, binary and non-applying parts are listed, not written.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { applyOnNewBranch, prepareBranchApply } from '../../../src/projects/branchApply';
import { makeRepository } from './gitRepoKit';

describe('projects/branchApply', () => {
  let repo: ReturnType<typeof makeRepository>;
  let base: string;
  let patch: string;
  beforeEach(() => {
    repo = makeRepository();
    base = repo.commit;
    // The working tree moves on after the base commit.
    fs.writeFileSync(path.join(repo.dir, 'src', 'app.ts'), 'export const a = 10;\nexport const b = 2;\n');
    repo.git('commit', '-q', '-am', 'moved on');
    patch = [
      createTwoFilesPatch(
        'a/README.md',
        'b/README.md',
        '# Demo\n\nOne.\nTwo.\nThree.\n',
        '# Demo\n\nOne.\nTwo (reviewed).\nThree.\n',
      ),
      createTwoFilesPatch(
        'a/src/app.ts',
        'b/src/app.ts',
        'export const a = 1;\nexport const b = 2;\n',
        'export const a = 1;\nexport const b = 3;\n',
      ),
      createTwoFilesPatch('/dev/null', 'b/NOTES.txt', '', 'a note\n'),
      createTwoFilesPatch('a/missing.txt', 'b/missing.txt', 'x\n', 'y\n'),
      createTwoFilesPatch('a/.git/config', 'b/.git/config', 'x\n', 'y\n'),
      'diff --git a/logo.png b/logo.png\nindex 1111111..2222222 100644\nBinary files a/logo.png and b/logo.png differ\n',
    ].join('');
  });
  afterEach(() => fs.rmSync(repo.dir, { recursive: true, force: true }));

  it('plans from the base commit: what applies, what fails, what is refused or binary', async () => {
    const prepared = await prepareBranchApply('git', repo.dir, patch, base);
    assert.ok(prepared.ok, !prepared.ok ? prepared.message : '');
    const { plan } = prepared;
    assert.deepEqual(
      plan.files.map((f) => [f.path, f.created]),
      [
        ['README.md', false],
        ['src/app.ts', false],
        ['NOTES.txt', true],
      ],
    );
    assert.deepEqual(
      plan.failed.map((f) => f.name),
      ['missing.txt'],
    );
    assert.deepEqual(
      plan.refused.map((f) => f.name),
      ['.git/config'],
    );
    assert.deepEqual(plan.binary, ['logo.png']);
    assert.equal(repo.git('status', '--porcelain'), '', 'planning wrote nothing');
  });

  it('creates the branch at the base commit and writes only the planned files; git diff shows them', async () => {
    const prepared = await prepareBranchApply('git', repo.dir, patch, base);
    assert.ok(prepared.ok);
    const applied = await applyOnNewBranch('git', repo.dir, 'agent/polish', prepared.plan);
    assert.ok(applied.ok, !applied.ok ? applied.message : '');
    assert.deepEqual(applied.written, ['README.md', 'src/app.ts', 'NOTES.txt']);
    assert.equal(repo.git('rev-parse', '--abbrev-ref', 'HEAD'), 'agent/polish');
    assert.equal(repo.git('rev-parse', 'HEAD'), base);
    const diff = repo.git('diff');
    assert.match(diff, /^\+Two \(reviewed\)\.$/m);
    assert.match(diff, /^\+export const b = 3;$/m);
    assert.equal(fs.readFileSync(path.join(repo.dir, 'NOTES.txt'), 'utf8'), 'a note\n');
    assert.ok(!fs.existsSync(path.join(repo.dir, 'missing.txt')));
    assert.ok(!fs.readFileSync(path.join(repo.dir, '.git', 'config'), 'utf8').startsWith('y'));
  });

  it('refuses a dirty working tree, an invalid name and an existing branch, and writes nothing', async () => {
    const prepared = await prepareBranchApply('git', repo.dir, patch, base);
    assert.ok(prepared.ok);
    fs.writeFileSync(path.join(repo.dir, 'README.md'), 'local edit\n');
    const dirty = await applyOnNewBranch('git', repo.dir, 'agent/x', prepared.plan);
    assert.equal(dirty.ok, false);
    assert.match(!dirty.ok ? dirty.message : '', /uncommitted changes/);
    repo.git('checkout', '--', 'README.md');
    for (const bad of ['bad name', '-x', 'a..b', 'main']) {
      const res = await applyOnNewBranch('git', repo.dir, bad, prepared.plan);
      assert.equal(res.ok, false, bad);
    }
    assert.equal(repo.git('rev-parse', '--abbrev-ref', 'HEAD'), 'main');
    assert.equal(repo.git('status', '--porcelain'), '');
  });

  it('says so when the repository lacks the base commit', async () => {
    const prepared = await prepareBranchApply('git', repo.dir, patch, 'f'.repeat(40));
    assert.equal(prepared.ok, false);
    assert.match(!prepared.ok ? prepared.message : '', /fetch first/);
  });
});
