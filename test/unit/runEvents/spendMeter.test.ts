// The spend meter's arithmetic and thresholds: amounts compared exactly (no floating point), bad
// amounts shown as received and never compared, each threshold said once per crossing, and a
// spend event noted by assignment only.
import * as assert from 'node:assert/strict';
import { untranslated } from '../../../src/common/translate';
import {
  newestOwnEventName,
  noteSpendEvent,
  SpendCrossings,
  spendLevel,
  spendMeter,
  type SpendSeen,
  spendWords,
} from '../../../src/runEvents/spendMeter';

const words = spendWords(untranslated);
const usd = (amount: unknown) => ({ amount, currency: 'USD' });

describe('runEvents/spendMeter', () => {
  it('shows cost of cap with a whole per cent, computed exactly', () => {
    const meter = spendMeter({ cost: usd('0.03'), cap: usd('0.05') }, words);
    assert.deepEqual(meter, { text: '0.03 of 0.05 USD, 60 %', percent: 60, fill: 60, level: 50, noted: false });
    // 0.29 / 0.50 in doubles is 57.99999999999999 per cent: the meter says 58.
    assert.equal(spendMeter({ cost: usd('0.29'), cap: usd('0.50') }, words)?.percent, 58);
    // Different scales compare at the finer one; amounts far past a double's precision stay exact.
    assert.equal(spendMeter({ cost: usd('0.1'), cap: usd('0.125') }, words)?.percent, 80);
    assert.equal(spendMeter({ cost: usd('99999999999999999.99'), cap: usd('100000000000000000') }, words)?.percent, 99);
  });

  it('fills the bar to at most 100 while the text says how far past the cap', () => {
    const meter = spendMeter({ cost: usd('0.06'), cap: usd('0.05') }, words);
    assert.equal(meter?.text, '0.06 of 0.05 USD, 120 %');
    assert.equal(meter?.fill, 100);
    assert.equal(meter?.level, 100);
  });

  it('is nothing spent yet before the first cost, and no meter without a cap', () => {
    assert.equal(spendMeter({ cap: usd('0.05') }, words)?.text, '0.00 of 0.05 USD, 0 %');
    assert.equal(spendMeter({ cost: usd('0.05') }, words), undefined);
    assert.equal(spendMeter({ cost: usd('0.05'), cap: null }, words), undefined);
  });

  it('shows a bad cost as received with its note and compares nothing', () => {
    const cases: Array<[unknown, string]> = [
      ['-5.00', '-5.00 USD (a negative amount, not counted) against a cap of 0.05 USD'],
      ['NaN', 'NaN USD (not a decimal amount, not counted) against a cap of 0.05 USD'],
      [12.5, '12.5 USD (not a decimal amount, not counted) against a cap of 0.05 USD'],
      ['1e309', '1e309 USD (not a decimal amount, not counted) against a cap of 0.05 USD'],
    ];
    for (const [amount, text] of cases) {
      const meter = spendMeter({ cost: usd(amount), cap: usd('0.05') }, words);
      assert.deepEqual(meter, { text, noted: true }, String(amount));
    }
    const long = spendMeter({ cost: usd('9'.repeat(5000)), cap: usd('0.05') }, words);
    assert.equal(long?.noted, true);
    assert.equal(long?.percent, undefined);
    assert.ok(long.text.length < 200, 'a long amount is shown cut');
    assert.match(long.text, /too long to be real/);
  });

  it('never compares a cost in another currency with the cap', () => {
    const meter = spendMeter({ cost: { amount: '0.04', currency: 'EUR' }, cap: usd('0.05') }, words);
    assert.deepEqual(meter, {
      text: '0.04 EUR (another currency than the cap, not counted) against a cap of 0.05 USD',
      noted: true,
    });
  });

  it('shows a bad cap as received with its note', () => {
    assert.deepEqual(spendMeter({ cap: usd('lots') }, words), {
      text: 'lots USD (not a decimal amount, not counted)',
      noted: true,
    });
    assert.equal(
      spendMeter({ cost: usd('0.01'), cap: usd('-0.50') }, words)?.text,
      '0.01 USD against a cap of -0.50 USD (a negative amount, not counted)',
    );
  });

  it('levels: 50, 80 and 100 reached at their per cent exactly', () => {
    assert.deepEqual([0, 49, 50, 79, 80, 99, 100, 250].map(spendLevel), [0, 0, 50, 50, 80, 80, 100, 100]);
  });

  it('says each threshold once per crossing; the first reading only sets the level', () => {
    const crossings = new SpendCrossings();
    const said = [0, 10, 50, 60, 50, 80, 80, 100, 100].map((p) => crossings.next(spendLevel(p)));
    assert.deepEqual(said, [undefined, undefined, 50, undefined, undefined, 80, undefined, 100, undefined]);
    const opened = new SpendCrossings();
    assert.equal(opened.next(80), undefined, 'a panel opened past 80 % says nothing');
    assert.equal(opened.next(100), 100);
  });

  it('a jump past two thresholds says the highest once; an unreadable amount changes nothing', () => {
    const crossings = new SpendCrossings();
    crossings.next(0);
    assert.equal(crossings.next(80), 80);
    assert.equal(crossings.next(undefined), undefined);
    assert.equal(crossings.next(80), undefined);
  });

  it('a raised cap lowers the level, and the thresholds above it are said again when crossed', () => {
    const crossings = new SpendCrossings();
    crossings.next(0);
    assert.equal(crossings.next(100), 100);
    assert.equal(crossings.next(50), undefined, 'the cap was raised: 0.05 of 0.10');
    assert.equal(crossings.next(80), 80);
    assert.equal(crossings.next(100), 100);
    crossings.reset();
    assert.equal(crossings.next(100), undefined, 'after a reset the first reading is silent');
  });

  it("notes spend events by keeping their amounts as received, and ignores another run's", () => {
    const seen: SpendSeen = {};
    const cost = usd('0.01');
    assert.equal(noteSpendEvent(seen, 'run_1', { event: 'usage.updated', data: { sequence: 1, cost } }), true);
    assert.equal(seen.cost, cost, 'the same object: nothing is checked or copied per event');
    noteSpendEvent(seen, 'run_1', { event: 'budget.reached', data: { budget: usd('0.05'), cost: usd('0.05') } });
    assert.deepEqual(seen, { cost: usd('0.05'), cap: usd('0.05') });
    noteSpendEvent(seen, 'run_1', { event: 'budget.raised', data: { budget: usd('0.10') } });
    assert.deepEqual(seen, { cost: usd('0.05'), cap: usd('0.10') });
    assert.equal(
      noteSpendEvent(seen, 'run_1', { event: 'budget.raised', data: { run_id: 'run_someone_else', budget: usd('9') } }),
      false,
    );
    assert.equal(noteSpendEvent(seen, 'run_1', { event: 'step.started', data: { cost: usd('7') } }), false);
    assert.equal(noteSpendEvent(seen, 'run_1', { event: 'usage.updated', data: null }), true);
    assert.deepEqual(seen, { cost: usd('0.05'), cap: usd('0.10') });
  });

  it('where a run is: its newest event about itself, never a budget event naming another run', () => {
    const own = { event: 'step.started', data: {} };
    const other = { event: 'budget.reached', data: { run_id: 'run_someone_else' } };
    const mine = { event: 'budget.reached', data: { run_id: 'run_1' } };
    assert.equal(newestOwnEventName('run_1', [own, other]), 'step.started');
    assert.equal(newestOwnEventName('run_1', [own, mine]), 'budget.reached');
    assert.equal(newestOwnEventName('run_1', [other]), undefined);
  });
});
