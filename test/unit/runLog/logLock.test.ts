// One window at a time appends to a run's log (the logs are in storage every window shares): a
// live other process's lock keeps this one out (it shows the bounded model), a dead one's lock is
// taken over, housekeeping leaves another window's log alone, and closing gives the lock up.
import * as assert from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Logger } from '../../../src/common/logger';
import { logFilePath, pruneLogFolder } from '../../../src/runLog/logFolder';
import { acquireLogLock, lockPath } from '../../../src/runLog/logLock';
import { RunLog } from '../../../src/runLog/runLog';
import { tempFolder } from './synthetic';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A process that is alive for the test (another window's extension host, as far as the lock knows). */
function liveProcess(): { pid: number; stop(): void } {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  return { pid: child.pid as number, stop: () => void child.kill() };
}

/** The pid of a process that has ended. */
function deadPid(): number {
  return Number(
    spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
  );
}

describe('run log lock', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => (folder = tempFolder()));
  afterEach(() => folder.remove());

  it('takes the lock, keeps it for this process, and gives it up when the log closes', async () => {
    const log = await RunLog.open(folder.dir, 'run_a', { log: quiet });
    assert.ok(log);
    const lock = lockPath(logFilePath(folder.dir, 'run_a') as string);
    assert.strictEqual(readFileSync(lock, 'utf8'), String(process.pid));
    assert.strictEqual(
      await acquireLogLock(logFilePath(folder.dir, 'run_a') as string),
      true,
      'this process holds it already',
    );
    await log.close();
    assert.strictEqual(existsSync(lock), false);
  });

  it('a live other process holding the lock keeps this window out of the log', async () => {
    const other = liveProcess();
    try {
      writeFileSync(lockPath(logFilePath(folder.dir, 'run_a') as string), String(other.pid));
      const infos: string[] = [];
      const log = await RunLog.open(folder.dir, 'run_a', {
        log: { ...quiet, info: (m: string) => void infos.push(m) },
      });
      assert.strictEqual(log, undefined);
      assert.match(infos.join('\n'), /another window keeps this run's log/);
    } finally {
      other.stop();
    }
  });

  it('a lock left by a process that is gone is taken over', async () => {
    const file = logFilePath(folder.dir, 'run_a') as string;
    writeFileSync(lockPath(file), String(deadPid()));
    const log = await RunLog.open(folder.dir, 'run_a', { log: quiet });
    assert.ok(log, 'the stale lock did not keep the log closed');
    assert.strictEqual(readFileSync(lockPath(file), 'utf8'), String(process.pid));
    await log.close();
  });

  it('housekeeping leaves a log another live window holds', async () => {
    const other = liveProcess();
    try {
      const held = logFilePath(folder.dir, 'run_held') as string;
      const old = logFilePath(folder.dir, 'run_old') as string;
      writeFileSync(held, '');
      writeFileSync(old, '');
      writeFileSync(lockPath(held), String(other.pid));
      const removed = await pruneLogFolder(folder.dir, new Set(), { maxBytes: 1e9, maxRuns: 0 });
      assert.deepStrictEqual(removed, [old]);
      assert.ok(existsSync(held));
    } finally {
      other.stop();
    }
  });
});
