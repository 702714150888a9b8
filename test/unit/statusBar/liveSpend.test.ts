// The status bar's sum of what the runs in progress spent: per currency, exact, never adding two
// currencies, bad amounts counted as not counted, bounded in runs read and currencies named.
import * as assert from 'node:assert/strict';
import type { RunRecord } from '../../../src/api/types';
import { untranslated } from '../../../src/common/translate';
import {
  liveSpend,
  liveSpendAmounts,
  liveSpendLine,
  MAX_CURRENCIES_SHOWN,
  MAX_LIVE_RUNS,
} from '../../../src/statusBar/liveSpend';

const run = (amount: unknown, currency = 'USD'): RunRecord => ({ id: 'run_x', usage: { cost: { amount, currency } } });

describe('statusBar/liveSpend', () => {
  it('sums each currency exactly and never adds two currencies', () => {
    const spend = liveSpend([
      run('0.1'),
      run('0.2'),
      run('1.20', 'EUR'),
      run('0.05', 'eur'),
      { id: 'run_none' },
      undefined,
    ]);
    assert.equal(liveSpendLine(spend, untranslated), 'Runs in progress have spent 1.25 EUR + 0.3 USD so far');
  });

  it('counts a bad amount as not counted, and adds nothing of it', () => {
    const spend = liveSpend([run('0.01'), run('-5.00'), run('NaN'), run(12.5), run('9'.repeat(5000))]);
    assert.equal(
      liveSpendLine(spend, untranslated),
      'Runs in progress have spent 0.01 USD so far (4 amounts not counted)',
    );
    assert.equal(
      liveSpendLine(liveSpend([run('lots')]), untranslated),
      'Runs in progress: no usable cost (1 amount not counted)',
    );
    assert.equal(liveSpendLine(liveSpend([{ id: 'run_a' }]), untranslated), undefined, 'no cost, no line');
  });

  it('names at most a few currencies and reads a bounded number of runs', () => {
    const many = liveSpend(['AAA', 'BBB', 'CCC', 'DDD', 'EEE'].map((c) => run('1', c)));
    assert.ok(many);
    assert.equal(many.totals.length, 5);
    assert.equal(liveSpendAmounts(many, untranslated), '1 AAA + 1 BBB + 1 CCC + 2 more currencies');
    assert.equal(liveSpendAmounts(many, untranslated, 2), '1 AAA + 1 BBB + 3 more currencies');
    assert.equal(MAX_CURRENCIES_SHOWN, 3);
    const runs = Array.from({ length: MAX_LIVE_RUNS + 50 }, () => run('1'));
    assert.equal(liveSpend(runs)?.totals[0].units, BigInt(MAX_LIVE_RUNS));
  });
});
