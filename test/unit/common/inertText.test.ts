// The one rule for outside text: nothing a server sends can become a link, an icon, reordered
// characters, a forged line, or a 10 MB notification.
import * as assert from 'node:assert/strict';
import { inert, INERT_MAX_CHARS } from '../../../src/common/inertText';

/** VS Code's notification link syntax (src/vs/base/common/linkedText.ts), as it parses messages. */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

describe('common/inertText', () => {
  it('leaves no link a notification would make clickable', () => {
    const hostile =
      'Your key expired. [Re-authenticate here](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D) now [x](https://evil.example "t")';
    assert.ok(NOTIFICATION_LINK.test(hostile), 'the probe itself finds the link');
    NOTIFICATION_LINK.lastIndex = 0;
    const shown = inert(hostile);
    assert.equal(shown.match(NOTIFICATION_LINK), null, shown);
    assert.match(shown, /Re-authenticate here/, 'the words stay');
  });

  it('breaks theme icon syntax', () => {
    assert.ok(!inert('$(alert) $(sync~spin)').includes('$('));
  });

  it('shows control, newline, bidi and zero-width characters as visible escapes', () => {
    const shown = inert('a\nb\r\tc\u001b[31m txt\u202Eexe.txt \u2066x\u2069 zero\u200bwidth');
    assert.ok(!/[\u0000-\u001f\u202a-\u202e\u2066-\u2069\u200b]/.test(shown), shown);
    assert.match(shown, /a\\nb\\r\\tc\\u001b\[31m txt\\u202eexe\.txt/);
  });

  it('cuts a huge value to a bounded line without reading it all', () => {
    const shown = inert('x'.repeat(10 * 1024 * 1024));
    assert.equal(Array.from(shown).length, INERT_MAX_CHARS);
    assert.ok(shown.endsWith('…'));
  });

  it('turns non-strings into text and never throws', () => {
    assert.equal(inert(undefined), '');
    assert.equal(inert(null), '');
    assert.equal(inert(42), '42');
    assert.equal(inert({ a: '[x](command:y)' }), '{"a":"[x] (command:y)"}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.equal(inert(cyclic), '');
  });

  it('keeps ordinary text as it is', () => {
    assert.equal(inert('Uploaded report.pdf (12.1 KB) to task_1.'), 'Uploaded report.pdf (12.1 KB) to task_1.');
  });
});
