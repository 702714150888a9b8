// Patch artifacts: parsed with jsdiff, applied exactly (or refused with a reason), and written.
import * as assert from 'node:assert';
import { MAX_PART_HUNKS } from '../../../src/review/hunkFit';
import type { PatchPart } from '../../../src/review/patchFile';
import { applyPatchPart, formatChangeSetPatch, parsePatchText } from '../../../src/review/patchFile';

const notes = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n';
const notesPatch = [
  '--- a/notes.md',
  '+++ b/notes.md',
  '@@ -1,3 +1,3 @@',
  ' alpha',
  '-beta',
  '+BETA',
  ' gamma',
  '@@ -6,3 +6,4 @@',
  ' zeta',
  ' eta',
  ' theta',
  '+iota',
  '',
].join('\n');

function onlyPart(text: string): PatchPart {
  const parsed = parsePatchText(text);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  assert.strictEqual(parsed.parts.length, 1);
  return parsed.parts[0];
}

describe('review patch files', () => {
  it('reads the file name without the a/ b/ prefixes and applies the part exactly', async () => {
    const part = onlyPart(notesPatch);
    assert.strictEqual(part.name, 'notes.md');
    assert.strictEqual(part.operation, 'modify');
    const applied = await applyPatchPart(part, notes);
    assert.deepStrictEqual(applied, { ok: true, text: 'alpha\nBETA\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\n' });
  });

  it('refuses a patch that does not match the file as sent, naming the first hunk that fails', async () => {
    const part = onlyPart(notesPatch);
    const edited = notes.replace('\neta\n', '\nETA\n');
    const applied = await applyPatchPart(part, edited);
    assert.strictEqual(applied.ok, false);
    assert.match(!applied.ok ? applied.message : '', /change 2 of 2 \(at line 6\)/);
  });

  it('does not guess a place with fuzz: one changed context line is enough to refuse', async () => {
    const part = onlyPart(notesPatch);
    const applied = await applyPatchPart(part, notes.replace('gamma', 'GAMMA'));
    assert.strictEqual(applied.ok, false);
    assert.match(!applied.ok ? applied.message : '', /change 1 of 2/);
  });

  it('applies 6,000 hunks to a 24,000-line file, naming a last one that does not match', async () => {
    const lines = Array.from({ length: 24_000 }, (_, i) => `row ${i}`);
    const hunks: string[] = [];
    for (let r = 1; r < 24_000; r += 4) {
      hunks.push(`@@ -${r},3 +${r},3 @@\n ${lines[r - 1]}\n-${lines[r]}\n+${lines[r]} (agent)\n ${lines[r + 1]}\n`);
    }
    const part = onlyPart(`--- a/big.txt\n+++ b/big.txt\n${hunks.join('')}`);
    assert.strictEqual(part.hunkCount, 6_000);
    const text = lines.join('\n') + '\n';
    const applied = await applyPatchPart(part, text);
    assert.deepStrictEqual(applied, {
      ok: true,
      text: lines.map((l, i) => (i % 4 === 1 ? `${l} (agent)` : l)).join('\n') + '\n',
    });
    const refused = await applyPatchPart(part, text.replace('\nrow 23997\n', '\nrow 23997 (moved)\n'));
    assert.deepStrictEqual(refused, {
      ok: false,
      message:
        'The patch does not apply to big.txt as it was sent: change 6000 of 6000 (at line 23997) does not match its lines.',
    });
  });

  it('refuses a part of more hunks than are applied at most, saying how many', async () => {
    const lines = Array.from({ length: (MAX_PART_HUNKS + 1) * 2 }, (_, i) => `row ${i}`);
    const hunks = lines.map((l, i) => (i % 2 === 0 ? `@@ -${i + 1} +${i + 1} @@\n-${l}\n+${l}!\n` : '')).join('');
    const applied = await applyPatchPart(onlyPart(`--- a/x.txt\n+++ b/x.txt\n${hunks}`), lines.join('\n') + '\n');
    assert.deepStrictEqual(applied, {
      ok: false,
      message:
        'The patch changes x.txt in 10001 places, more than the 10000 that are applied at most; it is not applied.',
    });
  });

  it('reads several files, git-style headers included, and marks what is not a text edit', async () => {
    const parsed = parsePatchText(
      [
        'diff --git a/x.md b/x.md',
        'index 1111111..2222222 100644',
        '--- a/x.md',
        '+++ b/x.md',
        '@@ -1 +1 @@',
        '-x',
        '+X',
        'diff --git a/pic.png b/pic.png',
        'Binary files a/pic.png and b/pic.png differ',
        'diff --git a/new.md b/new.md',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/new.md',
        '@@ -0,0 +1 @@',
        '+n',
        'diff --git a/old.md b/old.md',
        'deleted file mode 100644',
        '--- a/old.md',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-o',
        '',
      ].join('\n'),
    );
    assert.ok(parsed.ok);
    assert.deepStrictEqual(
      parsed.parts.map((p) => [p.name, p.operation]),
      [
        ['x.md', 'modify'],
        ['pic.png', 'binary'],
        ['new.md', 'create'],
        ['old.md', 'delete'],
      ],
    );
    const refused = await applyPatchPart(parsed.parts[1], 'whatever');
    assert.strictEqual(refused.ok, false);
    assert.match(!refused.ok ? refused.message : '', /binary change to pic\.png/);
  });

  it('reports text that is not a patch, and a malformed hunk, instead of throwing', () => {
    const prose = parsePatchText('Here is my summary of the changes.\n');
    assert.strictEqual(prose.ok, false);
    const malformed = parsePatchText('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n+d\n');
    assert.strictEqual(malformed.ok, false);
    assert.match(!malformed.ok ? malformed.message : '', /cannot be read/);
  });

  it('applies a part to a file without a final newline and keeps it so', async () => {
    const part = onlyPart('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n\\ No newline at end of file\n');
    assert.deepStrictEqual(await applyPatchPart(part, 'a\nb'), { ok: true, text: 'A\nb' });
  });

  it('writes a change set as one patch that jsdiff reads back and applies to every file', async () => {
    const files = [
      { relativePath: 'docs/notes.md', before: notes, after: notes.replace('beta', 'BETA') },
      { relativePath: 'same.txt', before: 'same\n', after: 'same\n' },
      { relativePath: 'win.txt', before: 'one\r\ntwo\r\n', after: 'one\r\n2\r\n' },
      { relativePath: 'end.txt', before: 'a\nb', after: 'a\nb\n' },
    ];
    const text = formatChangeSetPatch(files);
    assert.match(text, /^--- a\/docs\/notes\.md\n\+\+\+ b\/docs\/notes\.md\n/);
    const parsed = parsePatchText(text);
    assert.ok(parsed.ok);
    assert.deepStrictEqual(
      parsed.parts.map((p) => p.name),
      ['docs/notes.md', 'win.txt', 'end.txt'],
    );
    for (const part of parsed.parts) {
      const file = files.find((f) => f.relativePath === part.name);
      assert.ok(file);
      assert.deepStrictEqual(await applyPatchPart(part, file.before), { ok: true, text: file.after }, part.name);
    }
  });
});
