// Budgets: a cap on each run's spend; at it the run waits (awaiting_budget) for a raise or a cancel.
import * as assert from 'node:assert';
import { type RuntimeHandle, startRuntime } from '../index';
import { call, errorOf, readEvents, runToEnd, untilRunStatus, uploadOk } from './runtimeTestKit';

const usd = (amount: string): { amount: string; currency: string } => ({ amount, currency: 'USD' });

async function budgetedTask(
  rt: RuntimeHandle,
  amount: string,
  fileIds: string[] = [],
): Promise<{ id: string; run_id: string; budget?: unknown }> {
  const res = await call(rt, 'POST', '/v1/tasks', {
    body: {
      objective: 'Capped',
      attachments: fileIds.map((fileId) => ({ type: 'document', fileId })),
      budget: usd(amount),
    },
  });
  assert.strictEqual(res.status, 201, res.text);
  return res.json as { id: string; run_id: string; budget?: unknown };
}

describe('runtime: budgets', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime();
  });
  afterEach(() => rt.close());

  it('keeps the budget on the task and its run, and charges each tool call and step', async () => {
    const fileId = await uploadOk(rt, 'a.md', '# A\n');
    const task = await budgetedTask(rt, '5.00', [fileId]);
    assert.deepStrictEqual(task.budget, usd('5.00'));
    const reading = await runToEnd(rt, task.run_id);
    const run = (await call(rt, 'GET', `/v1/runs/${task.run_id}`)).json;
    assert.deepStrictEqual(run.budget, usd('5.00'));
    const tools = reading.events.filter((e) => e.event === 'tool.called').length;
    const steps = reading.events.filter((e) => e.event === 'step.completed').length;
    const cents = tools * 1 + steps * 2;
    assert.deepStrictEqual(run.usage, { cost: usd((cents / 100).toFixed(2)) });
    const updates = reading.events.filter((e) => e.event === 'usage.updated');
    assert.strictEqual(updates.length, tools + steps, 'one usage.updated per charge');
    assert.deepStrictEqual(updates.at(-1)?.data.cost, usd((cents / 100).toFixed(2)));
  });

  it('pauses at the cap, goes on after a raise above the spend, and completes', async () => {
    const fileId = await uploadOk(rt, 'a.md', '# A\n');
    const task = await budgetedTask(rt, '0.02', [fileId]);
    const paused = await untilRunStatus(rt, task.run_id, 'awaiting_budget');
    assert.deepStrictEqual(paused.usage, { cost: usd('0.02') });
    assert.strictEqual((await call(rt, 'GET', `/v1/tasks/${task.id}`)).json.status, 'awaiting_budget');
    const upTo = await readEvents(rt, task.run_id, {
      stopWhen: (r) => r.events.some((e) => e.event === 'budget.reached'),
    });
    const reached = upTo.events.find((e) => e.event === 'budget.reached');
    assert.deepStrictEqual(reached?.data.budget, usd('0.02'));
    assert.deepStrictEqual(reached?.data.cost, usd('0.02'));

    const tooLow = await call(rt, 'POST', `/v1/runs/${task.run_id}/budget`, { body: usd('0.02') });
    assert.strictEqual(tooLow.status, 409);
    assert.strictEqual(errorOf(tooLow).code, 'budget_too_low');
    const raised = await call(rt, 'POST', `/v1/runs/${task.run_id}/budget`, { body: usd('1.00') });
    assert.strictEqual(raised.status, 200, raised.text);
    assert.deepStrictEqual(raised.json.budget, usd('1.00'));
    const reading = await runToEnd(rt, task.run_id);
    assert.ok(reading.events.some((e) => e.event === 'budget.raised'));
    assert.strictEqual(reading.events.at(-1)?.event, 'run.completed');
    const ended = await call(rt, 'POST', `/v1/runs/${task.run_id}/budget`, { body: usd('2.00') });
    assert.strictEqual(ended.status, 409);
    assert.strictEqual(errorOf(ended).code, 'run_not_active');
  });

  it('lets a run waiting at its cap be cancelled', async () => {
    const task = await budgetedTask(rt, '0.01');
    await untilRunStatus(rt, task.run_id, 'awaiting_budget');
    assert.strictEqual((await call(rt, 'POST', `/v1/runs/${task.run_id}/cancel`)).status, 200);
    const reading = await runToEnd(rt, task.run_id);
    assert.strictEqual(reading.events.at(-1)?.event, 'run.cancelled');
  });

  it('refuses budgets that are not positive decimal strings in its currency', async () => {
    const bad: unknown[] = [
      { amount: '-1.00', currency: 'USD' },
      { amount: 'five', currency: 'USD' },
      { amount: 5, currency: 'USD' },
      { amount: '0.00', currency: 'USD' },
      { amount: '1.00', currency: 'EUR' },
      '5.00',
    ];
    for (const budget of bad) {
      const res = await call(rt, 'POST', '/v1/tasks', { body: { objective: 'x', budget } });
      assert.strictEqual(res.status, 400, JSON.stringify(budget));
    }
    const task = await budgetedTask(rt, '0.01');
    const res = await call(rt, 'POST', `/v1/runs/${task.run_id}/budget`, { body: { amount: '1e3', currency: 'USD' } });
    assert.strictEqual(res.status, 400);
    assert.strictEqual(errorOf(res).param, 'amount');
  });

  it('gives a resumed or forked run the source budget unless the request names one', async () => {
    const task = await budgetedTask(rt, '0.01');
    await untilRunStatus(rt, task.run_id, 'awaiting_budget');
    await call(rt, 'POST', `/v1/runs/${task.run_id}/cancel`);
    const resumed = await call(rt, 'POST', `/v1/runs/${task.run_id}/resume`, { body: {} });
    assert.deepStrictEqual(resumed.json.budget, usd('0.01'));
    await untilRunStatus(rt, resumed.json.id as string, 'awaiting_budget');
    const forked = await call(rt, 'POST', `/v1/runs/${task.run_id}/fork`, {
      body: { after_sequence: 1, budget: usd('3.00') },
    });
    assert.strictEqual(forked.status, 201, forked.text);
    assert.deepStrictEqual(forked.json.budget, usd('3.00'));
    await runToEnd(rt, forked.json.id as string);
  });

  it('runs a task without a budget to its end with no budget on its records', async () => {
    const res = await call(rt, 'POST', '/v1/tasks', { body: { objective: 'Free' } });
    const reading = await runToEnd(rt, res.json.run_id as string);
    assert.strictEqual(res.json.budget, undefined);
    assert.ok(!reading.events.some((e) => e.event.startsWith('budget.')));
  });

  it('as a server without budgets ignores the cap, meters every run and never pauses it', async () => {
    rt.setFaults({ missingEndpoints: ['budgets'] });
    const fileId = await uploadOk(rt, 'a.md', '# A\n');
    const task = await budgetedTask(rt, '0.02', [fileId]);
    assert.strictEqual(task.budget, undefined, 'the task comes back without the budget sent');
    const reading = await runToEnd(rt, task.run_id);
    const run = (await call(rt, 'GET', `/v1/runs/${task.run_id}`)).json;
    assert.strictEqual(run.status, 'completed');
    assert.strictEqual(run.budget, undefined);
    const updates = reading.events.filter((e) => e.event === 'usage.updated');
    assert.ok(updates.length > 2, 'usage.updated after each charge');
    assert.deepStrictEqual(updates.at(-1)?.data.cost, (run.usage as { cost: unknown }).cost);
    assert.ok(!reading.events.some((e) => e.event.startsWith('budget.')), 'never paused');
  });
});
