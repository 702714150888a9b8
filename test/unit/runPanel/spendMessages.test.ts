// The run panel's spend messages: the host bounds the amounts of a run record before they cross to
// the webview, the webview takes only a well-formed amount, and an info carries the session's
// newest cost and cap (from its spend events, else the record).
import * as assert from 'node:assert/strict';
import { MAX_RECEIVED_CHARS, readReceivedMoney, receivedMoney } from '../../../src/runPanel/protocol';

describe('runPanel/protocol: spend amounts', () => {
  it('the host keeps amounts as received, strings cut to a bound, and no amount as absent', () => {
    assert.deepEqual(receivedMoney({ amount: '0.05', currency: 'USD' }), { amount: '0.05', currency: 'USD' });
    assert.deepEqual(receivedMoney({ amount: 12.5, currency: 'USD' }), { amount: 12.5, currency: 'USD' });
    assert.deepEqual(receivedMoney({ amount: '-5.00', currency: 7 }), { amount: '-5.00', currency: null });
    assert.deepEqual(receivedMoney({ amount: { big: true } }), { amount: '{"big":true}', currency: null });
    assert.deepEqual(receivedMoney('lots'), { amount: 'lots', currency: null });
    assert.equal(receivedMoney(undefined), undefined);
    assert.equal(receivedMoney(null), undefined);
    const long = receivedMoney({ amount: '9'.repeat(5000), currency: 'X'.repeat(5000) });
    assert.equal(long?.amount, `${'9'.repeat(MAX_RECEIVED_CHARS)}…`);
    assert.equal(long?.currency, `${'X'.repeat(MAX_RECEIVED_CHARS)}…`);
    assert.equal(receivedMoney({ amount: Number.NaN })?.amount, 'NaN', 'a number that is not finite is text');
  });

  it('the webview takes an amount of the shape the host sends, and drops anything else', () => {
    for (const good of [
      { amount: '0.05', currency: 'USD' },
      { amount: 12.5, currency: null },
      { amount: null, currency: 'USD' },
      receivedMoney({ amount: '9'.repeat(5000), currency: 'USD' }),
    ]) {
      assert.deepEqual(readReceivedMoney(good), good, JSON.stringify(good));
    }
    for (const bad of [
      undefined,
      null,
      '0.05',
      { amount: '9'.repeat(MAX_RECEIVED_CHARS + 2), currency: 'USD' },
      { amount: Number.POSITIVE_INFINITY, currency: 'USD' },
      { amount: { nested: 1 }, currency: 'USD' },
      { amount: '1', currency: 5 },
      { amount: '1' },
      { amount: '1', currency: 'U'.repeat(MAX_RECEIVED_CHARS + 2) },
    ]) {
      assert.equal(readReceivedMoney(bad), undefined, JSON.stringify(bad));
    }
  });

  it('keeps only the two fields, so nothing else of a message rides along', () => {
    assert.deepEqual(readReceivedMoney({ amount: '1', currency: 'USD', extra: 'x'.repeat(100) }), {
      amount: '1',
      currency: 'USD',
    });
  });
});
