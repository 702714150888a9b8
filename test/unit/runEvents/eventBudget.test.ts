// The per-event budget: what is cut, how the cut shows, and that cutting twice changes nothing.
import * as assert from 'node:assert';
import {
  boundEvent,
  DEFAULT_EVENT_BUDGET,
  jsonBytes,
  truncationMark,
  utf8Length,
} from '../../../src/runEvents/eventBudget';
import { ev } from '../webview/fixtures';

const budget = DEFAULT_EVENT_BUDGET;

describe('event budget', () => {
  it('keeps an event within the budget as it is, with no truncation flag', () => {
    const event = ev('tool.called', 7, {
      step_id: 's',
      tool: 'search',
      args: { q: 'x', n: [1, 2] },
      ok: true,
      none: null,
    });
    const { event: kept } = boundEvent(event);
    assert.deepStrictEqual(kept, event);
    assert.strictEqual(kept.truncatedBytes, undefined);
  });

  it('cuts a long string to the budget and ends it with the mark of its full size in UTF-8 bytes', () => {
    const text = `${'€'.repeat(100_000)}`;
    const { event: kept, bytes } = boundEvent(ev('observation.recorded', 2, { summary: text }));
    const summary = String(kept.data.summary);
    assert.ok(summary.endsWith(truncationMark(300_000)), summary.slice(-40));
    assert.ok(summary.length <= budget.stringChars);
    assert.ok(bytes <= budget.eventBytes + 256);
    assert.ok(kept.truncatedBytes !== undefined && kept.truncatedBytes >= 300_000);
    assert.strictEqual(kept.data.sequence, 2);
  });

  it('bounds the whole event: many fields, wide arrays, deep nesting, long keys and names', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 1_000_000; i++) {
      deep = [deep];
    } // JSON.parse builds such values without complaint
    const wide = Array.from({ length: 10_000 }, (_, i) => i);
    const many: Record<string, string> = {};
    for (let i = 0; i < 5000; i++) {
      many[`field_${i}`] = 'v'.repeat(100);
    }
    const { event: kept } = boundEvent({
      event: 'k'.repeat(100_000),
      data: { sequence: 1, deep, wide, many, ['q'.repeat(10_000)]: 1 },
    });
    assert.ok(kept.event.length <= budget.nameChars);
    assert.ok(jsonBytes(kept.data) <= budget.eventBytes + 512, `${jsonBytes(kept.data)} bytes kept`);
    assert.ok(JSON.stringify(kept.data).includes('(truncated, '));
    const keptWide = kept.data.wide as unknown[];
    assert.ok(keptWide.length <= budget.entries);
    assert.match(String(keptWide[keptWide.length - 1]), /^… \(truncated, \d+ bytes\)$/);
    for (const key of Object.keys(kept.data)) {
      assert.ok(key.length <= budget.nameChars, `key of ${key.length} characters`);
    }
  });

  it("keeps 8 levels of nesting (the event's data is the first) and marks the 9th, in objects and arrays", () => {
    const ninth = { level: 9, leaf: 'x' };
    let chain: Record<string, unknown> = ninth;
    for (let level = 8; level >= 2; level--) {
      chain = { level, next: chain };
    }
    let list: unknown = ['ninth'];
    for (let level = 8; level >= 2; level--) {
      list = [level, list];
    }
    const { event: kept } = boundEvent(ev('nested', 1, { level: 1, next: chain, list }));
    let node = kept.data as Record<string, unknown>;
    for (let level = 2; level <= 8; level++) {
      node = node.next as Record<string, unknown>;
      assert.strictEqual(node?.level, level, `level ${level} is kept as an object`);
    }
    assert.strictEqual(node.next, truncationMark(jsonBytes(ninth)), 'the 9th level is the mark of its size');
    let items = kept.data.list as unknown[];
    for (let level = 2; level < 8; level++) {
      items = items[1] as unknown[];
    }
    assert.deepStrictEqual(items[0], 8, 'the 8th array level is kept');
    assert.strictEqual(items[1], truncationMark(jsonBytes(['ninth'])), 'the 9th array level is the mark');
    assert.ok(kept.truncatedBytes !== undefined, 'the event says it was cut');
  });

  it('keeps "__proto__" a plain field, not the prototype', () => {
    const data = JSON.parse(
      '{"sequence": 1, "__proto__": {"polluted": true}, "big": "' + 'x'.repeat(50_000) + '"}',
    ) as { sequence: number };
    const { event: kept } = boundEvent({ event: 'x', data });
    assert.strictEqual((kept.data as Record<string, unknown>).polluted, undefined);
    assert.ok(Object.prototype.hasOwnProperty.call(kept.data, '__proto__'));
  });

  it('changes nothing when bounding again (the webview runs the same model on what the host sent)', () => {
    const once = boundEvent(
      ev('observation.recorded', 3, {
        summary: 'y'.repeat(1_000_000),
        list: Array.from({ length: 500 }, (_, i) => `item ${i}`),
      }),
    ).event;
    const twice = boundEvent(JSON.parse(JSON.stringify(once))).event;
    assert.deepStrictEqual(twice, once);
  });

  it('counts UTF-8 bytes as an encoder does', () => {
    for (const text of [
      '',
      'abc',
      'é',
      '€',
      '😀',
      'a\ud800b',
      `${'😀'.repeat(3)}x`,
      'xé€😀\ud800'.repeat(100_000),
      `${'x'.repeat(65_535)}😀`,
    ]) {
      assert.strictEqual(utf8Length(text), Buffer.byteLength(text, 'utf8'), JSON.stringify(text));
    }
  });
});
