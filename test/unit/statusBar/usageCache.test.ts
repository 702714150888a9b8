// Spend for the status bar: read at most once a minute, again when forced (a followed run ended),
// never again from a server without the endpoint; the tooltip's line.
import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import type { UsageRecord } from '../../../src/api/types';
import { untranslated } from '../../../src/common/translate';
import { spendLine, USAGE_MIN_INTERVAL_MS, UsageCache } from '../../../src/statusBar/usageCache';

describe('statusBar/usageCache', () => {
  it('reads at most once a minute unless forced', async () => {
    let clock = 0;
    let reads = 0;
    const cache = new UsageCache(
      async () => ({ spend: { amount: String(++reads), currency: 'USD' } }),
      () => undefined,
      () => clock,
    );
    await cache.refresh();
    await cache.refresh();
    assert.equal(reads, 1);
    await cache.refresh(true);
    assert.equal(reads, 2);
    clock += USAGE_MIN_INTERVAL_MS;
    await cache.refresh();
    assert.equal(reads, 3);
    assert.equal(cache.current?.spend?.amount, '3');
  });

  it('stops asking a server without the endpoint', async () => {
    let reads = 0;
    let clock = 0;
    const cache = new UsageCache(
      async () => {
        reads++;
        throw new ApiError({ kind: 'not_supported', status: 404, message: 'no' });
      },
      () => undefined,
      () => clock,
    );
    await cache.refresh();
    clock += 10 * USAGE_MIN_INTERVAL_MS;
    await cache.refresh(true);
    assert.equal(reads, 1);
    assert.equal(cache.current, undefined);
  });

  it('says spend with or without a quota, nothing without spend', () => {
    const usage: UsageRecord = {
      spend: { amount: '12.40', currency: 'USD' },
      quota: { amount: '100.00', currency: 'USD' },
    };
    assert.equal(
      spendLine(usage, untranslated, () => undefined),
      'Spend this period: 12.40 USD of a 100.00 USD quota',
    );
    assert.equal(
      spendLine({ ...usage, quota: null }, untranslated, () => undefined),
      'Spend this period: 12.40 USD',
    );
    assert.equal(
      spendLine({}, untranslated, () => undefined),
      undefined,
    );
  });
});
