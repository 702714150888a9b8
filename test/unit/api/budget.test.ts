// Budgets against the reference runtime over HTTP: a cap sent with a task, a resume and a fork,
// the pause at it, a raise (one per Idempotency-Key), its 409s, and a server without budgets.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { isApiError } from '../../../src/api/errors';
import { SteeringConflict } from '../../../src/api/steering';
import { QUICK_BACKOFF, rejectionOf, type RuntimeWithClient, startRuntimeWithClient, waitFor } from './fixtures';

const usd = (amount: string): { amount: string; currency: string } => ({ amount, currency: 'USD' });

describe('api/budget', () => {
  let ctx: RuntimeWithClient;
  before(async () => {
    ctx = await startRuntimeWithClient({}, { backoff: QUICK_BACKOFF });
  });
  after(async () => ctx.close());
  afterEach(() => ctx.runtime.clearFaults());

  async function pausedRun(amount = '0.01'): Promise<string> {
    const task = await ctx.client.createTask({ objective: 'Capped', budget: usd(amount) });
    assert.deepEqual(task.budget, usd(amount), 'the task carries the budget it was given');
    const runId = task.run_id as string;
    await waitFor(async () => (await ctx.client.getRun(runId)).status === 'awaiting_budget', 'the pause at the cap');
    return runId;
  }

  it('sends the budget with a task; the run pauses at it and a raise lets it finish', async () => {
    const runId = await pausedRun();
    const run = await ctx.client.getRun(runId);
    assert.deepEqual(run.budget, usd('0.01'));
    const raised = await ctx.client.raiseBudget(runId, usd('1.00'), randomUUID());
    assert.deepEqual(raised.budget, usd('1.00'));
    await waitFor(async () => (await ctx.client.getRun(runId)).status === 'completed', 'the run to finish');
  });

  it('raises once per Idempotency-Key even when the answer is lost and the call retried', async () => {
    const runId = await pausedRun();
    ctx.runtime.setFaults({ commitThenDrop: { count: 1, method: 'POST', pathPrefix: `/v1/runs/${runId}/budget` } });
    const key = randomUUID();
    const raised = await ctx.client.raiseBudget(runId, usd('0.50'), key);
    assert.deepEqual(raised.budget, usd('0.50'));
    const events = ctx.runtime.eventLog(runId).filter((e) => e.event === 'budget.raised');
    assert.equal(events.length, 1, 'the retry was answered from the first attempt');
    await waitFor(async () => (await ctx.client.getRun(runId)).status === 'completed', 'the run to finish');
  });

  it('answers 409 budget_too_low (once, not retried) for a cap not above the spend and run_not_active once it ended', async () => {
    const runId = await pausedRun();
    ctx.logger.lines.length = 0;
    const low = await rejectionOf(ctx.client.raiseBudget(runId, usd('0.01'), randomUUID()));
    assert.ok(isApiError(low, 'conflict'));
    assert.equal(low.code, SteeringConflict.budgetTooLow);
    assert.deepEqual(
      ctx.logger.lines.filter((l) => l.includes('/budget')).map((l) => /attempt (\d\/\d)/.exec(l)?.[1]),
      ['1/3'],
      'a fact about the run: answered once, not retried',
    );
    await ctx.client.cancelRun(runId);
    const ended = await rejectionOf(ctx.client.raiseBudget(runId, usd('5.00'), randomUUID()));
    assert.ok(isApiError(ended, 'conflict'));
    assert.equal(ended.code, SteeringConflict.runNotActive);
  });

  it('refuses a budget that is not a positive decimal amount before sending anything', async () => {
    ctx.logger.lines.length = 0;
    for (const budget of [usd('-1'), usd('1e3'), usd('0.00'), { amount: 5, currency: 'USD' }, { amount: '1.00' }]) {
      const err = await rejectionOf(
        ctx.client.createTask({ objective: 'x', budget: budget as { amount: string; currency: string } }),
      );
      assert.ok(isApiError(err, 'validation'), JSON.stringify(budget));
    }
    const err = await rejectionOf(ctx.client.raiseBudget('run_x', usd('abc'), randomUUID()));
    assert.ok(isApiError(err, 'validation'));
    assert.ok(!ctx.logger.lines.some((l) => l.includes('run_x')), 'nothing was sent for the bad raise');
  });

  it('sends a budget with resume and fork; without one the source run budget is kept', async () => {
    const runId = await pausedRun();
    await ctx.client.cancelRun(runId);
    const resumed = await ctx.client.resumeRun(runId);
    assert.deepEqual(resumed.budget, usd('0.01'), 'the source budget by default');
    await ctx.client.cancelRun(resumed.id).catch(() => undefined);
    const forked = await ctx.client.forkRun(runId, { after_sequence: 1, budget: usd('2.00') });
    assert.deepEqual(forked.budget, usd('2.00'));
    await ctx.client.cancelRun(forked.id).catch(() => undefined);
  });

  it('on a server without budgets: records come back without one and a raise is not_supported', async () => {
    ctx.runtime.setFaults({ missingEndpoints: ['budgets'] });
    const task = await ctx.client.createTask({ objective: 'No caps here', budget: usd('0.01') });
    assert.equal(task.budget, undefined, 'the client can tell the budget was ignored');
    const err = await rejectionOf(ctx.client.raiseBudget(task.run_id as string, usd('1.00'), randomUUID()));
    assert.ok(isApiError(err, 'not_supported'), String(err));
    await waitFor(async () => (await ctx.client.getRun(task.run_id as string)).status === 'completed', 'the end');
  });
});
