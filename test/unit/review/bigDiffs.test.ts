// The review diff has a bound: versions too different to diff line by line
// say so (open or save the file instead) rather than block the extension host, and very long
// texts never reach a spread of their lines as arguments (RangeError past ~130,000).
import * as assert from 'node:assert';
import type { ReadyReview } from '../../../src/review/fileReview';
import { applyReviewHunks, reviewFile, sha256Hex } from '../../../src/review/fileReview';
import { computeHunks, MAX_EDIT_LINES, TooDifferentError } from '../../../src/review/hunks';
import { mergeThreeWay } from '../../../src/review/threeWay';
import type { UploadOrigin } from '../../../src/review/types';

const enc = (text: string) => Buffer.from(text, 'utf8');
const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} ${i}\n`).join('');

function originFor(sent: Uint8Array): UploadOrigin {
  return {
    fileId: 'file_1',
    uri: 'file:///ws/big.txt',
    workspaceFolder: 'file:///ws',
    relativePath: 'big.txt',
    sha256: sha256Hex(sent),
    bytes: sent.length,
    uploadedAt: '2026-11-23T07:00:00Z',
  };
}

describe('review diffs with a bound', () => {
  it('a rewrite past the edit bound is "too different to review line by line", not a long block', () => {
    const rewriteLines = MAX_EDIT_LINES + 1000; // every line removed and added: twice that many edits
    const sent = enc(lines(rewriteLines, 'old'));
    const review = reviewFile({
      origin: originFor(sent),
      workspaceBytes: sent,
      agentBytes: enc(lines(rewriteLines, 'new')),
    });
    assert.strictEqual(review.status, 'tooDifferent', review.status);
    assert.strictEqual(
      (review as { message: string }).message,
      'big.txt is too different to review line by line: open or save it.',
    );
    assert.throws(() => computeHunks(lines(rewriteLines, 'a'), lines(rewriteLines, 'b')), TooDifferentError);
    assert.throws(
      () => mergeThreeWay(lines(rewriteLines, 'a'), lines(rewriteLines, 'a'), lines(rewriteLines, 'b')),
      TooDifferentError,
    );
  });

  it('a changed file within the bound is still reviewed hunk by hunk', () => {
    const sent = enc(lines(5000, 'line'));
    const agent = enc(lines(5000, 'line').replace('line 10\n', 'LINE 10\n').replace('line 4000\n', ''));
    const review = reviewFile({ origin: originFor(sent), workspaceBytes: sent, agentBytes: agent }) as ReadyReview;
    assert.strictEqual(review.status, 'ready');
    assert.strictEqual(review.hunks.length, 2);
  });

  it('a 1,000,000-line agent version of a short file does not throw: it is too different', () => {
    const sent = enc('# Notes\n\none\ntwo\n');
    const review = reviewFile({
      origin: originFor(sent),
      workspaceBytes: sent,
      agentBytes: enc(lines(1_000_000, 'agent')),
    });
    assert.strictEqual(review.status, 'tooDifferent');
  });

  it('a 200,000-line file with one change near its end is reviewed and applied without a spread of its lines', () => {
    const text = lines(200_000, 'line');
    const sent = enc(text);
    const agentText = text.replace('line 190000\n', 'changed\n');
    const review = reviewFile({
      origin: originFor(sent),
      workspaceBytes: sent,
      agentBytes: enc(agentText),
    }) as ReadyReview;
    assert.strictEqual(review.status, 'ready');
    assert.strictEqual(review.hunks.length, 1);
    assert.ok(Buffer.from(applyReviewHunks(review, [review.hunks[0].id])).equals(enc(agentText)));
    // The same file edited here too (near its start): merged three ways.
    const workspaceText = text.replace('line 5\n', 'mine\n');
    const merged = mergeThreeWay(text, workspaceText, agentText);
    assert.strictEqual(merged.clean, true);
    assert.strictEqual(merged.text, workspaceText.replace('line 190000\n', 'changed\n'));
  });
});
