// What a review reads before it compares (src/reviewUi/runOutputs.ts), over HTTP against the
// reference runtime: the run's outputs and the "has reviewable changes" check end on a server
// that hands out a fresh cursor for ever (issue 27 item 2).
import * as assert from 'node:assert/strict';
import { DEFAULT_MAX_PAGES } from '../../../src/api/pagination';
import { hasReviewableOutputs, listRunOutputs, MAX_REVIEW_OUTPUTS } from '../../../src/reviewUi/runOutputs';
import { startRuntimeWithClient, waitFor, type RuntimeWithClient } from '../api/fixtures';

/** GETs of a run's artifact list the runtime answered so far. */
function artifactListRequests(lines: readonly string[]): number {
  return lines.filter((line) => /^GET \/v1\/runs\/[^/]+\/artifacts /.test(line)).length;
}

describe('reviewUi/runOutputs (reference runtime)', () => {
  let ctx: RuntimeWithClient;
  const log: string[] = [];
  /** Aborts a walk that asks three times the page cap: a red test ends instead of hanging. */
  let guard: AbortController;

  beforeEach(async () => {
    log.length = 0;
    guard = new AbortController();
    ctx = await startRuntimeWithClient({
      log: (line) => {
        log.push(line);
        if (artifactListRequests(log) > 3 * DEFAULT_MAX_PAGES) guard.abort(new Error(`the walk did not end: ${artifactListRequests(log)} list requests`));
      },
    });
  });
  afterEach(() => ctx.close());

  async function finishedRun(objective: string, files: Record<string, string>): Promise<{ runId: string }> {
    const fileIds: string[] = [];
    for (const [name, text] of Object.entries(files)) fileIds.push((await ctx.client.uploadBytes(Buffer.from(text), { filename: name, purpose: 'task_input' })).id);
    const task = await ctx.client.createTask({ objective, attachments: fileIds.map((fileId) => ({ type: 'document', fileId })) });
    const runId = String(task.run_id);
    await waitFor(async () => (await ctx.client.getRun(runId)).status === 'completed', `run ${runId} to complete`);
    return { runId };
  }

  it('a review\'s list of outputs ends on a fresh cursor for ever, and says it was cut (loadSession)', async () => {
    const { runId } = await finishedRun('Tidy up', { 'a.md': '# A\n\none\ntwo\n' });
    const whole = await listRunOutputs(ctx.client, runId, guard.signal);
    assert.equal(whole.cut, false);
    assert.equal(whole.artifacts.length, 4, 'the revision, changes.patch, report.md, summary.json');

    ctx.runtime.setHostile({ freshCursor: '/v1/runs/' });
    log.length = 0;
    const counted: number[] = [];
    const cut = await listRunOutputs(ctx.client, runId, guard.signal, (n) => counted.push(n));
    assert.equal(cut.cut, true, 'the review is told it read only the first outputs');
    assert.ok(artifactListRequests(log) <= DEFAULT_MAX_PAGES, `${artifactListRequests(log)} list requests`);
    assert.ok(cut.artifacts.length <= MAX_REVIEW_OUTPUTS);
    assert.equal(counted.at(-1), cut.artifacts.length);
  });

  it('"has reviewable changes" at a run\'s end ends on a fresh cursor for ever, with a signal (hasReviewableChanges)', async () => {
    const { runId } = await finishedRun('Report only', {});
    const nothingFromHere = () => undefined;
    assert.equal(await hasReviewableOutputs(ctx.client, runId, nothingFromHere, guard.signal), false, 'report.md and summary.json only');

    ctx.runtime.setHostile({ freshCursor: '/v1/runs/' });
    log.length = 0;
    // The list never ends: cut by the cap, the check says "maybe" (the review then says what it read).
    assert.equal(await hasReviewableOutputs(ctx.client, runId, nothingFromHere, guard.signal), true);
    assert.ok(artifactListRequests(log) <= DEFAULT_MAX_PAGES, `${artifactListRequests(log)} list requests`);

    const stop = new AbortController();
    stop.abort();
    await assert.rejects(hasReviewableOutputs(ctx.client, runId, nothingFromHere, stop.signal), (err: Error) => err.name === 'ApiError');
  });
});
