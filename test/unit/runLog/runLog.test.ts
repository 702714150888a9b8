// RunLog, the host's handle on one run's log: a folder that cannot hold it gives no log and one
// warning (the panel falls back to its model); housekeeping at open never removes an open log.
import * as assert from 'node:assert';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../../../src/common/logger';
import { logFilePath } from '../../../src/runLog/logFolder';
import { RunLog } from '../../../src/runLog/runLog';
import { syntheticEvents, tempFolder } from './synthetic';

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const none = () => undefined;
  return { warnings, debug: none, info: none, warn: (m: string) => void warnings.push(m), error: none };
}

describe('RunLog', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => (folder = tempFolder()));
  afterEach(() => folder.remove());

  it('a folder that cannot be created gives no log and one warning', async () => {
    const blocked = path.join(folder.dir, 'run-logs');
    writeFileSync(blocked, 'a file where the folder should be');
    const log = recordingLogger();
    assert.strictEqual(await RunLog.open(blocked, 'run_a', { log }), undefined);
    assert.strictEqual(log.warnings.length, 1);
    assert.match(log.warnings[0], /newest events only/);
  });

  it('no log for a run id that is not a safe file name', async () => {
    assert.strictEqual(await RunLog.open(folder.dir, '../run_a', { log: recordingLogger() }), undefined);
  });

  it('housekeeping when a log opens removes old logs but never one that is open', async () => {
    const log = recordingLogger();
    const limits = { maxBytes: 1, maxRuns: 1 };
    const a = await RunLog.open(folder.dir, 'run_a', { log, limits });
    a?.append(syntheticEvents(1, 10));
    await a?.page({ sequence: 0, direction: 'after', limit: 1, filter: {} });
    const b = await RunLog.open(folder.dir, 'run_b', { log, limits });
    assert.ok(existsSync(logFilePath(folder.dir, 'run_a') as string), 'the open log stays');
    await a?.close();
    await b?.close();
    const c = await RunLog.open(folder.dir, 'run_c', { log, limits });
    assert.ok(!existsSync(logFilePath(folder.dir, 'run_a') as string), 'closed, it may go');
    await c?.close();
  });

  it("one run's log stops at its cap, and the folder is pruned while it grows, not only at the next open", async () => {
    const log = recordingLogger();
    const infos: string[] = [];
    log.info = (m: string) => void infos.push(m);
    // An older run's log of 3 MB in a folder capped at 5 MB.
    const old = logFilePath(folder.dir, 'run_old') as string;
    writeFileSync(old, `${JSON.stringify({ event: 'x', data: { sequence: 1, pad: 'p'.repeat(3 * 1024 * 1024) } })}\n`);
    const limits = { maxBytes: 5 * 1024 * 1024, maxRuns: 10 };
    const run = await RunLog.open(folder.dir, 'run_big', { log, limits });
    assert.ok(run && existsSync(old), 'the folder was within its limits when the log opened');
    // A long run: 60,000 events, about 7 MB as JSON lines.
    for (let from = 1; from <= 60_000; from += 1000) {
      run.append(syntheticEvents(from, from + 999));
    }
    await run.housekept();
    assert.ok(!existsSync(old), "the old log went while this one grew past the folder's room");
    const size = statSync(logFilePath(folder.dir, 'run_big') as string).size;
    assert.ok(size <= limits.maxBytes, `the run's log stays within its cap: ${size} bytes`);
    assert.ok(
      run.cappedAfter !== undefined && run.cappedAfter < 60_000 && run.cappedAfter === run.lastSequence,
      `capped after ${run.cappedAfter}`,
    );
    assert.strictEqual(infos.filter((m) => /reached its size limit/.test(m)).length, 1, infos.join('\n'));
    const page = await run.page({ sequence: run.cappedAfter, direction: 'after', limit: 5, filter: {} });
    assert.deepStrictEqual([page.events.length, page.after], [0, false], 'nothing past the cap');
    await run.close();
  });

  it('gives an event as kept, and none past the end', async () => {
    const log = await RunLog.open(folder.dir, 'run_e', { log: recordingLogger() });
    log?.append(syntheticEvents(1, 600));
    assert.strictEqual((await log?.event(300))?.data.sequence, 300);
    assert.strictEqual(await log?.event(601), undefined);
    await log?.close();
    assert.strictEqual(log?.usable, false);
  });

  it('keeps one log per service: the same run id on another base URL does not read the first one', async () => {
    const log = recordingLogger();
    const first = await RunLog.open(folder.dir, 'run_same', { log, service: 'http://127.0.0.1:4010' });
    first?.append(syntheticEvents(1, 5));
    await first?.close();
    const other = await RunLog.open(folder.dir, 'run_same', { log, service: 'https://agents.example.com/prefix' });
    assert.strictEqual(other?.length, 0, "another service's events are not this run's");
    await other?.close();
    const again = await RunLog.open(folder.dir, 'run_same', { log, service: 'http://127.0.0.1:4010' });
    assert.strictEqual(again?.length, 5, 'the first service finds its own log again');
    await again?.close();
  });
});
