// A project patch planned at base_commit in a real git repository and handed to the review core:
// the file at base_commit is the base of the three-way merge once the working tree moved on; a
// part that does not apply whole offers the hunks that do and lists the rest; refused paths,
// binary parts and new files are listed by name, never offered.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { planPatchAtBase, readAtCommit } from '../../../src/projects/patchAtBase';
import { projectChanges, projectFileId } from '../../../src/projects/projectChanges';
import { applyReviewHunks, reviewFile } from '../../../src/review';
import { MAX_PART_HUNKS } from '../../../src/review/hunkFit';
import { makeRepository } from './gitRepoKit';

const README_AT_BASE = '# Demo\n\nOne.\nTwo.\nThree.\n';

/** Forty lines, so two hunks of one part stay apart. */
const LONG = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('projects/patchAtBase with the review core', () => {
  let repo: ReturnType<typeof makeRepository>;
  let base: string;
  beforeEach(() => {
    repo = makeRepository();
    fs.writeFileSync(path.join(repo.dir, 'long.txt'), LONG);
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'long');
    base = repo.git('rev-parse', 'HEAD');
  });
  afterEach(() => fs.rmSync(repo.dir, { recursive: true, force: true }));

  const place = () => ({
    workspaceFolder: `file://${repo.dir}`,
    uriOf: (p: string) => `file://${repo.dir}/${p}`,
  });

  it('reads files at base_commit, the one owner', async () => {
    repo.git('rm', '-q', 'README.md');
    repo.git('commit', '-q', '-m', 'gone now');
    assert.equal((await readAtCommit('git', repo.dir, base, 'README.md'))?.toString('utf8'), README_AT_BASE);
    assert.equal(await readAtCommit('git', repo.dir, 'HEAD', 'README.md'), undefined);
  });

  it('two ways while the working tree is base_commit, three ways once it moved on', async () => {
    const patch = createTwoFilesPatch(
      'a/README.md',
      'b/README.md',
      README_AT_BASE,
      '# Demo\n\nOne.\nTwo.\nThree.\nFour (agent).\n',
    );
    const planned = await planPatchAtBase('git', repo.dir, patch, base);
    assert.ok(planned.ok, !planned.ok ? planned.message : '');
    const { files, problems } = projectChanges(
      planned.plan,
      { artifactId: 'art_1', artifactName: 'changes.patch' },
      place(),
    );
    assert.deepEqual(problems, []);
    assert.equal(files.length, 1);
    assert.equal(files[0].fileId, projectFileId('art_1', 'README.md'));
    assert.equal(files[0].origin.uri, `file://${repo.dir}/README.md`);

    const unchanged = reviewFile({
      origin: files[0].origin,
      workspaceBytes: fs.readFileSync(path.join(repo.dir, 'README.md')),
      agentBytes: files[0].agentBytes,
      asSentBytes: files[0].asSentBytes,
    });
    assert.equal(unchanged.status, 'ready');
    assert.equal(unchanged.status === 'ready' && unchanged.changedSinceUpload, false);

    // The user edits the first line after base_commit (committed: HEAD moved on, too).
    fs.writeFileSync(path.join(repo.dir, 'README.md'), '# Demo (mine)\n\nOne.\nTwo.\nThree.\n');
    repo.git('commit', '-q', '-am', 'mine');
    const merged = reviewFile({
      origin: files[0].origin,
      workspaceBytes: fs.readFileSync(path.join(repo.dir, 'README.md')),
      agentBytes: files[0].agentBytes,
      asSentBytes: files[0].asSentBytes,
    });
    assert.equal(merged.status, 'ready');
    if (merged.status !== 'ready') {
      return;
    }
    assert.equal(merged.changedSinceUpload, true);
    assert.deepEqual(merged.conflicts, []);
    assert.equal(merged.proposed, '# Demo (mine)\n\nOne.\nTwo.\nThree.\nFour (agent).\n');
    assert.equal(
      Buffer.from(
        applyReviewHunks(
          merged,
          merged.hunks.map((h) => h.id),
        ),
      ).toString('utf8'),
      merged.proposed,
    );
  });

  it('a part that does not apply whole: the hunks that do are offered, the rest listed', async () => {
    const agent = LONG.replace('line 2\n', 'line 2 (agent)\n').replace('line 35\n', 'line 35 (agent)\n');
    // The second hunk was made against a text base_commit never had.
    const patch = createTwoFilesPatch('a/long.txt', 'b/long.txt', LONG, agent).replace(
      /^ line 33$/m,
      ' line 33 (elsewhere)',
    );
    const planned = await planPatchAtBase('git', repo.dir, patch, base);
    assert.ok(planned.ok, !planned.ok ? planned.message : '');
    assert.deepEqual(
      planned.plan.files.map((f) => [f.path, f.applied, f.hunks]),
      [['long.txt', 1, 2]],
    );
    assert.equal(planned.plan.files[0].agentText, LONG.replace('line 2\n', 'line 2 (agent)\n'));
    const { files, problems } = projectChanges(planned.plan, { artifactId: 'art_1' }, place());
    assert.equal(files.length, 1);
    assert.deepEqual(
      problems.map((p) => [p.code, p.file]),
      [['patchDoesNotApply', 'long.txt']],
    );
    assert.match(problems[0].message, /Change 2 of 2 to long\.txt/);
  });

  it('a part of more hunks than are applied at most is not offered, and says why', async () => {
    const lines = Array.from({ length: (MAX_PART_HUNKS + 1) * 2 }, (_, i) => `row ${i}`);
    fs.writeFileSync(path.join(repo.dir, 'many.txt'), lines.join('\n') + '\n');
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'many');
    const at = repo.git('rev-parse', 'HEAD');
    // One change every other line, no context: MAX + 1 hunks, each of which would apply.
    const hunks = lines
      .map((l, i) => (i % 2 === 0 ? `@@ -${i + 1} +${i + 1} @@\n-${l}\n+${l} (agent)\n` : ''))
      .join('');
    const planned = await planPatchAtBase('git', repo.dir, `--- a/many.txt\n+++ b/many.txt\n${hunks}`, at);
    assert.ok(planned.ok, !planned.ok ? planned.message : '');
    assert.deepEqual(planned.plan.files, []);
    assert.equal(planned.plan.failed.length, 1);
    assert.match(
      planned.plan.failed[0].message,
      /many\.txt in 10001 places, more than the 10000 that are applied at most/,
    );
  });

  it('a 150,000-line file with 3,000 hunks, some made elsewhere: each applied once, the rest listed', async () => {
    const lines = Array.from({ length: 150_000 }, (_, i) => `row ${i}`);
    fs.writeFileSync(path.join(repo.dir, 'big.txt'), lines.join('\n') + '\n');
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'big');
    const at = repo.git('rev-parse', 'HEAD');
    // A change every 50 lines with a line of context; every tenth hunk's context is not at base.
    const hunks: string[] = [];
    for (let r = 1, k = 0; r < 150_000; r += 50, k++) {
      const before = k % 10 === 9 ? 'row elsewhere' : lines[r - 1];
      hunks.push(`@@ -${r},3 +${r},3 @@\n ${before}\n-${lines[r]}\n+${lines[r]} (agent)\n ${lines[r + 1]}\n`);
    }
    const planned = await planPatchAtBase('git', repo.dir, `--- a/big.txt\n+++ b/big.txt\n${hunks.join('')}`, at);
    assert.ok(planned.ok, !planned.ok ? planned.message : '');
    assert.deepEqual(
      planned.plan.files.map((f) => [f.path, f.applied, f.hunks]),
      [['big.txt', 2_700, 3_000]],
    );
    const expected = lines.map((l, i) => (i % 50 === 1 && Math.floor(i / 50) % 10 !== 9 ? `${l} (agent)` : l));
    assert.equal(planned.plan.files[0].agentText, expected.join('\n') + '\n');
    assert.equal(planned.plan.hunksNotApplied.length, 300);
    assert.deepEqual(planned.plan.hunksNotApplied[0], {
      path: 'big.txt',
      hunk: 10,
      hunks: 3_000,
      line: 451,
      message: `Change 10 of 3000 to big.txt (at line 451) does not match the file at ${at.slice(0, 7)}; it is not offered.`,
    });
  });

  it('a cancelled plan stops while placing hunks', async () => {
    const stop = new AbortController();
    stop.abort();
    const patch = createTwoFilesPatch('a/long.txt', 'b/long.txt', LONG, LONG.replace('line 2\n', 'line 2 (agent)\n'));
    const planned = await planPatchAtBase('git', repo.dir, patch, base, undefined, { signal: stop.signal });
    assert.deepEqual(planned, { ok: false, message: `Reading the patch at ${base.slice(0, 7)} was cancelled.` });
  });

  it('refused paths, binary parts and new files are listed by name; nothing of them is offered', async () => {
    fs.symlinkSync('/etc', path.join(repo.dir, 'out'));
    const patch = [
      createTwoFilesPatch('a/../escape.txt', 'b/../escape.txt', 'x\n', 'y\n'),
      createTwoFilesPatch('/etc/passwd', '/etc/passwd', 'x\n', 'y\n'),
      createTwoFilesPatch('a/.git/config', 'b/.git/config', 'x\n', 'y\n'),
      createTwoFilesPatch('a/out/hosts', 'b/out/hosts', 'x\n', 'y\n'),
      createTwoFilesPatch('/dev/null', 'b/NEW.md', '', 'new\n'),
      'diff --git a/logo.png b/logo.png\nindex 1111111..2222222 100644\nBinary files a/logo.png and b/logo.png differ\n',
    ].join('');
    const planned = await planPatchAtBase('git', repo.dir, patch, base);
    assert.ok(planned.ok, !planned.ok ? planned.message : '');
    const { files, problems } = projectChanges(planned.plan, { artifactId: 'art_1' }, place());
    assert.deepEqual(files, []);
    assert.deepEqual(
      problems.map((p) => [p.code, p.file]),
      [
        ['refusedPath', '../escape.txt'],
        ['refusedPath', '/etc/passwd'],
        ['refusedPath', '.git/config'],
        ['refusedPath', 'out/hosts'],
        ['unsupportedPatch', 'logo.png'],
        ['unsupportedPatch', 'NEW.md'],
      ],
    );
    for (const p of problems) {
      assert.ok(p.message.includes(p.file as string), p.message);
    }
  });

  it('a commit the repository does not have, or no 40-hex commit, plans nothing', async () => {
    const patch = createTwoFilesPatch('a/README.md', 'b/README.md', README_AT_BASE, 'x\n');
    const missing = await planPatchAtBase('git', repo.dir, patch, 'f'.repeat(40));
    assert.ok(!missing.ok && /fetch first/.test(missing.message));
    const option = await planPatchAtBase('git', repo.dir, patch, '--output=/tmp/x');
    assert.ok(!option.ok && /no usable base commit/.test(option.message));
  });
});
