// src/review stays free of vscode: its sentences go through the Translate it is given (the
// extension passes vscode.l10n.t), so a German editor gets German review messages.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Translate } from '../../../src/common/translate';
import { untranslated } from '../../../src/common/translate';
import { buildChangeSet } from '../../../src/review/changeSet';
import { reviewFile, sha256Hex } from '../../../src/review/fileReview';
import { applyPatchPart, parsePatchText, unsupportedReason } from '../../../src/review/patchFile';
import { checkWriteTarget } from '../../../src/review/safeTarget';
import { decodeText } from '../../../src/review/textCodec';

/** Marks every sentence it was asked for, so a test sees which ones went through it. */
const seen: string[] = [];
const marked: Translate = (message, ...args) => {
  seen.push(message);
  return `«${untranslated(message, ...args)}»`;
};

const enc = (text: string) => new TextEncoder().encode(text);

describe('review sentences go through the given Translate', () => {
  beforeEach(() => (seen.length = 0));

  it('decodeText, reviewFile and its notes', () => {
    const result = decodeText(new Uint8Array([0x61, 0, 0x62]), marked);
    assert.ok(!result.ok && /^«The file is binary/.test(result.message));
    const sent = enc('a\r\nb\r\n');
    const origin = {
      fileId: 'file_1',
      uri: 'file:///ws/a.md',
      workspaceFolder: 'file:///ws',
      relativePath: 'a.md',
      sha256: sha256Hex(sent),
      bytes: sent.length,
      uploadedAt: '2026-11-23T07:00:00Z',
    };
    const gone = reviewFile({ origin, workspaceBytes: undefined, agentBytes: enc('x'), t: marked });
    assert.ok(
      gone.status === 'gone' &&
        gone.message === '«a.md is no longer in the workspace (deleted or renamed since it was uploaded).»',
    );
    const ready = reviewFile({ origin, workspaceBytes: sent, agentBytes: enc('a\nB\n'), t: marked });
    assert.ok(ready.status === 'ready' && ready.notes.every((n) => n.startsWith('«')), JSON.stringify(ready));
  });

  it('patch parsing and applying', async () => {
    const bad = parsePatchText('not a patch at all', marked);
    assert.ok(!bad.ok && bad.message.startsWith('«'));
    const parsed = parsePatchText('--- a/x.md\n+++ b/x.md\n@@ -1 +1 @@\n-one\n+ONE\n', marked);
    assert.ok(parsed.ok);
    const applied = await applyPatchPart(parsed.parts[0], 'two\n', marked);
    assert.ok(!applied.ok && applied.message.startsWith('«The patch does not apply to x.md'));
    const created = parsePatchText('--- /dev/null\n+++ b/new.md\n@@ -0,0 +1 @@\n+new\n', marked);
    assert.ok(created.ok && unsupportedReason(created.parts[0], marked)?.startsWith('«The patch creates'));
  });

  it('the change set and the write target check', async () => {
    const set = await buildChangeSet([{ id: 'art_1', name: 'x.patch', content_type: 'text/x-diff' }], {
      originOf: () => undefined,
      attachments: undefined,
      readArtifact: async () => enc('--- a/x.md\n+++ b/x.md\n@@ -1 +1 @@\n-one\n+ONE\n'),
      readAsSent: async () => enc('one\n'),
      t: marked,
    });
    assert.ok(
      set.problems.length > 0 && set.problems.every((p) => p.message.startsWith('«')),
      JSON.stringify(set.problems),
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'review-t-'));
    try {
      const check = await checkWriteTarget(dir, '../outside.md', { t: marked });
      assert.ok(!check.ok && check.message.startsWith('«../outside.md is outside'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
