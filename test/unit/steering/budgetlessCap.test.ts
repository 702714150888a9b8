// A server without budgets, the pure decision: the cap counts as ignored only when one was sent and
// the record came back without any; a run's `usage.updated` costs are compared with the person's
// cap and the question comes once, at the first cost that reaches it, never for an unusable cost,
// another currency or another run's event; the question says the whole truth.
import * as assert from 'node:assert/strict';
import { validMoney } from '../../../src/common/money';
import { untranslated } from '../../../src/common/translate';
import { CapWithoutServer, ignoredCap, noBudgetsNotice, passedCapQuestion } from '../../../src/steering/budgetlessCap';

const usd = (amount: string) => ({ amount, currency: 'USD' });
const cap = validMoney(usd('0.05'));
const usage = (cost: unknown, extra: Record<string, unknown> = {}) => ({
  event: 'usage.updated',
  data: { cost, ...extra },
});

describe('steering/budgetlessCap', () => {
  it('the cap is ignored when one was sent and the record has none', () => {
    assert.deepEqual(ignoredCap(usd('0.05'), { budget: undefined }), cap);
    assert.deepEqual(ignoredCap(usd('0.05'), { budget: null }), cap);
    assert.deepEqual(ignoredCap(usd('0.05'), {}), cap);
  });

  it('is not ignored when none was sent, the record kept one, or no record came back', () => {
    assert.equal(ignoredCap(undefined, {}), undefined);
    assert.equal(ignoredCap(usd('0.05'), { budget: usd('0.05') }), undefined);
    // A cap the server changed is still a cap it keeps: the meter and the pause are its own.
    assert.equal(ignoredCap(usd('0.05'), { budget: usd('0.10') }), undefined);
    assert.equal(ignoredCap(usd('0.05'), undefined), undefined);
    assert.equal(ignoredCap('lots', {}), undefined);
  });

  it('asks once, at the first cost that reaches the cap', () => {
    assert.ok(cap);
    const watch = new CapWithoutServer('run_1', cap);
    assert.equal(watch.note(usage(usd('0.03'))), undefined);
    assert.equal(watch.note(usage(usd('0.049'))), undefined);
    assert.deepEqual(watch.note(usage(usd('0.05'))), cap, 'reaching it exactly is reaching it');
    assert.equal(watch.hasReached, true);
    assert.equal(watch.note(usage(usd('0.07'))), undefined, 'asked once');
    assert.deepEqual(watch.cost, usd('0.07'), 'the meter still follows');
  });

  it('a cost past the cap at once is asked about with that cost', () => {
    assert.ok(cap);
    const watch = new CapWithoutServer('run_1', cap);
    assert.deepEqual(watch.note(usage(usd('0.20'))), validMoney(usd('0.20')));
  });

  it('never compares an unusable cost, another currency, another run or another event', () => {
    assert.ok(cap);
    const watch = new CapWithoutServer('run_1', cap);
    for (const cost of ['-5.00', 'NaN', 12.5, usd('-1.00'), { amount: '9'.repeat(5000), currency: 'USD' }]) {
      assert.equal(watch.note(usage(cost)), undefined, JSON.stringify(cost).slice(0, 40));
    }
    assert.equal(watch.note(usage({ amount: '9.00', currency: 'EUR' })), undefined);
    assert.equal(watch.note(usage(usd('9.00'), { run_id: 'run_someone_else' })), undefined);
    assert.equal(watch.note({ event: 'budget.reached', data: { cost: usd('9.00') } }), undefined);
    assert.equal(watch.note({ event: 'usage.updated', data: null }), undefined);
    assert.equal(watch.hasReached, false);
    assert.deepEqual(watch.note(usage(usd('0.06'), { run_id: 'run_1' })), validMoney(usd('0.06')));
  });

  it('the notice and the question say the cap, the spend and that the run goes on', () => {
    assert.ok(cap);
    assert.match(noBudgetsNotice(untranslated, cap), /does not keep spending caps: .* cap of 0\.05 USD/);
    const cost = validMoney(usd('0.06'));
    assert.ok(cost);
    const { message, lines } = passedCapQuestion(untranslated, { runId: 'run_1', cap, cost, objective: 'Summarise' });
    assert.match(message, /reached the cap you chose/);
    assert.deepEqual(lines.slice(0, 3), ['Task: Summarise', 'Spent 0.06 USD of its cap of 0.05 USD.', 'Run: run_1']);
    assert.match(lines[3], /not paused and goes on spending until it ends or you cancel it/);
  });
});
