// From a run's artifacts to one change set: which are revisions or patches of workspace files,
// and every artifact or file part that cannot be used, reported instead of thrown.
import * as assert from 'node:assert';
import type { ArtifactRecord } from '../../../src/api/types';
import type { ChangeSetSources } from '../../../src/review/changeSet';
import { buildChangeSet, classifyArtifact } from '../../../src/review/changeSet';
import type { ReviewArtifact, TaskAttachment, UploadOrigin } from '../../../src/review/types';

const enc = (text: string) => new TextEncoder().encode(text);
const dec = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function origin(fileId: string, relativePath: string): UploadOrigin {
  return {
    fileId,
    uri: `file:///ws/${relativePath}`,
    workspaceFolder: 'file:///ws',
    relativePath,
    sha256: '0'.repeat(64),
    bytes: 0,
    uploadedAt: '2026-11-23T07:00:00Z',
  };
}

const origins = new Map<string, UploadOrigin>([
  ['file_notes', origin('file_notes', 'docs/notes.md')],
  ['file_win', origin('file_win', 'win.txt')],
  ['file_pic', origin('file_pic', 'pic.bin')],
]);
const attachments: TaskAttachment[] = [
  { fileId: 'file_notes', filename: 'notes.md' },
  { fileId: 'file_win', filename: 'win.txt' },
  { fileId: 'file_pic', filename: 'pic.bin' },
  { fileId: 'file_other_machine', filename: 'other.md' },
];
const asSent = new Map<string, Uint8Array>([
  ['file_notes', enc('alpha\nbeta\ngamma\n')],
  ['file_win', enc('one\r\ntwo\r\nthree\r\n')],
  ['file_pic', new Uint8Array([1, 0, 2])],
]);

function sources(
  contents: Record<string, string | Uint8Array>,
  overrides: Partial<ChangeSetSources> = {},
): ChangeSetSources & { asSentReads: string[] } {
  const asSentReads: string[] = [];
  return {
    originOf: (id) => origins.get(id),
    attachments,
    readArtifact: async (artifact) => {
      const content = contents[artifact.id];
      if (content === undefined) {
        throw new Error(`404 for ${artifact.id}`);
      }
      return typeof content === 'string' ? enc(content) : content;
    },
    readAsSent: async (fileId) => {
      asSentReads.push(fileId);
      const content = asSent.get(fileId);
      if (!content) {
        throw new Error(`404 for ${fileId}`);
      }
      return content;
    },
    asSentReads,
    ...overrides,
  };
}

const patchOf = (name: string, body: string[]) => [`--- a/${name}`, `+++ b/${name}`, ...body, ''].join('\n');
const notesPatch = patchOf('notes.md', ['@@ -1,3 +1,3 @@', ' alpha', '-beta', '+BETA', ' gamma']);
const winPatch = patchOf('win.txt', ['@@ -1,3 +1,3 @@', ' one', '-two', '+2', ' three']);

describe('review change set', () => {
  it('classifies revisions, patches, revisions of files from elsewhere and plain outputs', () => {
    const originOf = (id: string) => origins.get(id);
    const kinds = (
      [
        { id: 'art_1', name: 'notes.md', source_file_id: 'file_notes' },
        { id: 'art_2', name: 'changes.diff', content_type: 'application/octet-stream' },
        { id: 'art_3', name: 'fix', content_type: 'text/x-diff; charset=utf-8' },
        { id: 'art_4', name: 'other.md', source_file_id: 'file_other_machine' },
        { id: 'art_5', name: 'report.md', content_type: 'text/markdown' },
        { id: 'art_6', name: 'old.patch', source_file_id: 'file_notes' },
        { id: 'art_7', name: 'x', source_file_id: 42 },
      ] as ReviewArtifact[]
    ).map((a) => classifyArtifact(a, originOf).kind);
    assert.deepStrictEqual(kinds, ['revision', 'patch', 'patch', 'unknownSource', 'plain', 'revision', 'plain']);
  });

  it('takes an API artifact record as it is', () => {
    const record: ArtifactRecord = { id: 'art_1', name: 'notes.md', file_id: 'file_a1', source_file_id: 'file_notes' };
    assert.strictEqual(classifyArtifact(record, (id) => origins.get(id)).origin?.relativePath, 'docs/notes.md');
  });

  it('gives a revision as the agent version of its workspace file, without fetching the file as sent', async () => {
    const src = sources({ art_1: 'new notes\n' });
    const set = await buildChangeSet(
      [{ id: 'art_1', name: 'notes.md', file_id: 'file_a1', source_file_id: 'file_notes' }],
      src,
    );
    assert.deepStrictEqual(set.problems, []);
    assert.strictEqual(set.files.length, 1);
    assert.strictEqual(set.files[0].origin.uri, 'file:///ws/docs/notes.md');
    assert.deepStrictEqual(set.files[0].source, { kind: 'revision', artifactId: 'art_1', artifactName: 'notes.md' });
    assert.strictEqual(dec(set.files[0].agentBytes), 'new notes\n');
    assert.deepStrictEqual(src.asSentReads, []);
  });

  it('maps each file of a patch to its attachment by filename and applies it to the file as sent', async () => {
    const src = sources({ art_p: notesPatch + winPatch });
    const set = await buildChangeSet([{ id: 'art_p', name: 'changes.patch', content_type: 'text/x-diff' }], src);
    assert.deepStrictEqual(set.problems, []);
    assert.deepStrictEqual(
      set.files.map((f) => [f.fileId, f.source.kind, dec(f.agentBytes)]),
      [
        ['file_notes', 'patch', 'alpha\nBETA\ngamma\n'],
        // The file was sent with CRLF line ends; the agent's version keeps them.
        ['file_win', 'patch', 'one\r\n2\r\nthree\r\n'],
      ],
    );
    assert.deepStrictEqual(dec(set.files[1].asSentBytes ?? new Uint8Array()), 'one\r\ntwo\r\nthree\r\n');
  });

  it('reports the files of a patch it cannot place and still takes the others', async () => {
    const unknown = patchOf('nobody.md', ['@@ -1 +1 @@', '-x', '+y']);
    const foreign = patchOf('other.md', ['@@ -1 +1 @@', '-x', '+y']);
    const set = await buildChangeSet(
      [{ id: 'art_p', name: 'changes.diff' }],
      sources({ art_p: unknown + notesPatch + foreign }),
    );
    assert.deepStrictEqual(
      set.files.map((f) => f.fileId),
      ['file_notes'],
    );
    assert.deepStrictEqual(
      set.problems.map((p) => [p.code, p.file]),
      [
        ['unknownFile', 'nobody.md'],
        ['unknownSource', 'other.md'],
      ],
    );
  });

  it('reads a patch written with CRLF line ends', async () => {
    const set = await buildChangeSet(
      [{ id: 'art_p', name: 'changes.diff' }],
      sources({ art_p: winPatch.replace(/\n/g, '\r\n') }),
    );
    assert.deepStrictEqual(set.problems, []);
    assert.deepStrictEqual(
      set.files.map((f) => dec(f.agentBytes)),
      ['one\r\n2\r\nthree\r\n'],
    );
  });

  it('reports creating, deleting or renaming files as not reviewable, and still takes the edits', async () => {
    const patch = [
      'diff --git a/fresh.md b/fresh.md',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/fresh.md',
      '@@ -0,0 +1 @@',
      '+fresh',
      'diff --git a/win.txt b/win.txt',
      'deleted file mode 100644',
      '--- a/win.txt',
      '+++ /dev/null',
      '@@ -1,3 +0,0 @@',
      '-one',
      '-two',
      '-three',
      notesPatch,
    ].join('\n');
    const set = await buildChangeSet([{ id: 'art_p', name: 'changes.diff' }], sources({ art_p: patch }));
    assert.deepStrictEqual(
      set.files.map((f) => f.fileId),
      ['file_notes'],
    );
    assert.deepStrictEqual(
      set.problems.map((p) => [p.code, p.file]),
      [
        ['unsupportedPatch', 'fresh.md'],
        ['unsupportedPatch', 'win.txt'],
      ],
    );
    assert.match(set.problems[1].message, /deletes win\.txt/);
  });

  it('reports a patch that does not apply to the file as sent', async () => {
    const stale = patchOf('notes.md', ['@@ -1,3 +1,3 @@', ' alpha', '-bravo', '+BRAVO', ' gamma']);
    const set = await buildChangeSet([{ id: 'art_p', name: 'changes.diff' }], sources({ art_p: stale }));
    assert.deepStrictEqual(set.files, []);
    assert.deepStrictEqual(
      set.problems.map((p) => [p.code, p.file]),
      [['patchDoesNotApply', 'notes.md']],
    );
    assert.match(set.problems[0].message, /does not apply to notes\.md as it was sent/);
  });

  it('reports a patch that does not parse, or is binary, as one problem', async () => {
    const set = await buildChangeSet(
      [
        { id: 'art_a', name: 'a.diff' },
        { id: 'art_b', name: 'b.diff' },
      ],
      sources({ art_a: 'not a diff at all\n', art_b: new Uint8Array([0, 1, 2]) }),
    );
    assert.deepStrictEqual(set.files, []);
    assert.deepStrictEqual(
      set.problems.map((p) => [p.code, p.artifactId]),
      [
        ['patchUnparsable', 'art_a'],
        ['patchUnparsable', 'art_b'],
      ],
    );
  });

  it('refuses to patch a file that was sent as binary', async () => {
    const patch = patchOf('pic.bin', ['@@ -1 +1 @@', '-x', '+y']);
    const set = await buildChangeSet([{ id: 'art_p', name: 'p.diff' }], sources({ art_p: patch }));
    assert.deepStrictEqual(
      set.problems.map((p) => [p.code, p.file]),
      [['notText', 'pic.bin']],
    );
  });

  it('keeps one version per workspace file: a revision first, later ones reported as duplicates', async () => {
    const set = await buildChangeSet(
      [
        { id: 'art_p', name: 'changes.diff' },
        { id: 'art_1', name: 'notes.md', source_file_id: 'file_notes' },
        { id: 'art_2', name: 'notes.md', source_file_id: 'file_notes' },
      ],
      sources({ art_p: notesPatch + notesPatch, art_1: 'one\n', art_2: 'two\n' }),
    );
    assert.deepStrictEqual(
      set.files.map((f) => f.source.artifactId),
      ['art_1'],
    );
    assert.deepStrictEqual(
      set.problems.map((p) => [p.code, p.artifactId]),
      [
        ['duplicate', 'art_2'],
        ['duplicate', 'art_p'],
        ['duplicate', 'art_p'],
      ],
    );
  });

  it('cannot tell two attachments with the same filename apart unless the patch gives the workspace path', async () => {
    const twins = new Map(origins);
    twins.set('file_a', origin('file_a', 'a/readme.md'));
    twins.set('file_b', origin('file_b', 'b/readme.md'));
    const both: TaskAttachment[] = [
      { fileId: 'file_a', filename: 'readme.md' },
      { fileId: 'file_b', filename: 'readme.md' },
    ];
    const src = sources(
      { art_p: patchOf('readme.md', ['@@ -1 +1 @@', '-x', '+y']) },
      { originOf: (id) => twins.get(id), attachments: both },
    );
    const set = await buildChangeSet([{ id: 'art_p', name: 'p.diff' }], src);
    assert.deepStrictEqual(
      set.problems.map((p) => p.code),
      ['ambiguousFile'],
    );
    const withPath = sources(
      { art_p: patchOf('b/readme.md', ['@@ -1 +1 @@', '-x', '+y']) },
      { originOf: (id) => twins.get(id), attachments: both },
    );
    const placed = await buildChangeSet([{ id: 'art_p', name: 'p.diff' }], {
      ...withPath,
      readAsSent: async () => enc('x\n'),
    });
    assert.deepStrictEqual(placed.problems, []);
    assert.deepStrictEqual(
      placed.files.map((f) => [f.fileId, dec(f.agentBytes)]),
      [['file_b', 'y\n']],
    );
  });

  it('reports a patch when the task attachments are not known, a revision of a file from elsewhere, and failed reads', async () => {
    const set = await buildChangeSet(
      [
        { id: 'art_p', name: 'p.diff' },
        { id: 'art_x', name: 'other.md', source_file_id: 'file_other_machine' },
        { id: 'art_gone', name: 'notes.md', source_file_id: 'file_notes' },
      ],
      sources({ art_p: notesPatch }, { attachments: undefined }),
    );
    assert.deepStrictEqual(set.files, []);
    assert.deepStrictEqual(
      set.problems.map((p) => [p.code, p.artifactId]),
      [
        ['unknownSource', 'art_x'],
        ['readFailed', 'art_gone'],
        ['noAttachments', 'art_p'],
      ],
    );
    assert.match(set.problems[1].message, /404 for art_gone/);
    assert.deepStrictEqual(
      set.artifacts.map((a) => a.kind),
      ['patch', 'unknownSource', 'revision'],
    );
  });

  it('reads each upload as sent once however many patches touch it', async () => {
    const stale = patchOf('notes.md', ['@@ -1,3 +1,3 @@', ' alpha', '-bravo', '+BRAVO', ' gamma']);
    const src = sources({ art_p: stale, art_q: winPatch, art_r: notesPatch });
    const set = await buildChangeSet(
      [
        { id: 'art_p', name: 'p.diff' },
        { id: 'art_q', name: 'q.diff' },
        { id: 'art_r', name: 'r.diff' },
      ],
      src,
    );
    assert.deepStrictEqual(
      set.files.map((f) => [f.fileId, f.source.artifactId]),
      [
        ['file_win', 'art_q'],
        ['file_notes', 'art_r'],
      ],
    );
    assert.deepStrictEqual(src.asSentReads.sort(), ['file_notes', 'file_win']);
  });
});
