// What the Memory view and Search Memory show of an entry: inert, bounded, and the 64 KiB rule.
import * as assert from 'node:assert/strict';
import type { MemoryRecord } from '../../../src/api/resourceTypes';
import { untranslated as t } from '../../../src/common/translate';
import { memoryDescription, memoryLabel, memoryTooltip, tooLargeMessage } from '../../../src/memory/memoryText';
import { BIDI_OVERRIDE, COMMAND_LINK } from '../../runtime/hostile';

const record = (content: string, extra: Partial<MemoryRecord> = {}): MemoryRecord => ({
  id: 'mem_1',
  content,
  tags: [],
  version: 1,
  ...extra,
});

describe('memory text', () => {
  it('labels a row with the first non-blank line, inert: no command link, no raw bidi, bounded', () => {
    const label = memoryLabel(record(`\n\n ${COMMAND_LINK} ${BIDI_OVERRIDE} $(alert)\nsecond`), t);
    assert.ok(!label.includes(']('), label);
    assert.ok(!label.includes('\u202e'), label);
    assert.ok(!label.includes('$('), label);
    assert.ok(Array.from(memoryLabel(record('x'.repeat(10_000_000)), t)).length <= 80);
    assert.equal(memoryLabel(record('  \n '), t), '(empty memory)');
  });

  it('describes tags and project inert; the tooltip is bounded plain text', () => {
    assert.equal(
      memoryDescription(record('a', { tags: ['ops', '$(zap)'], project_id: 'proj_1' })),
      '#ops #$ (zap) proj_1',
    );
    const tip = memoryTooltip(record(`${'line\n'.repeat(100)}`, { score: 0.5 }), t);
    assert.ok(tip.split('\n').length < 20);
    assert.match(tip, /Relevance 50%/);
  });

  it('refuses more than 64 KiB with the size, and only then', () => {
    assert.equal(tooLargeMessage('a'.repeat(64 * 1024), t), undefined);
    assert.match(
      tooLargeMessage('é'.repeat(40000), t) ?? '',
      /^The text is 80000 bytes; a memory holds at most 65536 bytes/,
    );
  });
});
