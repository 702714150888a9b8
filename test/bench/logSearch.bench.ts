// Benchmark of the run log on the host: a 1,000,000-event log written
// into a cache file (src/runLog), reopened (index rebuilt), then found: a text that occurs once
// near the end and a text that occurs 10,000 times. Recorded: time to the first match, time to
// the full count, the longest event-loop block while searching (a setImmediate gap probe and
// monitorEventLoopDelay), heap growth; then a filtered page, a page anywhere, and the Markdown
// export. Peer: `grep -c` and `rg -c` over the same file, in the same run.
// Run: npm run bench -- logSearch   (or node --expose-gc out/test/bench/logSearch.bench.js [events])
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { WireEvent } from '../../src/runEvents/wire';
import { FilterIndexes } from '../../src/runLog/filterIndex';
import { RunLogCache } from '../../src/runLog/logCache';
import { exportLog } from '../../src/runLog/logExport';
import { LogFinder } from '../../src/runLog/logFind';
import { readPage } from '../../src/runLog/logPages';
import { benchEvent, COMMON, RARE } from './benchLog';

const TOTAL = Number(process.argv[2] ?? 1_000_000);
const event = (sequence: number): WireEvent => benchEvent(sequence, TOTAL);

const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => {
  gc?.();
  return process.memoryUsage().heapUsed;
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (t: number) => `${t.toFixed(0)} ms`;

/** The longest gap between two setImmediate turns while `work` runs: what the event loop was blocked for. */
async function probed<T>(
  work: () => Promise<T>,
): Promise<{ result: T; maxGapMs: number; p99DelayMs: number; maxDelayMs: number; peakHeap: number }> {
  let running = true;
  let maxGap = 0;
  let peakHeap = 0;
  let last = performance.now();
  let ticks = 0;
  const tick = () => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
    if (++ticks % 64 === 0) {
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    }
    if (running) {
      setImmediate(tick);
    }
  };
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  setImmediate(tick);
  try {
    const result = await work();
    return { result, maxGapMs: maxGap, p99DelayMs: h.percentile(99) / 1e6, maxDelayMs: h.max / 1e6, peakHeap };
  } finally {
    running = false;
    h.disable();
  }
}

function peer(cmd: string, args: string[]): { ms: number; out: string } {
  const t0 = performance.now();
  const res = spawnSync(cmd, args, { encoding: 'utf8' });
  return {
    ms: performance.now() - t0,
    out: (res.stdout ?? '').trim() || `(exit ${res.status}: ${res.error?.message ?? res.stderr})`,
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'logsearch-bench-'));
  const file = path.join(dir, 'run_bench.events.jsonl');
  try {
    console.log(
      `Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), ${TOTAL.toLocaleString('en')} events`,
    );
    let t0 = performance.now();
    {
      const { cache } = await RunLogCache.open(file);
      const batch: WireEvent[] = [];
      for (let s = 1; s <= TOTAL; s++) {
        batch.push(event(s));
        if (batch.length === 1000) {
          cache.append(batch.splice(0));
          // As a live stream would: the writer keeps up between batches.
          if (s % 50_000 === 0) {
            await cache.flushed();
          }
        }
      }
      cache.append(batch);
      await cache.close();
    }
    const built = performance.now() - t0;
    const size = statSync(file).size;
    console.log(
      `cache built: ${ms(built)} (${mb(size)} on disk, ${((TOTAL / built) * 1000).toFixed(0)} events/s through boundEvent + append)`,
    );

    const heap0 = heap();
    t0 = performance.now();
    const reopen = await probed(() => RunLogCache.open(file));
    const { cache } = reopen.result;
    console.log(
      `reopen (index rebuilt by streaming the file): ${ms(performance.now() - t0)}, longest event-loop block ${ms(reopen.maxGapMs)}, index heap ${mb(heap() - heap0)}`,
    );

    const finder = new LogFinder(cache);
    for (const [name, query, expected] of [
      ['once, near the end', RARE, 1],
      ['10,000 times', COMMON, 10_000],
    ] as const) {
      const before = heap();
      let first: number | undefined;
      const start = performance.now();
      const run = await probed(() =>
        finder.find({ query, filter: {}, from: 0, direction: 'next' }, (p) => {
          if (first === undefined && p.sequence !== undefined) {
            first = performance.now() - start;
          }
        }),
      );
      const total = performance.now() - start;
      const result = run.result;
      if (result.count !== expected) {
        throw new Error(`${name}: counted ${result.count}, expected ${expected}`);
      }
      console.log(
        `find "${query}" (${name}): first match ${ms(first ?? NaN)}, full count ${ms(total)} (${result.count} matches), ` +
          `longest block ${ms(run.maxGapMs)} (loop delay p99 ${ms(run.p99DelayMs)}, max ${ms(run.maxDelayMs)}), ` +
          `heap peak +${mb(run.peakHeap - before)}, after +${mb(heap() - before)}`,
      );
      const again = performance.now();
      const next = await finder.find(
        { query, filter: {}, from: result.sequence ?? 0, direction: 'next' },
        () => undefined,
      );
      console.log(
        `  next match after the count: ${(performance.now() - again).toFixed(2)} ms (ordinal ${next.ordinal} of ${next.count})`,
      );
      for (const [cmd, args] of [
        ['grep', ['-c', query, file]],
        ['rg', ['-c', '--no-mmap', query, file]],
      ] as const) {
        const p = peer(cmd, [...args]);
        console.log(`  peer ${cmd} -c: ${ms(p.ms)} (${p.out} lines)`);
      }
    }

    const indexes = new FilterIndexes(cache);
    let start = performance.now();
    const filtered = await probed(() =>
      readPage(cache, indexes, { sequence: 0, direction: 'after', limit: 200, filter: { tool: 'read_file' } }),
    );
    console.log(
      `first filtered page (tool = read_file, builds the filter's position list): ${ms(performance.now() - start)}, longest block ${ms(filtered.maxGapMs)}, total ${filtered.result.total}`,
    );
    start = performance.now();
    await readPage(cache, indexes, {
      sequence: Math.floor(TOTAL * 0.7),
      direction: 'around',
      limit: 200,
      filter: { tool: 'read_file' },
    });
    console.log(`filtered page around 70%, list built: ${(performance.now() - start).toFixed(2)} ms`);
    start = performance.now();
    const page = await readPage(cache, indexes, {
      sequence: Math.floor(TOTAL / 2),
      direction: 'around',
      limit: 500,
      filter: {},
    });
    console.log(
      `unfiltered page of 500 around the middle: ${(performance.now() - start).toFixed(2)} ms (${page.events.length} events)`,
    );

    const target = path.join(dir, 'transcript.md');
    start = performance.now();
    const exported = await probed(() =>
      exportLog(cache, 'markdown', target, { runId: 'run_bench', objective: 'bench' }),
    );
    console.log(
      `Markdown export: ${ms(performance.now() - start)} (${mb(statSync(target).size)}), longest block ${ms(exported.maxGapMs)}`,
    );
    await cache.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
