// Review comments: caps with clear sentences, anchoring by quote, fates in the next revision,
// and the bounded instructions text that carries them.
import * as assert from 'node:assert';
import { untranslated } from '../../../src/common/translate';
import {
  anchorComment,
  batchProblem,
  COMMENT_LIMITS,
  commentFate,
  commentInstructions,
  commentProblem,
  cutNote,
  FATE_LIMITS,
  isCommentId,
  newCommentId,
  NOTE_CUT_MARK,
  quoteLines,
  readVerdicts,
  type ReviewComment,
  textLines,
  toWire,
} from '../../../src/reviewComments/reviewComments';

const t = untranslated;

function comment(over: Partial<ReviewComment> = {}): ReviewComment {
  return {
    id: newCommentId(),
    runId: 'run_1',
    path: 'docs/app.txt',
    side: 'agent',
    startLine: 2,
    endLine: 3,
    quote: 'beta\ngamma',
    body: 'Say this more plainly.',
    ...over,
  };
}

const FILE = 'alpha\nbeta\ngamma\ndelta\n';

describe('review comments', () => {
  describe('the model and its caps', () => {
    it('makes rc_ ids and checks them', () => {
      const id = newCommentId();
      assert.ok(isCommentId(id), id);
      assert.ok(!isCommentId('rc_x'));
      assert.ok(!isCommentId(`${id} `));
    });

    it('quotes 1-based inclusive lines, refusing ranges outside the file', () => {
      const lines = textLines(FILE);
      assert.deepEqual(lines, ['alpha', 'beta', 'gamma', 'delta']);
      assert.equal(quoteLines(lines, 2, 3), 'beta\ngamma');
      assert.equal(quoteLines(lines, 4, 5), undefined);
      assert.equal(quoteLines(lines, 0, 1), undefined);
      assert.equal(quoteLines(lines, 3, 2), undefined);
      assert.deepEqual(textLines('a\r\nb'), ['a', 'b']);
    });

    it('accepts a body of exactly 16 KiB and refuses one byte more, saying the size', () => {
      assert.equal(commentProblem(comment({ body: 'x'.repeat(COMMENT_LIMITS.bodyBytes) }), t), undefined);
      const over = commentProblem(comment({ body: 'x'.repeat(COMMENT_LIMITS.bodyBytes + 1) }), t);
      assert.match(over ?? '', /docs\/app\.txt is 16\.0 KiB; a comment may be at most 16 KiB/);
      // Bytes, not characters: 6,000 euro signs are 18,000 bytes.
      assert.match(commentProblem(comment({ body: '€'.repeat(6000) }), t) ?? '', /17\.6 KiB/);
    });

    it('accepts a quote of exactly 4 KiB and asks for fewer lines past it', () => {
      assert.equal(commentProblem(comment({ quote: 'q'.repeat(COMMENT_LIMITS.quoteBytes) }), t), undefined);
      assert.match(
        commentProblem(comment({ quote: 'q'.repeat(COMMENT_LIMITS.quoteBytes + 1) }), t) ?? '',
        /at most 4 KiB\. Comment on fewer lines/,
      );
    });

    it('refuses empty bodies, bad ranges and paths outside the tree', () => {
      assert.match(commentProblem(comment({ body: ' \n ' }), t) ?? '', /is empty/);
      assert.match(commentProblem(comment({ startLine: 3, endLine: 2 }), t) ?? '', /no valid lines/);
      for (const path of ['', '/etc/passwd', '../x', 'a/../b', 'a//b', 'C:/x', 'a\\b', 'a\u0000b']) {
        assert.match(commentProblem(comment({ path }), t) ?? '', /cannot know/, JSON.stringify(path));
      }
    });

    it('sends at most 100 comments, and says how many there were', () => {
      const hundred = Array.from({ length: COMMENT_LIMITS.count }, () => comment());
      assert.equal(batchProblem(hundred, t), undefined);
      assert.match(
        batchProblem([...hundred, comment()], t) ?? '',
        /^101 comments are more than one follow-up may carry \(100\)/,
      );
      assert.match(batchProblem([], t) ?? '', /no comments/);
      const one = comment();
      assert.match(batchProblem([one, { ...one }], t) ?? '', /share the id/);
    });

    it('puts the wire fields in the protocol names', () => {
      const c = comment();
      assert.deepEqual(toWire(c), {
        id: c.id,
        path: 'docs/app.txt',
        start_line: 2,
        end_line: 3,
        side: 'agent',
        quote: 'beta\ngamma',
        body: 'Say this more plainly.',
      });
    });
  });

  describe('anchoring by quote', () => {
    it('stays where it was when the lines still read as quoted', () => {
      assert.deepEqual(anchorComment(comment(), FILE), { state: 'exact', startLine: 2, endLine: 3 });
    });

    it('follows the quote when lines were added above', () => {
      assert.deepEqual(anchorComment(comment(), `new\nnew\n${FILE}`), { state: 'moved', startLine: 4, endLine: 5 });
    });

    it('picks the occurrence nearest to where it was', () => {
      const text = 'beta\ngamma\nx\nx\nx\nx\nbeta\ngamma\n';
      assert.deepEqual(anchorComment(comment({ startLine: 6, endLine: 7 }), text), {
        state: 'moved',
        startLine: 7,
        endLine: 8,
      });
    });

    it('is outdated when the quoted lines changed or are gone', () => {
      assert.deepEqual(anchorComment(comment(), 'alpha\nbeta\nGAMMA\n'), { state: 'outdated' });
      assert.deepEqual(anchorComment(comment(), ''), { state: 'outdated' });
      // A quote whose line count does not match its range cannot be placed.
      assert.deepEqual(anchorComment(comment({ quote: 'beta' }), FILE), { state: 'outdated' });
    });

    it('matches CRLF files and an empty line by its empty quote', () => {
      assert.deepEqual(anchorComment(comment(), FILE.replace(/\n/g, '\r\n')), {
        state: 'exact',
        startLine: 2,
        endLine: 3,
      });
      assert.deepEqual(anchorComment(comment({ startLine: 2, endLine: 2, quote: '' }), 'a\n\nb\n'), {
        state: 'exact',
        startLine: 2,
        endLine: 2,
      });
    });
  });

  describe('fates in the next revision', () => {
    const next = 'alpha\nBeta, plainly.\ndelta\n';

    it("takes the agent's word first, with its note", () => {
      assert.deepEqual(commentFate(comment(), { verdict: { status: 'declined', note: 'kept' }, nextText: FILE }), {
        fate: 'declined',
        note: 'kept',
      });
      assert.deepEqual(commentFate(comment(), { verdict: { status: 'addressed' }, nextText: FILE }), {
        fate: 'addressed',
        by: 'agent',
      });
    });

    it('is addressed when the quoted lines changed, not changed when they are still there', () => {
      assert.deepEqual(commentFate(comment(), { previousText: FILE, nextText: next }), {
        fate: 'addressed',
        by: 'change',
      });
      assert.deepEqual(commentFate(comment(), { previousText: FILE, nextText: `top\n${FILE}` }), {
        fate: 'notChanged',
      });
    });

    it('is outdated when the file is gone or the comment no longer matched its own revision', () => {
      assert.deepEqual(commentFate(comment(), { previousText: FILE }), { fate: 'outdated' });
      assert.deepEqual(commentFate(comment(), { previousText: 'other\n', nextText: next }), { fate: 'outdated' });
    });

    it('judges a base-side comment only by whether its file changed', () => {
      const base = comment({ side: 'base' });
      assert.deepEqual(commentFate(base, { previousText: FILE, nextText: FILE }), { fate: 'notChanged' });
      assert.deepEqual(commentFate(base, { previousText: FILE, nextText: next }), { fate: 'outdated' });
    });
  });

  describe("the agent's verdicts from a follow-up's events", () => {
    const sent = comment();
    const other = comment();
    const ev = (data: Record<string, unknown>, event = 'review_comment.addressed') => ({ event, data });

    it('keeps the verdict and note of each comment sent with the follow-up, the last one winning', () => {
      const reading = readVerdicts(
        [
          ev({ comment_id: sent.id, status: 'declined', note: 'first' }),
          ev({ step_id: 'step_1', summary: 'x' }, 'observation.recorded'),
          ev({ comment_id: sent.id, status: 'addressed', note: 'Rewrote line 2.' }),
        ],
        new Set([sent.id]),
      );
      assert.deepEqual([...reading.verdicts], [[sent.id, { status: 'addressed', note: 'Rewrote line 2.' }]]);
    });

    it('ignores a comment id the follow-up was never sent, counting it for the log', () => {
      const reading = readVerdicts(
        [
          ev({ comment_id: other.id, status: 'addressed', note: 'not yours' }),
          ev({ comment_id: '__proto__', status: 'declined' }),
        ],
        new Set([sent.id]),
      );
      assert.strictEqual(reading.verdicts.size, 0);
      assert.strictEqual(reading.unknownCount, 2);
      assert.deepEqual(reading.unknownIds, [other.id, '__proto__']);
    });

    it('passes over an unknown status, a missing id and a note that is not text', () => {
      const reading = readVerdicts(
        [
          ev({ comment_id: sent.id, status: 'maybe' }),
          ev({ status: 'addressed' }),
          ev({ comment_id: other.id, status: 'declined', note: { html: '<b>' } }),
        ],
        new Set([sent.id, other.id]),
      );
      assert.strictEqual(reading.malformed, 2);
      assert.deepEqual([...reading.verdicts], [[other.id, { status: 'declined' }]]);
    });

    it('cuts a long note with a visible mark, never inside a surrogate pair', () => {
      const long = 'x'.repeat(FATE_LIMITS.noteChars - 1) + '😀' + 'tail';
      const cut = cutNote(long);
      assert.ok(cut.endsWith(NOTE_CUT_MARK));
      assert.strictEqual(cut, 'x'.repeat(FATE_LIMITS.noteChars - 1) + NOTE_CUT_MARK);
      const exact = 'y'.repeat(FATE_LIMITS.noteChars);
      assert.strictEqual(cutNote(exact), exact);
      const reading = readVerdicts([ev({ comment_id: sent.id, status: 'declined', note: long })], new Set([sent.id]));
      assert.strictEqual(reading.verdicts.get(sent.id)?.note, cut);
    });
  });

  describe('the instructions text', () => {
    it('names each file, its lines, side and id, quotes the lines and keeps the body', () => {
      const a = comment();
      const b = comment({ path: 'b.md', side: 'base', startLine: 1, endLine: 1, quote: 'x', body: 'Keep\nthis' });
      const out = commentInstructions([a, b], '  Also fix the title.  ');
      assert.equal(out.quotesLeftOut, false);
      assert.equal(out.bodiesShortened, 0);
      assert.ok(out.text.startsWith('Also fix the title.\n\nReview comments on the previous revision (2)'));
      assert.ok(
        out.text.includes(
          `1. docs/app.txt, lines 2-3 (the agent's version) [${a.id}]:\n   > beta\n   > gamma\n   Say this more plainly.\n`,
        ),
      );
      assert.ok(
        out.text.includes(`2. b.md, line 1 (the version before the agent) [${b.id}]:\n   > x\n   Keep\n   this\n`),
      );
    });

    it('leaves quotes out first, then shortens bodies, within the bound and saying so', () => {
      const many = Array.from({ length: 10 }, () => comment({ body: 'b'.repeat(500), quote: 'q'.repeat(500) }));
      const noQuotes = commentInstructions(many, undefined, 7000);
      assert.ok(noQuotes.text.length <= 7000);
      assert.equal(noQuotes.quotesLeftOut, true);
      assert.equal(noQuotes.bodiesShortened, 0);
      assert.ok(!noQuotes.text.includes('> q'));
      const short = commentInstructions(many, undefined, 3000);
      assert.ok(short.text.length <= 3000, String(short.text.length));
      assert.equal(short.bodiesShortened, 10);
      assert.ok(short.text.includes('[shortened here; the whole comment is in review_comments]'));
      for (const c of many) {
        assert.ok(short.text.includes(c.id), 'every comment is still named');
      }
    });

    it('stays within the default bound at the caps (100 comments of 16 KiB)', () => {
      const huge = Array.from({ length: 100 }, () =>
        comment({ body: 'b'.repeat(COMMENT_LIMITS.bodyBytes), quote: 'q'.repeat(COMMENT_LIMITS.quoteBytes) }),
      );
      const out = commentInstructions(huge, 'overall');
      assert.ok(out.text.length <= COMMENT_LIMITS.instructionsChars);
      assert.equal(out.bodiesShortened, 100);
    });
  });
});
