// The reference runtime's review comments: the built-in agent's rule (README "Review comments")
// and hostile mode's review_comment.addressed events.
import * as assert from 'node:assert';
import { BIDI_OVERRIDE, HOSTILE_COMMENT_ID } from '../hostile';
import { type RuntimeHandle, startRuntime } from '../index';
import { actOnComments, REVISED_MARK, type RuntimeReviewComment } from '../reviewComments';
import { runToEnd } from './runtimeTestKit';

const comment = (over: Partial<RuntimeReviewComment>): RuntimeReviewComment => ({
  id: 'rc_1',
  path: 'a.txt',
  start_line: 2,
  end_line: 3,
  side: 'agent',
  quote: 'b\nc',
  body: 'Change these.',
  ...over,
});

describe('runtime: review comments', () => {
  describe("the agent's rule", () => {
    it('marks each commented line once and keeps the line ends', () => {
      const out = actOnComments('a\r\nb\r\nc\r\nd\r\n', [comment({})]);
      assert.strictEqual(out.text, `a\r\nb${REVISED_MARK}\r\nc${REVISED_MARK}\r\nd\r\n`);
      assert.deepStrictEqual(out.verdicts, [
        { comment_id: 'rc_1', status: 'addressed', note: 'Rewrote lines 2-3 of a.txt.' },
      ]);
      const twice = actOnComments(out.text, [comment({ quote: `b${REVISED_MARK}\nc${REVISED_MARK}` })]);
      assert.strictEqual(twice.text, out.text, 'never marked twice');
    });

    it('declines "leave it" and leaves base-side and moved lines to the reviewer', () => {
      const out = actOnComments('a\nb\nc\n', [
        comment({ id: 'rc_keep', body: 'Please LEAVE IT as it is' }),
        comment({ id: 'rc_base', side: 'base' }),
        comment({ id: 'rc_moved', quote: 'x\ny' }),
        comment({ id: 'rc_past', start_line: 3, end_line: 9 }),
      ]);
      assert.strictEqual(out.text, 'a\nb\nc\n');
      assert.deepStrictEqual(out.verdicts, [
        { comment_id: 'rc_keep', status: 'declined', note: 'Left as it is, as the comment asked.' },
      ]);
    });
  });

  describe('hostile mode', () => {
    let rt: RuntimeHandle | undefined;
    afterEach(async () => {
      await rt?.close();
      rt = undefined;
    });

    it('opens streams with events naming unknown comments, markup, bidi and a huge note, then a thousand more', async () => {
      rt = await startRuntime({ hostile: { reviewCommentEvents: 1000 } });
      const runId = await rt.createSyntheticRun({ events: 2 });
      const named = (await runToEnd(rt, runId)).events.filter((e) => e.event === 'review_comment.addressed');
      assert.strictEqual(named.length, 1006);
      assert.ok(
        named.some((e) => e.data.comment_id === HOSTILE_COMMENT_ID && String(e.data.note).includes(BIDI_OVERRIDE)),
      );
      assert.ok(named.some((e) => typeof e.data.note === 'string' && e.data.note.length === 1024 * 1024));
      assert.ok(named.some((e) => e.data.comment_id === 42));
      assert.ok(named.some((e) => e.data.comment_id === '__proto__'));
    });
  });
});
