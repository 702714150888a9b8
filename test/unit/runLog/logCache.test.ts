// The run log cache on disk: appends in order without repeats, reads any range, rebuilds its
// index when reopened, drops a torn tail, deletes a corrupt file, and the folder stays capped.
import * as assert from 'node:assert';
import { promises as fsp, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { isRunId } from '../../../src/runEvents/ids';
import { BLOCK_EVENTS, RunLogCache } from '../../../src/runLog/logCache';
import { logFilePath, pruneLogFolder } from '../../../src/runLog/logFolder';
import { syntheticEvent, syntheticEvents, tempFolder } from './synthetic';

describe('RunLogCache', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => (folder = tempFolder()));
  afterEach(() => folder.remove());
  const file = () => path.join(folder.dir, 'run_a.events.jsonl');

  it('appends in batches, ignores repeats and older sequences, and reads any range back in order', async () => {
    const { cache, outcome } = await RunLogCache.open(file());
    assert.strictEqual(outcome, 'new');
    assert.strictEqual(cache.append(syntheticEvents(1, 700)), 700);
    assert.strictEqual(cache.append([syntheticEvent(500), syntheticEvent(700)]), 0);
    assert.strictEqual(cache.append(syntheticEvents(690, 1000)), 300);
    assert.strictEqual(cache.length, 1000);
    const all = await cache.read(0, 1000);
    assert.deepStrictEqual(
      all.map((e) => e.data.sequence),
      syntheticEvents(1, 1000).map((e) => e.data.sequence),
    );
    const middle = await cache.read(BLOCK_EVENTS - 3, BLOCK_EVENTS + 5);
    assert.deepStrictEqual(
      middle.map((e) => e.data.sequence),
      [254, 255, 256, 257, 258, 259, 260, 261],
    );
    assert.deepStrictEqual(
      (await cache.readAt([0, 300, 301, 999])).map((e) => e.data.sequence),
      [1, 301, 302, 1000],
    );
    assert.strictEqual(await cache.indexAfter(0), 0);
    assert.strictEqual(await cache.indexAfter(512), 512);
    assert.strictEqual(await cache.indexAfter(5000), 1000);
    await cache.close();
  });

  it('keeps events cut to the per-event budget, with their size as sent', async () => {
    const { cache } = await RunLogCache.open(file());
    cache.append([{ event: 'observation.recorded', data: { sequence: 1, summary: 'x'.repeat(100_000) } }]);
    const [kept] = await cache.read(0, 1);
    assert.ok(typeof kept.truncatedBytes === 'number' && kept.truncatedBytes > 100_000);
    assert.ok(String(kept.data.summary).length < 5000);
    await cache.close();
  });

  it('reopened, rebuilds its index from the file and appends after the last sequence', async () => {
    const first = (await RunLogCache.open(file())).cache;
    first.append(syntheticEvents(1, 1000));
    await first.close();
    const { cache, outcome } = await RunLogCache.open(file());
    assert.strictEqual(outcome, 'reused');
    assert.strictEqual(cache.length, 1000);
    assert.strictEqual(cache.lastSequence, 1000);
    cache.append(syntheticEvents(995, 1100));
    assert.deepStrictEqual(
      (await cache.read(998, 1002)).map((e) => e.data.sequence),
      [999, 1000, 1001, 1002],
    );
    assert.strictEqual(await cache.indexAfter(1050), 1050);
    await cache.close();
  });

  it('drops a torn last line (a write cut short) and keeps the rest', async () => {
    const first = (await RunLogCache.open(file())).cache;
    first.append(syntheticEvents(1, 300));
    await first.close();
    await fsp.appendFile(file(), '{"event":"step.started","data":{"seq');
    const { cache, outcome } = await RunLogCache.open(file());
    assert.strictEqual(outcome, 'torn-tail-dropped');
    assert.strictEqual(cache.length, 300);
    cache.append([syntheticEvent(301)]);
    await cache.flushed();
    assert.deepStrictEqual(
      (await cache.read(299, 301)).map((e) => e.data.sequence),
      [300, 301],
    );
    await cache.close();
  });

  for (const [name, junk] of [
    ['a line that is not JSON', 'not json\n'],
    ['a sequence out of order', JSON.stringify(syntheticEvent(5)) + '\n'],
  ] as const) {
    it(`deletes a file with ${name} and starts empty`, async () => {
      const first = (await RunLogCache.open(file())).cache;
      first.append(syntheticEvents(1, 50));
      await first.close();
      await fsp.appendFile(file(), junk + JSON.stringify(syntheticEvent(51)) + '\n');
      const { cache, outcome } = await RunLogCache.open(file());
      assert.strictEqual(outcome, 'corrupt-deleted');
      assert.strictEqual(cache.length, 0);
      assert.strictEqual(cache.lastSequence, 0);
      cache.append(syntheticEvents(1, 3));
      await cache.close();
      assert.strictEqual((await fsp.readFile(file(), 'utf8')).split('\n').length, 4);
    });
  }

  it('reports a disk error once and stops, so the caller falls back', async () => {
    const errors: unknown[] = [];
    const { cache } = await RunLogCache.open(file(), { onFailure: (err) => errors.push(err) });
    // The handle closed under it: every write fails.
    await (cache as unknown as { handle: { close(): Promise<void> } }).handle.close();
    cache.append(syntheticEvents(1, 10));
    await cache.flushed();
    cache.append(syntheticEvents(11, 20));
    await cache.flushed();
    assert.strictEqual(cache.failed, true);
    assert.strictEqual(errors.length, 1);
    await assert.rejects(cache.read(0, 5));
  });
});

describe('RunLogCache with a byte cap', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => (folder = tempFolder()));
  afterEach(() => folder.remove());
  const file = () => path.join(folder.dir, 'run_cap.events.jsonl');

  it('stops at its cap: the event that would pass it and every later one are dropped, the file stays within it', async () => {
    const maxBytes = 20_000;
    const { cache } = await RunLogCache.open(file(), { maxBytes });
    let added = 0;
    for (let from = 1; from <= 5000; from += 100) {
      added += cache.append(syntheticEvents(from, from + 99));
    }
    await cache.flushed();
    const size = (await fsp.stat(file())).size;
    assert.ok(size <= maxBytes, `${size} bytes on disk against a cap of ${maxBytes}`);
    assert.ok(size > maxBytes - 1000, `filled up to the cap (${size})`);
    assert.strictEqual(cache.cappedAfter, cache.lastSequence, 'capped after the last event kept');
    assert.strictEqual(added, cache.length);
    assert.ok(cache.length > 50 && cache.length < 5000, `${cache.length} events kept`);
    assert.strictEqual(cache.append(syntheticEvents(5001, 5010)), 0, 'no more appends, even small ones');
    assert.deepStrictEqual(
      (await cache.read(cache.length - 1, cache.length)).map((e) => e.data.sequence),
      [cache.cappedAfter],
      'what it has stays readable',
    );
    await cache.close();
    // Reopened at its cap, it still takes nothing.
    const again = (await RunLogCache.open(file(), { maxBytes: size })).cache;
    assert.strictEqual(again.cappedAfter, again.lastSequence);
    assert.strictEqual(again.append(syntheticEvents(again.lastSequence + 1, again.lastSequence + 2)), 0);
    await again.close();
  });

  it('has no cap unless given one', async () => {
    const { cache } = await RunLogCache.open(file());
    cache.append(syntheticEvents(1, 2000));
    assert.strictEqual(cache.cappedAfter, undefined);
    assert.strictEqual(cache.length, 2000);
    await cache.close();
  });
});

describe('pruneLogFolder', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => (folder = tempFolder()));
  afterEach(() => folder.remove());

  it('deletes the least recently written caches first until the folder fits, never an open one', async () => {
    const files = ['run_1', 'run_2', 'run_3', 'run_4'].map((id, i) => {
      const f = logFilePath(folder.dir, id) as string;
      writeFileSync(f, 'x'.repeat(1000));
      utimesSync(f, 1000 + i, 1000 + i);
      return f;
    });
    writeFileSync(path.join(folder.dir, 'other.txt'), 'x'.repeat(5000));
    const removed = await pruneLogFolder(folder.dir, new Set([files[0]]), { maxBytes: 2500, maxRuns: 10 });
    assert.deepStrictEqual(removed, [files[1], files[2]]);
    const left = (await fsp.readdir(folder.dir)).sort();
    assert.deepStrictEqual(left, ['other.txt', path.basename(files[0]), path.basename(files[3])].sort());
    assert.deepStrictEqual(await pruneLogFolder(folder.dir, new Set(), { maxBytes: 1e9, maxRuns: 1 }), [files[0]]);
  });

  it('names no file for an id with path characters', () => {
    assert.strictEqual(logFilePath(folder.dir, '../run_x'), undefined);
    assert.strictEqual(logFilePath(folder.dir, 'run_a/b'), undefined);
  });

  it('names a file for every run id the panel accepts, the longest included', () => {
    const longest = `run_${'a'.repeat(200)}`;
    assert.ok(isRunId(longest));
    const named = logFilePath(folder.dir, longest, 'https://agents.example.com/a/long/prefix') as string;
    assert.ok(named.startsWith(path.join(folder.dir, `${longest}.`)) && named.endsWith('.events.jsonl'));
    assert.ok(Buffer.byteLength(path.basename(named)) < 255);
    assert.strictEqual(logFilePath(folder.dir, `${longest}a`), undefined);
  });
});
