// The run log of VS Code for the Web (runLog.web.ts over memoryLogCache.ts): the same pages,
// filters, find and event look-ups as the log on disk for the same events; each sequence kept
// once however the batches overlap; a cap per log and one pool for the window, whose bytes a
// closed log gives back.
import * as assert from 'node:assert';
import type { Logger } from '../../../src/common/logger';
import type { LogFilter } from '../../../src/runEvents/logQuery';
import type { FindProgress } from '../../../src/runLog/logFind';
import type { PageRequest } from '../../../src/runLog/logPages';
import { MEMORY_POOL_BYTES, MemoryLogCache, MemoryPool } from '../../../src/runLog/memoryLogCache';
import { RunLog as DiskRunLog } from '../../../src/runLog/runLog';
import { RunLog as MemoryRunLog } from '../../../src/runLog/runLog.web';
import { syntheticEvents, tempFolder } from './synthetic';

function recordingLogger(): Logger & { infos: string[] } {
  const infos: string[] = [];
  const none = () => undefined;
  return { infos, debug: none, info: (m: string) => void infos.push(m), warn: none, error: none };
}

const seqs = (events: { data: { sequence: number } }[]) => events.map((e) => e.data.sequence);

describe('the run log in memory (VS Code for the Web)', () => {
  let folder: ReturnType<typeof tempFolder>;
  let disk: DiskRunLog;
  let memory: MemoryRunLog;
  const all = syntheticEvents(1, 2500);
  before(async () => {
    folder = tempFolder();
    const opened = await DiskRunLog.open(folder.dir, 'run_same', { log: recordingLogger() });
    assert.ok(opened);
    disk = opened;
    const inMemory = await MemoryRunLog.open('unused', 'run_same', { log: recordingLogger() });
    assert.ok(inMemory);
    memory = inMemory;
    // Overlapping batches, as a reconnect replays: each sequence is kept once, in order.
    for (const log of [disk, memory]) {
      log.append(all.slice(0, 1200));
      log.append(all.slice(1000, 1800));
      log.append(all.slice(0, 10));
      log.append(all.slice(1790));
    }
  });
  after(async () => {
    await disk.close();
    await memory.close();
    folder.remove();
  });

  it('keeps every sequence exactly once, as the disk does', async () => {
    assert.strictEqual(memory.length, 2500);
    assert.strictEqual(memory.lastSequence, 2500);
    const page = await memory.page({ sequence: 0, direction: 'after', limit: 5000, filter: {} });
    assert.deepStrictEqual(
      seqs(page.events),
      all.map((e) => e.data.sequence),
    );
  });

  const requests: [string, Partial<PageRequest>][] = [
    ['after', { sequence: 100, direction: 'after' }],
    ['before', { sequence: 100, direction: 'before' }],
    ['around the end', { sequence: 2500, direction: 'around', limit: 7 }],
    ['past the end', { sequence: 1e9, direction: 'before', limit: 3 }],
  ];
  const filters: [string, LogFilter][] = [
    ['none', {}],
    ['a tool', { tool: 'shell' }],
    ['problems', { status: 'problems' }],
    ['a step', { stepId: 'step_42' }],
  ];
  for (const [name, request] of requests) {
    for (const [filterName, filter] of filters) {
      it(`answers a page ${name}, filter ${filterName}, as the disk does`, async () => {
        const full: PageRequest = { sequence: 0, direction: 'after', limit: 10, filter, ...request };
        assert.deepStrictEqual(await memory.page(full), await disk.page(full));
      });
    }
  }

  it('finds the same matches, with the same count and ordinal, as the disk', async () => {
    const request = { query: 'needle', filter: {}, from: 1500, direction: 'next' as const };
    const none = (_: FindProgress) => undefined;
    const inMemory = await memory.find(request, none);
    assert.deepStrictEqual(inMemory, await disk.find(request, none));
    assert.deepStrictEqual([inMemory.sequence, inMemory.count], [2000, 2]);
  });

  it('gives one event by its sequence, and none for one it does not hold', async () => {
    assert.deepStrictEqual(await memory.event(1234), await disk.event(1234));
    assert.strictEqual((await memory.event(1234))?.data.sequence, 1234);
    assert.strictEqual(await memory.event(99_999), undefined);
  });

  it('writes no export file: it rejects, and the panel says so (runExport.web.ts)', async () => {
    await assert.rejects(memory.export('markdown', '/tmp/x.md', { runId: 'run_same' }), /writes no files/);
  });
});

describe('MemoryLogCache bounds', () => {
  it('stops at its own cap, says after which sequence, and keeps what it has', async () => {
    const events = syntheticEvents(1, 100);
    const one = JSON.stringify(events[0]).length * 2;
    const cache = new MemoryLogCache({ maxBytes: one * 10 });
    cache.append(events);
    assert.ok(cache.cappedAfter !== undefined && cache.cappedAfter < 10, String(cache.cappedAfter));
    assert.strictEqual(cache.length, cache.cappedAfter);
    assert.strictEqual(cache.append(syntheticEvents(101, 110)), 0, 'a capped log takes nothing more');
    assert.deepStrictEqual(
      seqs(await cache.read(0, 100)),
      Array.from({ length: cache.length }, (_, i) => i + 1),
    );
  });

  it('shares one pool: a second log stops when the window has no bytes left, until the first closes', () => {
    const events = syntheticEvents(1, 50);
    const probe = new MemoryLogCache();
    probe.append(events);
    const pool = new MemoryPool(probe.sizeBytes + 10);
    const first = new MemoryLogCache({ pool });
    assert.strictEqual(first.append(events), 50);
    const second = new MemoryLogCache({ pool });
    assert.strictEqual(second.append(events), 0);
    assert.strictEqual(second.cappedAfter, 0, 'not even the first event fit');
    first.close();
    assert.strictEqual(pool.usedBytes, 0, 'a closed log gives its bytes back');
    const third = new MemoryLogCache({ pool });
    assert.strictEqual(third.append(events), 50);
    assert.ok(MEMORY_POOL_BYTES >= 64 * 1024 * 1024);
  });

  it('notes the cap once in the log of the web RunLog', async () => {
    const logger = recordingLogger();
    const log = await MemoryRunLog.open('unused', 'run_capped', { log: logger });
    assert.ok(log);
    // Past any cap: the window's pool is the module's; a huge event cannot fit in one run's log.
    const huge = { event: 'observation.recorded', data: { sequence: 1, summary: 'x'.repeat(17 * 1024 * 1024) } };
    log.append([huge], true);
    log.append([{ event: 'observation.recorded', data: { sequence: 2, summary: 'y' } }], true);
    assert.strictEqual(log.cappedAfter, 0);
    assert.strictEqual(logger.infos.filter((m) => /reached its limit/.test(m)).length, 1, logger.infos.join('\n'));
    await log.close();
    assert.strictEqual(log.usable, false);
  });
});
