// Pages of the whole log: before, after and around a sequence, with and without a filter, at
// both ends, with the side flags and the filtered total; the same events logQuery.ts selects.
import * as assert from 'node:assert';
import * as path from 'node:path';
import { type LogFilter, matchesFilter } from '../../../src/runEvents/logQuery';
import { FilterIndexes } from '../../../src/runLog/filterIndex';
import { RunLogCache } from '../../../src/runLog/logCache';
import { type PageRequest, readPage } from '../../../src/runLog/logPages';
import { syntheticEvents, tempFolder } from './synthetic';

describe('readPage', () => {
  let folder: ReturnType<typeof tempFolder>;
  let cache: RunLogCache;
  let indexes: FilterIndexes;
  const all = syntheticEvents(1, 3000);
  before(async () => {
    folder = tempFolder();
    cache = (await RunLogCache.open(path.join(folder.dir, 'run_p.events.jsonl'))).cache;
    cache.append(all);
    indexes = new FilterIndexes(cache, 4, { chunkEvents: 300 });
  });
  after(async () => {
    await cache.close();
    folder.remove();
  });

  const seqs = (events: { data: { sequence: number } }[]) => events.map((e) => e.data.sequence);
  const page = (r: Partial<PageRequest>) =>
    readPage(cache, indexes, { sequence: 0, direction: 'after', limit: 10, filter: {}, ...r });
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

  it('unfiltered: after, before and around a sequence, with the side flags and the total', async () => {
    let p = await page({ sequence: 100, direction: 'after' });
    assert.deepStrictEqual(seqs(p.events), range(101, 110));
    assert.deepStrictEqual([p.before, p.after, p.total], [true, true, 3000]);
    p = await page({ sequence: 100, direction: 'before' });
    assert.deepStrictEqual(seqs(p.events), range(90, 99));
    p = await page({ sequence: 100, direction: 'around', limit: 5 });
    assert.deepStrictEqual(seqs(p.events), range(98, 102));
  });

  it('unfiltered at the ends: the first page, the last page, and past either end', async () => {
    let p = await page({ sequence: 0, direction: 'after' });
    assert.deepStrictEqual(seqs(p.events), range(1, 10));
    assert.strictEqual(p.before, false);
    p = await page({ sequence: 2995, direction: 'after' });
    assert.deepStrictEqual([seqs(p.events), p.after], [range(2996, 3000), false]);
    p = await page({ sequence: 5, direction: 'before' });
    assert.deepStrictEqual([seqs(p.events), p.before, p.after], [range(1, 4), false, true]);
    p = await page({ sequence: 1e9, direction: 'before', limit: 3 });
    assert.deepStrictEqual([seqs(p.events), p.after], [[2998, 2999, 3000], false]);
    p = await page({ sequence: 3000, direction: 'around', limit: 4 });
    assert.deepStrictEqual(seqs(p.events), [2997, 2998, 2999, 3000]);
    p = await page({ sequence: 1, direction: 'around', limit: 4 });
    assert.deepStrictEqual(seqs(p.events), [1, 2, 3, 4]);
  });

  const filters: [string, LogFilter][] = [
    ['a tool', { tool: 'shell' }],
    ['kinds', { kinds: ['step.started', 'observation.recorded'] }],
    ['a step', { stepId: 'step_42' }],
    ['problems', { status: 'problems' }],
    ['combined', { kinds: ['observation.recorded'], status: 'problems' }],
  ];
  for (const [name, filter] of filters) {
    it(`filtered by ${name}: the same events and total as matchesFilter over the whole log`, async () => {
      const expected = seqs(all.filter((e) => matchesFilter(e, filter)));
      const first = await page({ sequence: 0, direction: 'after', limit: 7, filter });
      assert.deepStrictEqual(seqs(first.events), expected.slice(0, 7));
      assert.deepStrictEqual([first.before, first.after, first.total], [false, expected.length > 7, expected.length]);
      const mid = expected[Math.floor(expected.length / 2)];
      const at = expected.indexOf(mid);
      const before = await page({ sequence: mid, direction: 'before', limit: 4, filter });
      assert.deepStrictEqual(seqs(before.events), expected.slice(Math.max(0, at - 4), at));
      const after = await page({ sequence: mid, direction: 'after', limit: 4, filter });
      assert.deepStrictEqual(seqs(after.events), expected.slice(at + 1, at + 5));
      const around = await page({ sequence: mid, direction: 'around', limit: 3, filter });
      assert.ok(seqs(around.events).includes(mid));
      const last = await page({ sequence: 1e9, direction: 'before', limit: 5, filter });
      assert.deepStrictEqual([seqs(last.events), last.after], [expected.slice(-5), false]);
    });
  }

  it('a filtered total follows the log as it grows', async () => {
    const filter = { kinds: ['step.started'] };
    assert.strictEqual((await page({ filter })).total, 300);
    cache.append(syntheticEvents(3001, 3011));
    const p = await page({ sequence: 2995, filter });
    assert.deepStrictEqual([seqs(p.events), p.total], [[3001, 3011], 302]);
  });
});
