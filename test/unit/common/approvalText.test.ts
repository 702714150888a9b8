// How an approval reads in short places: arguments on one cut line, the time left, the outcome
// of a decision made elsewhere.
import * as assert from 'node:assert/strict';
import { decidedElsewhere, shortArguments, timeLeft } from '../../../src/common/approvalText';
import { untranslated } from '../../../src/common/translate';

describe('common/approvalText', () => {
  it('puts arguments on one line, cut, nested objects shortened', () => {
    assert.equal(shortArguments({ path: 'out.txt', mode: 'overwrite' }), 'path: "out.txt", mode: "overwrite"');
    assert.equal(shortArguments(undefined), '');
    const line = shortArguments({ text: 'a\nb\r\nc'.repeat(100), deep: { a: { b: { c: { d: 1 } } } } }, 50);
    assert.ok(!/[\r\n]/.test(line));
    assert.ok(Array.from(line).length <= 50);
    assert.ok(shortArguments({ deep: { a: { b: { c: 1 } } } }).includes('{…}'));
  });

  it('says the time left in the largest sensible unit, and "expired" past it', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    assert.equal(timeLeft('2030-01-01T00:00:30Z', now, untranslated), '30 s left');
    assert.equal(timeLeft('2030-01-01T00:04:01Z', now, untranslated), '5 min left');
    assert.equal(timeLeft('2030-01-01T05:00:00Z', now, untranslated), '5 h left');
    assert.equal(timeLeft('2030-01-31T00:00:00Z', now, untranslated), '30 days left');
    assert.equal(timeLeft('2029-12-31T00:00:00Z', now, untranslated), 'expired');
    assert.equal(timeLeft('not a time', now, untranslated), undefined);
  });

  it('names the outcome of a decision made elsewhere', () => {
    const at = () => '10:42';
    assert.equal(decidedElsewhere('approved', '2030-01-01T10:42:00Z', untranslated, at), 'Approved elsewhere at 10:42.');
    assert.equal(decidedElsewhere('denied', undefined, untranslated, at), 'Denied elsewhere.');
    assert.match(decidedElsewhere('expired', undefined, untranslated, at), /expired/);
  });
});
