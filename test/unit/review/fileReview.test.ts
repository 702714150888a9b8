// One workspace file under review: two-way when it is as uploaded, merged when it changed,
// refused with a reason when it is gone or not text; written back the way the file is.
import * as assert from 'node:assert';
import type { FileReview, ReadyReview } from '../../../src/review/fileReview';
import { applyReviewHunks, reviewFile, sha256Hex } from '../../../src/review/fileReview';
import type { UploadOrigin } from '../../../src/review/types';

const enc = (text: string) => new TextEncoder().encode(text);
const dec = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function originFor(sent: Uint8Array): UploadOrigin {
  return {
    fileId: 'file_1',
    uri: 'file:///ws/doc.md',
    workspaceFolder: 'file:///ws',
    relativePath: 'doc.md',
    sha256: sha256Hex(sent),
    bytes: sent.length,
    uploadedAt: '2026-11-23T07:00:00Z',
  };
}

function ready(review: FileReview): ReadyReview {
  assert.strictEqual(review.status, 'ready', JSON.stringify(review));
  return review;
}

describe('review of one file', () => {
  it('keeps a CRLF file CRLF when the agent answers with LF, and diffs only the real change', () => {
    const sent = enc('one\r\ntwo\r\nthree\r\n');
    const review = ready(
      reviewFile({ origin: originFor(sent), workspaceBytes: sent, agentBytes: enc('one\nTWO\nthree\n') }),
    );
    assert.strictEqual(review.changedSinceUpload, false);
    assert.strictEqual(review.hunks.length, 1);
    assert.deepStrictEqual(review.hunks[0].old, { start: 2, count: 1 });
    assert.strictEqual(dec(review.proposedBytes), 'one\r\nTWO\r\nthree\r\n');
    assert.strictEqual(dec(applyReviewHunks(review, [review.hunks[0].id])), 'one\r\nTWO\r\nthree\r\n');
    assert.match(review.notes.join(' '), /uses LF line ends; doc\.md keeps CRLF/);
  });

  it('keeps a missing final newline missing unless the agent changed it', () => {
    const sent = enc('a\nb\nc');
    const kept = ready(reviewFile({ origin: originFor(sent), workspaceBytes: sent, agentBytes: enc('A\nb\nc') }));
    assert.strictEqual(
      dec(
        applyReviewHunks(
          kept,
          kept.hunks.map((h) => h.id),
        ),
      ),
      'A\nb\nc',
    );
    const added = ready(reviewFile({ origin: originFor(sent), workspaceBytes: sent, agentBytes: enc('A\nb\nc\n') }));
    assert.strictEqual(added.hunks.length, 2);
    assert.strictEqual(dec(applyReviewHunks(added, [added.hunks[0].id])), 'A\nb\nc');
    assert.strictEqual(
      dec(
        applyReviewHunks(
          added,
          added.hunks.map((h) => h.id),
        ),
      ),
      'A\nb\nc\n',
    );
  });

  it('applying no hunk gives back the very bytes read, even for mixed line ends', () => {
    const sent = enc('a\r\nb\nc\r\n');
    const review = ready(reviewFile({ origin: originFor(sent), workspaceBytes: sent, agentBytes: enc('a\nB\nc\n') }));
    assert.strictEqual(applyReviewHunks(review, []), sent);
    assert.strictEqual(applyReviewHunks(review, ['not-a-hunk']), sent);
    assert.match(review.notes.join(' '), /mixes CRLF and LF/);
    assert.strictEqual(dec(applyReviewHunks(review, [review.hunks[0].id])), 'a\r\nB\r\nc\r\n');
  });

  it('keeps a byte order mark the workspace file has', () => {
    const sent = new Uint8Array([0xef, 0xbb, 0xbf, ...enc('x\n')]);
    const review = ready(reviewFile({ origin: originFor(sent), workspaceBytes: sent, agentBytes: enc('y\n') }));
    assert.deepStrictEqual(
      applyReviewHunks(
        review,
        review.hunks.map((h) => h.id),
      ),
      new Uint8Array([0xef, 0xbb, 0xbf, ...enc('y\n')]),
    );
  });

  it('says identical when the agent version is the workspace text (line ends aside)', () => {
    const sent = enc('same\r\n');
    assert.strictEqual(
      reviewFile({ origin: originFor(sent), workspaceBytes: sent, agentBytes: enc('same\n') }).status,
      'identical',
    );
  });

  it('reports a workspace file that is gone (deleted or renamed)', () => {
    const review = reviewFile({ origin: originFor(enc('x')), workspaceBytes: undefined, agentBytes: enc('y') });
    assert.strictEqual(review.status, 'gone');
    assert.match(review.status === 'gone' ? review.message : '', /deleted or renamed/);
  });

  it('refuses binary and non-UTF-8 files on either side, saying which', () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    const ws = reviewFile({ origin: originFor(latin1), workspaceBytes: latin1, agentBytes: enc('cafe\n') });
    assert.deepStrictEqual(ws.status === 'notText' && [ws.side, ws.reason], ['workspace', 'notUtf8']);
    const sent = enc('text\n');
    const agent = reviewFile({
      origin: originFor(sent),
      workspaceBytes: sent,
      agentBytes: new Uint8Array([0x00, 0x01]),
    });
    assert.deepStrictEqual(agent.status === 'notText' && [agent.side, agent.reason], ['agent', 'binary']);
  });

  it('asks for the file as sent when the workspace file changed since upload', () => {
    const sent = enc('a\nb\n');
    const review = reviewFile({
      origin: originFor(sent),
      workspaceBytes: enc('a\nb\nmine\n'),
      agentBytes: enc('A\nb\n'),
    });
    assert.strictEqual(review.status, 'needsAsSent');
  });

  it('merges the agent version onto a file edited since upload, and reports conflicts with markers ready', () => {
    const sent = enc('a\nb\nc\nd\ne\n');
    const workspace = enc('a\nb-mine\nc\nd\ne\nmine\n');
    const agent = enc('A\nb-agent\nc\nd\ne\n');
    const review = ready(
      reviewFile({ origin: originFor(sent), workspaceBytes: workspace, agentBytes: agent, asSentBytes: sent }),
    );
    assert.strictEqual(review.changedSinceUpload, true);
    assert.strictEqual(review.conflicts.length, 1);
    assert.deepStrictEqual(review.conflicts[0].workspace, { start: 1, count: 2 });
    // The agent's line 1 and the workspace's line 2 overlap: kept as the workspace has them; nothing of "mine" is lost.
    assert.strictEqual(review.proposed, 'a\nb-mine\nc\nd\ne\nmine\n');
    assert.deepStrictEqual(review.hunks, []);
    assert.match(
      dec(review.conflictMarkedBytes ?? new Uint8Array()),
      /<<<<<<< workspace\na\nb-mine\n=======\nA\nb-agent\n>>>>>>> agent\n/,
    );
  });

  it("merges cleanly when the edits since upload do not touch the agent's lines", () => {
    const sent = enc('a\nb\nc\nd\ne\n');
    const workspace = enc('a\nb\nc\nd\ne\nmine\n');
    const review = ready(
      reviewFile({
        origin: originFor(sent),
        workspaceBytes: workspace,
        agentBytes: enc('A\nb\nc\nd\ne\n'),
        asSentBytes: sent,
      }),
    );
    assert.deepStrictEqual(review.conflicts, []);
    assert.strictEqual(review.conflictMarkedBytes, undefined);
    assert.strictEqual(
      dec(
        applyReviewHunks(
          review,
          review.hunks.map((h) => h.id),
        ),
      ),
      'A\nb\nc\nd\ne\nmine\n',
    );
  });
});
