// Money is checked once, then added, compared and divided exactly; bad amounts are only shown.
import * as assert from 'node:assert/strict';
import {
  addMoney,
  amountText,
  checkMoney,
  compareMoney,
  describeMoney,
  MAX_AMOUNT_CHARS,
  moneyText,
  percentOf,
  subtractMoney,
  sumPerCurrency,
  toWire,
  type ValidMoney,
  validMoney,
} from '../../../src/common/money';
import { untranslated } from '../../../src/common/translate';

function usd(amount: string): ValidMoney {
  const m = validMoney({ amount, currency: 'USD' });
  assert.ok(m, `${amount} is valid`);
  return m;
}

describe('common/money', () => {
  it('adds decimal strings exactly, where floating point would not', () => {
    // 0.1 + 0.2 in doubles is 0.30000000000000004.
    assert.equal(amountText(addMoney(usd('0.1'), usd('0.2')) as ValidMoney), '0.3');
    let total = usd('0.00');
    for (let i = 0; i < 1000; i++) {
      total = addMoney(total, usd('0.01')) as ValidMoney;
    }
    assert.equal(moneyText(total), '10.00 USD');
    assert.deepEqual(toWire(addMoney(usd('5'), usd('0.05')) as ValidMoney), { amount: '5.05', currency: 'USD' });
    assert.equal(amountText(usd('0.05')), '0.05', 'leading zeros of the fraction are kept');
  });

  it('never adds, compares or divides different currencies', () => {
    const eur = validMoney({ amount: '1.00', currency: 'EUR' }) as ValidMoney;
    assert.equal(addMoney(usd('1.00'), eur), undefined);
    assert.equal(compareMoney(usd('1.00'), eur), undefined);
    assert.equal(subtractMoney(usd('2.00'), eur), undefined);
    assert.equal(percentOf(usd('1.00'), eur), undefined);
    assert.deepEqual(sumPerCurrency([usd('1.00'), eur, usd('0.50')]).map(moneyText), ['1.00 EUR', '1.50 USD']);
  });

  it('takes a currency in any case as the same currency', () => {
    const lower = validMoney({ amount: '1', currency: 'usd' }) as ValidMoney;
    assert.equal(compareMoney(lower, usd('1.00')), 0);
  });

  it('compares across scales and gives whole percents rounded down', () => {
    assert.equal(compareMoney(usd('0.05'), usd('0.050')), 0);
    assert.equal(compareMoney(usd('0.049'), usd('0.05')), -1);
    assert.equal(compareMoney(usd('10'), usd('9.99')), 1);
    assert.equal(percentOf(usd('0.04'), usd('0.05')), 80);
    assert.equal(percentOf(usd('0.0249'), usd('0.05')), 49);
    assert.equal(percentOf(usd('0.07'), usd('0.05')), 140);
    assert.equal(percentOf(usd('1'), usd('0')), undefined, 'no percent of a zero cap');
    assert.equal(moneyText(subtractMoney(usd('5.00'), usd('1.25')) as ValidMoney), '3.75 USD');
    assert.equal(subtractMoney(usd('1.00'), usd('1.01')), undefined, 'no negative remainder');
  });

  it('keeps amounts that are not decimal strings as received, with a note, out of arithmetic', () => {
    const cases: Array<[unknown, string]> = [
      [{ amount: 5, currency: 'USD' }, '5 USD (not a decimal amount, not counted)'],
      [{ amount: '1e3', currency: 'USD' }, '1e3 USD (not a decimal amount, not counted)'],
      [{ amount: 'NaN', currency: 'USD' }, 'NaN USD (not a decimal amount, not counted)'],
      [{ amount: '-1.00', currency: 'USD' }, '-1.00 USD (a negative amount, not counted)'],
      [{ amount: '1.00', currency: '' }, '1.00 (no usable currency, not counted)'],
      [{ amount: '1.00', currency: '$ <b>' }, '1.00 $ <b> (no usable currency, not counted)'],
      [{ amount: '1.00' }, '1.00 (no usable currency, not counted)'],
    ];
    for (const [value, text] of cases) {
      const checked = checkMoney(value);
      assert.equal(checked.valid, false, JSON.stringify(value));
      assert.equal(describeMoney(checked, untranslated), text);
      assert.equal(validMoney(value), undefined);
    }
  });

  it('refuses an absurdly long amount and shows only a bounded part of it', () => {
    const long = '9'.repeat(MAX_AMOUNT_CHARS + 1);
    const checked = checkMoney({ amount: long, currency: 'USD' });
    assert.equal(checked.valid, false);
    assert.equal(!checked.valid && checked.reason, 'too_long');
    const huge = checkMoney({ amount: '1'.repeat(100000), currency: 'USD' });
    assert.ok(!huge.valid && huge.shown.length < 200, 'a 100,000-digit amount is shown cut');
    assert.ok(validMoney({ amount: '9'.repeat(MAX_AMOUNT_CHARS), currency: 'USD' }), 'the limit itself is fine');
  });

  it('shows a valid amount as its decimal string and currency', () => {
    assert.equal(describeMoney(checkMoney({ amount: ' 0.05 ', currency: 'USD' }), untranslated), '0.05 USD');
  });
});
