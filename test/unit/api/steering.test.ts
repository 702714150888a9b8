// Steering and spend against the reference runtime over HTTP: cancel, resume, fork, approvals,
// usage; their races (a decision retried after a dropped answer, two decisions at once, a run
// that just ended) and a server without the endpoints.
import * as assert from 'node:assert/strict';
import { isApiError } from '../../../src/api/errors';
import { decodeRunEvent } from '../../../src/api/runEventDecoding';
import { conflictApproval, parseUsage } from '../../../src/api/steering';
import { QUICK_BACKOFF, rejectionOf, type RuntimeWithClient, startRuntimeWithClient, waitFor } from './fixtures';

describe('api/steering', () => {
  let ctx: RuntimeWithClient;
  before(async () => {
    ctx = await startRuntimeWithClient({}, { backoff: QUICK_BACKOFF });
  });
  after(async () => ctx.close());
  afterEach(() => ctx.runtime.clearFaults());

  async function pendingRun(
    extra: { tool?: string; arguments?: Record<string, unknown> } = {},
  ): Promise<{ runId: string; approvalId: string }> {
    const runId = await ctx.runtime.createSyntheticRun({
      events: 3,
      terminal: 'completed',
      approval: { tool: extra.tool ?? 'write_file', arguments: extra.arguments ?? { path: 'out.txt' } },
    });
    await waitFor(
      () => ctx.runtime.listApprovals({ runId, status: 'pending' }).length === 1,
      'the approval to be asked',
    );
    return { runId, approvalId: ctx.runtime.listApprovals({ runId })[0].id };
  }

  function resolvedCount(runId: string): number {
    return ctx.runtime.eventLog(runId).filter((e) => e.event === 'approval.resolved').length;
  }

  it('cancels a live run; a second cancel is 409 run_not_active, answered once without retries', async () => {
    const runId = await ctx.runtime.createSyntheticRun({ events: 2, terminal: null, live: true });
    const run = await ctx.client.cancelRun(runId);
    assert.equal(run.id, runId);
    assert.equal(run.status, 'cancelled');
    ctx.logger.lines.length = 0;
    const err = await rejectionOf(ctx.client.cancelRun(runId));
    assert.ok(isApiError(err, 'conflict'));
    assert.equal(err.code, 'run_not_active');
    assert.deepEqual(
      ctx.logger.lines.filter((l) => l.includes('/cancel')).map((l) => /attempt (\d\/\d)/.exec(l)?.[1]),
      ['1/3'],
    );
  });

  it('cancel of a run that just ended is run_not_active', async () => {
    const runId = await ctx.runtime.createSyntheticRun({ events: 2, terminal: null, live: true });
    ctx.runtime.endRun(runId, 'completed');
    const err = await rejectionOf(ctx.client.cancelRun(runId));
    assert.ok(isApiError(err, 'conflict'));
    assert.equal(err.code, 'run_not_active');
  });

  it('resumes a cancelled run into a new run that names its source', async () => {
    const task = await ctx.client.createTask({ objective: 'Summarise; ask before writing any file' });
    const runId = task.run_id!;
    await waitFor(
      async () => (await ctx.client.getRun(runId)).status === 'awaiting_approval',
      'the run to wait for approval',
    );
    await ctx.client.cancelRun(runId);
    const resumed = await ctx.client.resumeRun(runId, { instructions: 'Go on.' });
    assert.notEqual(resumed.id, runId);
    assert.equal(resumed.resumed_from, runId);
    assert.equal(resumed.task_id, task.id);
  });

  it('resume of a run that is not resumable is 409 run_not_resumable', async () => {
    const runId = await ctx.runtime.createSyntheticRun({ events: 3, terminal: 'completed' });
    const err = await rejectionOf(ctx.client.resumeRun(runId));
    assert.ok(isApiError(err, 'conflict'));
    assert.equal(err.code, 'run_not_resumable');
  });

  it('forks after a sequence with instructions; past the end is a 400 on after_sequence', async () => {
    const runId = await ctx.runtime.createSyntheticRun({ events: 6, terminal: 'completed' });
    const fork = await ctx.client.forkRun(runId, { after_sequence: 3, instructions: 'Now also count words.' });
    assert.notEqual(fork.id, runId);
    assert.deepEqual(
      { run_id: fork.forked_from?.run_id, sequence: fork.forked_from?.sequence },
      { run_id: runId, sequence: 3 },
    );
    const err = await rejectionOf(ctx.client.forkRun(runId, { after_sequence: 999 }));
    assert.ok(isApiError(err, 'bad_request'));
    assert.equal(err.status, 400);
    assert.equal(err.param, 'after_sequence');
    const local = await rejectionOf(ctx.client.forkRun(runId, { after_sequence: 0 }));
    assert.ok(isApiError(local, 'validation'));
  });

  it('a fork carries context and attachments; a short commit is refused before sending, context on an upload task is a 400', async () => {
    const runId = await ctx.runtime.createSyntheticRun({ events: 4, terminal: 'completed' });
    const short = await rejectionOf(ctx.client.forkRun(runId, { after_sequence: 2, context: { commit: 'abc1234' } }));
    assert.ok(isApiError(short, 'validation'));
    assert.equal(short.param, 'context.commit');
    const noProject = await rejectionOf(
      ctx.client.forkRun(runId, { after_sequence: 2, context: { commit: 'a'.repeat(40) } }),
    );
    assert.ok(isApiError(noProject, 'bad_request'));
    assert.equal(noProject.param, 'context');
    const file = await ctx.client.uploadBytes(Buffer.from('edited\n'), { filename: 'notes.txt' });
    const fork = await ctx.client.forkRun(runId, {
      after_sequence: 2,
      attachments: [{ type: 'document', fileId: file.id }],
    });
    assert.equal(fork.forked_from?.run_id, runId);
  });

  it('lists, reads and approves a pending approval; the run goes on', async () => {
    const { runId, approvalId } = await pendingRun({ arguments: { path: 'a.txt', mode: 'overwrite' } });
    const page = await ctx.client.listApprovals({ status: 'pending', run_id: runId, limit: 10 });
    assert.deepEqual(
      page.data.map((a) => a.id),
      [approvalId],
    );
    const one = await ctx.client.getApproval(approvalId);
    assert.equal(one.tool, 'write_file');
    assert.deepEqual(one.arguments, { path: 'a.txt', mode: 'overwrite' });
    assert.equal(one.status, 'pending');
    assert.equal(typeof one.expires_at, 'string');
    const decided = await ctx.client.decideApproval(approvalId, { decision: 'approve', note: 'fine' });
    assert.equal(decided.status, 'approved');
    assert.equal(decided.note, 'fine');
    await waitFor(async () => (await ctx.client.getRun(runId)).status === 'completed', 'the run to go on and complete');
  });

  it('iterates every pending approval across pages', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      ids.add((await pendingRun()).approvalId);
    }
    const seen: string[] = [];
    for await (const a of ctx.client.iterateApprovals({ status: 'pending', limit: 1 })) {
      seen.push(a.id);
    }
    for (const id of ids) {
      assert.ok(seen.includes(id));
    }
    assert.equal(new Set(seen).size, seen.length);
  });

  it('the same decision retried after a dropped answer is made once', async () => {
    const { runId, approvalId } = await pendingRun();
    ctx.runtime.setFaults({ commitThenDrop: { count: 1, pathPrefix: '/v1/approvals' } });
    const decided = await ctx.client.decideApproval(approvalId, { decision: 'deny', note: 'no' });
    assert.equal(decided.status, 'denied');
    await waitFor(() => resolvedCount(runId) >= 1, 'the resolution to be logged');
    assert.equal(resolvedCount(runId), 1);
  });

  it('a caller-given idempotency key repeats the answer instead of a 409', async () => {
    const { approvalId } = await pendingRun();
    const first = await ctx.client.decideApproval(
      approvalId,
      { decision: 'approve' },
      { idempotencyKey: 'decide-once' },
    );
    const again = await ctx.client.decideApproval(
      approvalId,
      { decision: 'approve' },
      { idempotencyKey: 'decide-once' },
    );
    assert.equal(again.status, first.status);
  });

  it("two decisions at once: one wins, the other gets 409 with the winner's record", async () => {
    const { runId, approvalId } = await pendingRun();
    const other = ctx.clientWith({ backoff: QUICK_BACKOFF });
    const results = await Promise.allSettled([
      ctx.client.decideApproval(approvalId, { decision: 'approve' }),
      other.decideApproval(approvalId, { decision: 'deny' }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(won.length, 1);
    assert.equal(lost.length, 1);
    const err = lost[0].reason as unknown;
    assert.ok(isApiError(err, 'conflict'));
    assert.equal(err.code, 'approval_already_decided');
    const current = conflictApproval(err);
    assert.equal(current?.id, approvalId);
    assert.equal(current?.status, (won[0] as PromiseFulfilledResult<{ status?: string }>).value.status);
    await waitFor(() => resolvedCount(runId) >= 1, 'the resolution to be logged');
    assert.equal(resolvedCount(runId), 1);
  });

  it('a second decision is answered 409 approval_already_decided once: the runtime sees one attempt', async () => {
    const { approvalId } = await pendingRun();
    await ctx.client.decideApproval(approvalId, { decision: 'approve' });
    const attempts = ctx.runtime.countRequests('POST', new RegExp(`^/v1/approvals/${approvalId}/decision$`));
    try {
      const err = await rejectionOf(ctx.client.decideApproval(approvalId, { decision: 'deny', note: 'again' }));
      assert.ok(isApiError(err, 'conflict'));
      assert.equal(err.code, 'approval_already_decided');
      assert.equal(conflictApproval(err)?.status, 'approved');
      assert.equal(attempts.count, 1, 'a 409 on a decision was sent again');
    } finally {
      attempts.stop();
    }
  });

  it('decided elsewhere first: 409 approval_already_decided carries the current record', async () => {
    const { approvalId } = await pendingRun();
    ctx.runtime.setFaults({ conflictNextDecision: { count: 1, decision: 'deny' } });
    const err = await rejectionOf(ctx.client.decideApproval(approvalId, { decision: 'approve' }));
    assert.ok(isApiError(err, 'conflict'));
    assert.equal(err.code, 'approval_already_decided');
    assert.equal(conflictApproval(err)?.status, 'denied');
  });

  it('an expired approval answers 409 approval_expired', async () => {
    const runId = await ctx.runtime.createSyntheticRun({
      events: 2,
      terminal: 'completed',
      approval: { expiresInMs: 1 },
    });
    await waitFor(
      () => ctx.runtime.listApprovals({ runId }).some((a) => a.status === 'expired'),
      'the approval to expire',
    );
    const approvalId = ctx.runtime.listApprovals({ runId })[0].id;
    const err = await rejectionOf(ctx.client.decideApproval(approvalId, { decision: 'approve' }));
    assert.ok(isApiError(err, 'conflict'));
    assert.equal(err.code, 'approval_expired');
    assert.equal(conflictApproval(err)?.status, 'expired');
  });

  it('reads spend and quota', async () => {
    await ctx.runtime.createSyntheticRun({ events: 1, terminal: 'completed', cost: '1.25' });
    const usage = await ctx.client.getUsage();
    assert.equal(usage.spend?.currency, 'USD');
    assert.ok(Number(usage.spend?.amount) >= 1.25);
    assert.deepEqual(usage.quota, { amount: '100.00', currency: 'USD' });
    assert.deepEqual(parseUsage({ spend: { amount: 3 }, quota: null }).spend, undefined);
    assert.equal(parseUsage({ quota: null }).quota, null);
  });

  it('checks ids before sending and decisions before sending', async () => {
    const calls = [
      () => ctx.client.cancelRun('../x'),
      () => ctx.client.getApproval('a/b'),
      () => ctx.client.decideApproval('apr_1', { decision: 'maybe' as 'approve' }),
    ];
    for (const call of calls) {
      assert.ok(isApiError(await rejectionOf(call()), 'validation'));
    }
  });

  for (const status of [404, 405] as const) {
    it(`a server without the endpoints (${status}) is not_supported for each of them`, async () => {
      const runId = await ctx.runtime.createSyntheticRun({ events: 3, terminal: null, live: true });
      ctx.runtime.setFaults({ noSteering: true, missingEndpoints: ['usage'], missingEndpointStatus: status });
      const calls = [
        () => ctx.client.cancelRun(runId),
        () => ctx.client.resumeRun(runId),
        () => ctx.client.forkRun(runId, { after_sequence: 1 }),
        () => ctx.client.listApprovals({ status: 'pending' }),
        () => ctx.client.getApproval('apr_x'),
        () => ctx.client.decideApproval('apr_x', { decision: 'approve' }),
        () => ctx.client.getUsage(),
      ];
      for (const call of calls) {
        const err = await rejectionOf(call());
        assert.ok(isApiError(err, 'not_supported'), String(err));
      }
      ctx.runtime.clearFaults();
      ctx.runtime.endRun(runId, 'completed');
    });
  }

  it('an unknown approval or run is not_found, not not_supported', async () => {
    assert.ok(isApiError(await rejectionOf(ctx.client.getApproval('apr_missing')), 'not_found'));
    assert.ok(
      isApiError(await rejectionOf(ctx.client.decideApproval('apr_missing', { decision: 'deny' })), 'not_found'),
    );
    assert.ok(isApiError(await rejectionOf(ctx.client.cancelRun('run_missing')), 'not_found'));
  });

  it('decodes approval.requested and approval.resolved as known kinds, odd shapes as unknown', () => {
    const requested = decodeRunEvent(
      'approval.requested',
      JSON.stringify({
        sequence: 4,
        approval_id: 'apr_1',
        step_id: 's',
        tool: 'write_file',
        arguments: { a: 1 },
        reason: 'r',
        expires_at: '2030-01-01T00:00:00Z',
      }),
    );
    assert.ok(requested.ok && requested.event.known && requested.event.event === 'approval.requested');
    const resolved = decodeRunEvent(
      'approval.resolved',
      JSON.stringify({ sequence: 5, approval_id: 'apr_1', status: 'denied', note: 'no' }),
    );
    assert.ok(resolved.ok && resolved.event.known);
    const odd = decodeRunEvent('approval.resolved', JSON.stringify({ sequence: 6, approval_id: 7, status: 'denied' }));
    assert.ok(odd.ok && !odd.event.known);
  });
});
