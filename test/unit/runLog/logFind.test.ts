// Find over a synthetic log of 100,000 events: next and previous with wrapping, the count and
// the ordinal, filters, a stop, and a new find superseding the running one.
import * as assert from 'node:assert';
import * as path from 'node:path';
import { matchesFilter, matchesQuery, normalizeQuery } from '../../../src/runEvents/logQuery';
import { RunLogCache } from '../../../src/runLog/logCache';
import { type FindProgress, type FindRequest, LogFinder } from '../../../src/runLog/logFind';
import { syntheticEvents, tempFolder } from './synthetic';

const N = 100_000;

describe('LogFinder', function () {
  this.timeout(60_000);
  let folder: ReturnType<typeof tempFolder>;
  let cache: RunLogCache;
  before(async () => {
    folder = tempFolder();
    cache = (await RunLogCache.open(path.join(folder.dir, 'run_f.events.jsonl'))).cache;
    for (let s = 1; s <= N; s += 10_000) {
      cache.append(syntheticEvents(s, s + 9_999));
    }
    await cache.flushed();
  });
  after(async () => {
    await cache.close();
    folder.remove();
  });

  async function find(finder: LogFinder, r: Partial<FindRequest>) {
    const reports: FindProgress[] = [];
    const result = await finder.find({ query: 'needle', filter: {}, from: 0, direction: 'next', ...r }, (p) =>
      reports.push(p),
    );
    return { result, reports };
  }

  it('finds the next match after a sequence, counts all, and knows its ordinal', async () => {
    const finder = new LogFinder(cache, { progressMs: 0 });
    const { result, reports } = await find(finder, { from: 50_500 });
    assert.deepStrictEqual(result, { sequence: 51_000, ordinal: 51, count: 100, scanned: N, total: N, done: true });
    // The match to show was reported before the count was complete.
    const early = reports.find((p) => !p.done && p.sequence === 51_000);
    assert.ok(early && early.scanned < N, 'early report');
    assert.strictEqual(reports.filter((p) => p.done).length, 1);
  });

  it('wraps: next after the last match is the first, previous before the first is the last', async () => {
    const finder = new LogFinder(cache);
    assert.deepStrictEqual((await find(finder, { from: 100_000 })).result.sequence, 1000);
    assert.strictEqual((await find(finder, { from: 1000, direction: 'prev' })).result.sequence, 100_000);
    const prev = (await find(new LogFinder(cache), { from: 1000, direction: 'prev' })).result;
    assert.deepStrictEqual([prev.sequence, prev.ordinal, prev.count], [100_000, 100, 100]);
  });

  it('previous: the last match before a sequence, in a fresh pass and from the kept count', async () => {
    const fresh = (await find(new LogFinder(cache), { from: 50_500, direction: 'prev' })).result;
    assert.deepStrictEqual([fresh.sequence, fresh.ordinal, fresh.count], [50_000, 50, 100]);
    const finder = new LogFinder(cache);
    await find(finder, { from: 0 });
    const kept = await find(finder, { from: 50_500, direction: 'prev' });
    assert.deepStrictEqual([kept.result.sequence, kept.result.ordinal], [50_000, 50]);
    // From the kept count: one answer, no scan.
    assert.deepStrictEqual(kept.reports.length, 1);
  });

  it('counts exactly what matchesFilter and matchesQuery select, case-insensitively, with a filter', async () => {
    const all = syntheticEvents(1, N);
    for (const [query, filter] of [
      ['SHELL', {}],
      ['src/f1', { tool: 'read_file' }],
      ['"', {}],
      ['failed', { status: 'problems' as const }],
    ] as const) {
      const q = normalizeQuery(query);
      const expected = all.filter((e) => matchesFilter(e, filter) && matchesQuery(e, q)).map((e) => e.data.sequence);
      const { result } = await find(new LogFinder(cache), { query, filter });
      assert.strictEqual(result.count, expected.length, query);
      assert.strictEqual(result.sequence, expected[0], query);
    }
  });

  it('an empty query or one that matches nothing answers done with no sequence', async () => {
    assert.deepStrictEqual((await find(new LogFinder(cache), { query: '   ' })).result, {
      count: 0,
      scanned: N,
      total: N,
      done: true,
    });
    const none = (await find(new LogFinder(cache), { query: 'absent-text' })).result;
    assert.deepStrictEqual([none.sequence, none.ordinal, none.count], [undefined, undefined, 0]);
  });

  it('a new find supersedes the running one, and stop() ends it', async () => {
    const finder = new LogFinder(cache, { chunkEvents: 500 });
    const first = finder.find({ query: 'ok', filter: {}, from: 0, direction: 'next' }, () => undefined);
    const second = finder.find({ query: 'needle', filter: {}, from: 0, direction: 'next' }, () => undefined);
    await assert.rejects(first, (err: Error) => err.name === 'AbortError');
    assert.strictEqual((await second).count, 100);
    const third = finder.find({ query: 'ok', filter: {}, from: 0, direction: 'next' }, () => undefined);
    finder.stop();
    await assert.rejects(third, (err: Error) => err.name === 'AbortError');
  });

  it('after a count, events appended later are searched too', async () => {
    const finder = new LogFinder(cache);
    assert.strictEqual((await find(finder, {})).result.count, 100);
    cache.append([{ event: 'observation.recorded', data: { sequence: N + 1, summary: 'late needle' } }]);
    const { result } = await find(finder, { from: 100_000 });
    assert.deepStrictEqual([result.sequence, result.ordinal, result.count, result.total], [N + 1, 101, 101, N + 1]);
  });
});
