// Before a run: the monthly limit's rule, the lines a person sees, and the bounded spend history.
import * as assert from 'node:assert/strict';
import { moneyText, type ValidMoney, validMoney } from '../../../src/common/money';
import { untranslated } from '../../../src/common/translate';
import { budgetLines, monthlyExcess, monthlyUnchecked } from '../../../src/runs/budgetPlan';
import { SPEND_HISTORY_KEY, SPEND_HISTORY_MAX, SpendHistory } from '../../../src/runs/spendHistory';

const usd = (amount: string): ValidMoney => validMoney({ amount, currency: 'USD' }) as ValidMoney;
const usage = (spend: string, quota?: string) => ({
  spend: { amount: spend, currency: 'USD' },
  ...(quota ? { quota: { amount: quota, currency: 'USD' } } : {}),
});

function memento(): { get<T>(key: string): T | undefined; update(key: string, value: unknown): Promise<void> } {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string) => values.get(key) as T | undefined,
    update: async (key, value) => void values.set(key, structuredClone(value)),
  };
}

describe('runs/budgetPlan', () => {
  const none = { count: 0 };

  it("cannot check a monthly limit without the month's spend in its currency", () => {
    assert.equal(monthlyUnchecked({ monthly: usd('50.00'), usage: usage('10.00'), history: none }), false);
    assert.equal(monthlyUnchecked({ monthly: usd('50.00'), history: none }), true, 'no usage read');
    assert.equal(
      monthlyUnchecked({
        monthly: usd('50.00'),
        usage: { spend: { amount: '10.00', currency: 'EUR' } },
        history: none,
      }),
      true,
      'a spend in another currency says nothing of this limit',
    );
    assert.equal(
      monthlyUnchecked({ monthly: usd('50.00'), usage: { spend: { amount: 'lots', currency: 'USD' } }, history: none }),
      true,
      'an amount that is no decimal is not a spend',
    );
    assert.equal(monthlyUnchecked({ history: none }), false, 'no limit: nothing to check');
  });

  it('stops a run whose cap would take the month past the limit, saying by how much', () => {
    const over = monthlyExcess({ cap: usd('5.00'), monthly: usd('50.00'), usage: usage('47.50'), history: none });
    assert.equal(over && moneyText(over), '2.50 USD');
    assert.equal(
      monthlyExcess({ cap: usd('2.50'), monthly: usd('50.00'), usage: usage('47.50'), history: none }),
      undefined,
      'reaching it exactly is within it',
    );
    assert.equal(
      monthlyExcess({ cap: usd('5.00'), usage: usage('47.50'), history: none }),
      undefined,
      'no limit, no stop',
    );
    const spent = monthlyExcess({ monthly: usd('50.00'), usage: usage('50.00'), history: none });
    assert.equal(spent && moneyText(spent), '0.00 USD', 'without a cap, a month at its limit is over it');
    const unknown = monthlyExcess({ cap: usd('60.00'), monthly: usd('50.00'), history: none });
    assert.equal(unknown && moneyText(unknown), '10.00 USD', 'an unknown spend still checks the cap alone');
    const eur = validMoney({ amount: '1.00', currency: 'EUR' }) as ValidMoney;
    assert.equal(
      monthlyExcess({ cap: eur, monthly: usd('0.50'), history: none }),
      undefined,
      'other currencies are never compared',
    );
  });

  it('shows the cap, the last runs, the month and the quota left', () => {
    const lines = budgetLines(untranslated, {
      cap: usd('5.00'),
      monthly: usd('80.00'),
      usage: usage('12.40', '100.00'),
      history: { count: 3, median: usd('0.40'), max: usd('1.20') },
    });
    assert.deepEqual(lines, [
      'Cap for this run: 5.00 USD',
      'Last 3 runs in this workspace: median 0.40 USD, max 1.20 USD',
      'This month: 12.40 USD spent, 87.60 USD of the 100.00 USD quota left',
      'Monthly limit: 80.00 USD',
    ]);
    assert.deepEqual(
      budgetLines(untranslated, { history: none, usage: { spend: { amount: '-3', currency: 'USD' } } }),
      ['Cap for this run: none', "This month's spend is unknown (the service did not say)."],
    );
  });

  it('keeps at most the last runs, once each, and gives their median and maximum', async () => {
    const state = memento();
    const history = new SpendHistory(state);
    for (let i = 1; i <= SPEND_HISTORY_MAX + 10; i++) {
      await history.note({ id: `run_${i}`, usage: { cost: { amount: (i / 100).toFixed(2), currency: 'USD' } } });
    }
    await history.note({ id: 'run_bad', usage: { cost: { amount: 'NaN', currency: 'USD' } } });
    await history.note({ id: `run_${SPEND_HISTORY_MAX + 10}`, usage: { cost: { amount: '0.60', currency: 'USD' } } });
    const kept = state.get<unknown[]>(SPEND_HISTORY_KEY) ?? [];
    assert.equal(kept.length, SPEND_HISTORY_MAX);
    const summary = history.summary('USD');
    assert.equal(summary.count, SPEND_HISTORY_MAX);
    assert.equal(summary.max && moneyText(summary.max), '0.60 USD');
    // 0.11 .. 0.59 and 0.60: the middle two are 0.35 and 0.36.
    assert.equal(summary.median && moneyText(summary.median), '0.355 USD');
    assert.equal(history.summary('EUR').count, 0);
  });
});
