// Talking back to the agent over HTTP: a fork after the last step of a completed run carries
// review comments; the reference runtime's agent acts on them (README "Review comments"), logs
// review_comment.addressed, and the new run's revision is whole against the file as sent, so it
// can be compared with the previous one.
import * as assert from 'node:assert/strict';
import { isApiError } from '../../../src/api/errors';
import type { RunRecord } from '../../../src/api/types';
import { applyPatchPart, parsePatchText } from '../../../src/review/patchFile';
import {
  commentFate,
  commentInstructions,
  newCommentId,
  quoteLines,
  type ReviewComment,
  textLines,
  toWire,
} from '../../../src/reviewComments/reviewComments';
import { REVISED_MARK } from '../../runtime/reviewComments';
import { runToEnd } from '../../runtime/test/runtimeTestKit';
import { rejectionOf, type RuntimeWithClient, startRuntimeWithClient, waitFor } from './fixtures';

const AS_SENT = ['# App', '', 'The app starts slowly.', 'It reads every file twice.', 'Nobody knows why.', ''].join(
  '\n',
);

describe('api/review comments: a follow-up that carries them', () => {
  let ctx: RuntimeWithClient;
  before(async () => {
    ctx = await startRuntimeWithClient();
  });
  after(async () => ctx.close());

  const finished = async (runId: string): Promise<RunRecord> => {
    let run: RunRecord | undefined;
    await waitFor(async () => {
      run = await ctx.client.getRun(runId);
      return run.status === 'completed' || run.status === 'failed';
    }, `run ${runId} to finish`);
    return run!;
  };

  const revisionOf = async (runId: string, name: string): Promise<string | undefined> => {
    const page = await ctx.client.listRunArtifacts(runId, { limit: 50 });
    const artifact = page.data.find((a) => a.name === name);
    if (!artifact?.file_id) {
      return undefined;
    }
    return new TextDecoder().decode((await ctx.client.readFileContent(artifact.file_id)).content);
  };

  /** The sequence of the run's last event before its terminal one: a fork there goes on from its result. */
  const lastStep = (runId: string): number => {
    const log = ctx.runtime.eventLog(runId).filter((e) => !e.event.startsWith('run.'));
    return log[log.length - 1].sequence;
  };

  const completedRun = async (): Promise<{ runId: string; fileId: string; revision: string }> => {
    const file = await ctx.client.uploadBytes(new TextEncoder().encode(AS_SENT), { filename: 'app.txt' });
    const task = await ctx.client.createTask({
      objective: 'Tidy app.txt',
      attachments: [{ type: 'document', fileId: file.id }],
    });
    const runId = task.run_id!;
    assert.equal((await finished(runId)).status, 'completed');
    const revision = await revisionOf(runId, 'app.txt');
    assert.ok(revision !== undefined, 'the agent revised app.txt');
    return { runId, fileId: file.id, revision };
  };

  const commentOn = (runId: string, text: string, line: number, body: string, path = 'app.txt'): ReviewComment => ({
    id: newCommentId(),
    runId,
    path,
    side: 'agent',
    startLine: line,
    endLine: line,
    quote: quoteLines(textLines(text), line, line)!,
    body,
  });

  it('acts on each comment, says so per comment, and makes a whole revision against the file as sent', async () => {
    const { runId, revision } = await completedRun();
    const lines = textLines(revision);
    const slow = lines.findIndex((l) => l.startsWith('The app starts slowly.')) + 1;
    const nobody = lines.indexOf('Nobody knows why.') + 1;
    assert.ok(slow > 0 && nobody > 0, revision);
    const fix = commentOn(runId, revision, slow, 'Say how slowly.');
    const keep = commentOn(runId, revision, nobody, 'Fine as it is, leave it.');
    const stray = commentOn(runId, revision, 1, 'Also this one.', 'other.txt');
    const comments = [fix, keep, stray];
    const instructions = commentInstructions(comments, 'Address the review.');
    const follow = await ctx.client.forkRun(runId, {
      after_sequence: lastStep(runId),
      instructions: instructions.text,
      reviewComments: comments.map(toWire),
    });
    assert.equal(follow.follow_up_of, runId);
    assert.equal(follow.forked_from?.run_id, runId);
    assert.equal((await finished(follow.id)).status, 'completed');

    const next = await revisionOf(follow.id, 'app.txt');
    assert.ok(next !== undefined);
    const nextLines = textLines(next);
    assert.equal(nextLines[slow - 1], `${lines[slow - 1]}${REVISED_MARK}`, 'the commented line is rewritten');
    assert.equal(nextLines[nobody - 1], 'Nobody knows why.', 'the declined one is left alone');
    assert.deepEqual(
      nextLines.filter((_, i) => i !== slow - 1),
      lines.filter((_, i) => i !== slow - 1),
      'revision 2 is revision 1 with that one line changed',
    );

    const verdicts = (await runToEnd(ctx.runtime, follow.id)).events
      .filter((e) => e.event === 'review_comment.addressed')
      .map((e) => e.data as { comment_id: string; status: string; note: string });
    assert.deepEqual(
      verdicts.map((v) => [v.comment_id, v.status]),
      [
        [fix.id, 'addressed'],
        [keep.id, 'declined'],
        [stray.id, 'declined'],
      ],
    );
    assert.match(verdicts[2].note, /no file other\.txt/);

    // The client's own judgement agrees with the revision, even without the events.
    assert.deepEqual(commentFate(fix, { previousText: revision, nextText: next }), { fate: 'addressed', by: 'change' });
    assert.deepEqual(commentFate(keep, { previousText: revision, nextText: next }), { fate: 'notChanged' });

    // Whole: the new patch turns the file as sent into revision 2.
    const patch = await revisionOf(follow.id, 'changes.patch');
    const parsed = parsePatchText(patch ?? '');
    assert.ok(parsed.ok);
    const applied = await applyPatchPart(parsed.parts[0], AS_SENT);
    assert.deepEqual(applied, { ok: true, text: next });
  });

  it('a retry with the same Idempotency-Key starts one follow-up, not two', async () => {
    const { runId, revision } = await completedRun();
    const body = {
      after_sequence: lastStep(runId),
      instructions: 'x',
      reviewComments: [toWire(commentOn(runId, revision, 1, 'Shorter title.'))],
    };
    const key = 'talk-back-retry-1';
    const first = await ctx.client.forkRun(runId, body, { idempotencyKey: key });
    const again = await ctx.client.forkRun(runId, body, { idempotencyKey: key });
    assert.equal(again.id, first.id);
    await finished(first.id);
  });

  it('resume carries comments too; malformed comments are a 400 on review_comments, over 100 refused before sending', async () => {
    const task = await ctx.client.createTask({ objective: 'Summarise; ask before writing any file' });
    const runId = task.run_id!;
    await waitFor(async () => (await ctx.client.getRun(runId)).status === 'awaiting_approval', 'the approval');
    await ctx.client.cancelRun(runId);
    const bad = await rejectionOf(
      ctx.client.resumeRun(runId, {
        reviewComments: [{ ...toWire(commentOn(runId, 'a\n', 1, 'b')), side: 'middle' as 'agent' }],
      }),
    );
    assert.ok(isApiError(bad, 'bad_request'));
    assert.equal(bad.param, 'review_comments');
    const many = Array.from({ length: 101 }, () => toWire(commentOn(runId, 'a\n', 1, 'b')));
    const local = await rejectionOf(ctx.client.resumeRun(runId, { reviewComments: many }));
    assert.ok(isApiError(local, 'validation'));
    assert.match(local.message, /at most 100/);
    const resumed = await ctx.client.resumeRun(runId, {
      instructions: 'Go on.',
      reviewComments: [toWire(commentOn(runId, 'a\n', 1, 'Note this.'))],
    });
    assert.equal(resumed.resumed_from, runId);
    assert.equal(resumed.follow_up_of, runId);
  });
});
