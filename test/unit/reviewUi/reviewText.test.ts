// The review's editor-side rules without an editor: hunk descriptions, the line edits that write
// chosen hunks into a document, and where an upload's file is seen from this window.
import * as assert from 'node:assert';
import { untranslated } from '../../../src/common/translate';
import { applyHunks, computeHunks } from '../../../src/review/hunks';
import type { UploadOrigin } from '../../../src/review/types';
import {
  changedSinceSentences,
  describeHunk,
  type LineEdit,
  lineEditsFor,
  placeOf,
} from '../../../src/reviewUi/reviewText';

/** What a text editor does with whole-line replacements: positions past the end clamp to the end. */
function applyLikeAnEditor(text: string, edits: readonly LineEdit[]): string {
  const lines = text.split('\n');
  const offsetOf = (line: number) =>
    line >= lines.length ? text.length : lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0);
  let out = text;
  for (const e of [...edits].sort((a, b) => b.startLine - a.startLine)) {
    out = out.slice(0, offsetOf(e.startLine)) + e.text + out.slice(offsetOf(e.endLine));
  }
  return out;
}

function subsets<T>(items: T[]): T[][] {
  return items.reduce<T[][]>((all, item) => [...all, ...all.map((s) => [...s, item])], [[]]);
}

const cases: [string, string, string][] = [
  [
    'changes, a deletion, an insertion, an append',
    'title\none\ntwo\nthree\nfour\nfive\n',
    'Title\none\ntwo\nfour\nnew\nfive\nend\n',
  ],
  ['no final newline, last line changed', 'a\nb\nc', 'A\nb\nC'],
  ['no final newline, lines appended', 'a\nb', 'a\nb\nc\nd'],
  ['insert at the start, empty base', '', 'first\nsecond\n'],
  ['everything removed', 'x\ny\n', ''],
];

describe('review editor helpers', () => {
  for (const [name, base, target] of cases) {
    it(`line edits of any subset of hunks give the core's text (${name})`, () => {
      const hunks = computeHunks(base, target);
      assert.ok(hunks.length > 0);
      for (const chosen of subsets(hunks.map((h) => h.id))) {
        assert.strictEqual(
          applyLikeAnEditor(base, lineEditsFor(hunks, chosen)),
          applyHunks(base, hunks, chosen),
          `subset ${chosen.join(',')}`,
        );
      }
    });
  }

  it('skips unknown hunk ids', () => {
    const hunks = computeHunks('a\n', 'b\n');
    assert.deepStrictEqual(lineEditsFor(hunks, ['nope']), []);
  });

  it('describes a hunk by its lines in the workspace file, its counts and the first changed line', () => {
    const [change, insert] = computeHunks('one\ntwo\nthree\nfour\n', 'one\n2\n3\nthree\nfour\nfive\n');
    assert.deepStrictEqual(describeHunk(change), { lines: 'line 2', counts: '+2 -1', preview: '+ 2' });
    assert.deepStrictEqual(describeHunk(insert), { lines: 'after line 4', counts: '+1 -0', preview: '+ five' });
    const [removal] = computeHunks('a\nb\nc\nd\n', 'a\nd\n');
    assert.deepStrictEqual(describeHunk(removal), { lines: 'lines 2-3', counts: '+0 -2', preview: '- b' });
    const [atStart] = computeHunks('x\n', 'new\nx\n');
    assert.strictEqual(describeHunk(atStart).lines, 'at the start');
    const [long] = computeHunks('x\n', `${'y'.repeat(200)}\n`);
    assert.ok(describeHunk(long).preview.length <= 82 && describeHunk(long).preview.endsWith('…'));
  });

  describe('placeOf', () => {
    const origin = (uri: string, workspaceFolder?: string): UploadOrigin => ({
      fileId: 'file_1',
      uri,
      workspaceFolder,
      relativePath: 'a.md',
      sha256: '',
      bytes: 1,
      uploadedAt: '2026-01-01T00:00:00Z',
    });

    it('finds a file in an open folder, and keeps two folders with alike names apart', () => {
      const open = ['file:///w/one', 'file:///w/one-two'];
      assert.deepStrictEqual(placeOf(origin('file:///w/one/a.md', 'file:///w/one'), open), {
        kind: 'here',
        folder: 'file:///w/one',
      });
      assert.deepStrictEqual(placeOf(origin('file:///w/one-two/a.md', 'file:///w/one-two'), open), {
        kind: 'here',
        folder: 'file:///w/one-two',
      });
    });

    it('tells a folder of another window from a file uploaded from outside any folder', () => {
      assert.deepStrictEqual(placeOf(origin('file:///w/other/a.md', 'file:///w/other'), ['file:///w/one']), {
        kind: 'otherWindow',
      });
      assert.deepStrictEqual(placeOf(origin('file:///tmp/a.md'), ['file:///w/one']), { kind: 'outside' });
    });

    it('refuses an origin whose file is not below its own folder', () => {
      assert.deepStrictEqual(placeOf(origin('file:///w/one-two/a.md', 'file:///w/one'), ['file:///w/one']), {
        kind: 'outside',
      });
    });
  });
});

describe('reviewUi/reviewText: what the notice says of files that moved on', () => {
  it('an uploaded file "since it was uploaded"; a project file since its commit, never "uploaded"', () => {
    const commit = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
    const sentences = changedSinceSentences(
      [{ relativePath: 'notes.md' }, { relativePath: 'README.md', baseCommit: commit }],
      untranslated,
    );
    assert.strictEqual(sentences.length, 2);
    assert.match(sentences[0], /^notes\.md changed since it was uploaded/);
    assert.match(sentences[1], /^README\.md changed since commit a1b2c3d, which the agent worked on/);
    assert.ok(!/uploaded|as sent/.test(sentences[1]), sentences[1]);
    assert.deepStrictEqual(changedSinceSentences([], untranslated), []);
  });
});
