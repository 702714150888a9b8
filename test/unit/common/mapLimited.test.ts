// Bounded concurrency with results in input order.
import * as assert from 'node:assert/strict';
import { mapLimited } from '../../../src/common/mapLimited';

describe('views/mapLimited', () => {
  it('never runs more than the limit at once and keeps the order of results', async () => {
    let active = 0;
    let peak = 0;
    const gates: Array<() => void> = [];
    const done = mapLimited([1, 2, 3, 4, 5], 2, async (n) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise<void>((resolve) => gates.push(resolve));
      active--;
      return n * 10;
    });
    // Release the calls one at a time, in reverse arrival order where possible.
    while (gates.length > 0 || active > 0) {
      await new Promise((r) => setImmediate(r));
      gates.pop()?.();
    }
    assert.deepEqual(await done, [10, 20, 30, 40, 50]);
    assert.equal(peak, 2);
  });

  it('returns an empty list for no items and passes a failure through', async () => {
    assert.deepEqual(await mapLimited([], 4, async () => 1), []);
    await assert.rejects(
      mapLimited([1], 4, async () => Promise.reject(new Error('boom'))),
      /boom/,
    );
  });
});
