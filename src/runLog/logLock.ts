// One VS Code window at a time appends to a run's log. The logs live in the extension's global
// storage, which every window shares; two windows appending to one file would each index the
// other's lines wrongly. A lock file beside the log names the process (the window's extension
// host) that holds it; a second window finds it held and shows the bounded model instead. A lock
// whose process is gone (a crashed window) is taken over. Plain Node.
import { promises as fsp } from 'node:fs';

export function lockPath(file: string): string {
  return `${file}.lock`;
}

/** True when this process holds (or now took) the log's lock; false when a live other process does. */
export async function acquireLogLock(file: string, pid = process.pid): Promise<boolean> {
  const lock = lockPath(file);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fsp.writeFile(lock, String(pid), { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw err;
      }
      const owner = await lockOwner(lock);
      if (owner === pid) {
        return true;
      }
      if (owner !== undefined && isAlive(owner)) {
        return false;
      }
      // Stale (its window is gone) or unreadable: taken over on the next attempt.
      await fsp.rm(lock, { force: true });
    }
  }
  return false;
}

/** Gives the lock up if this process holds it. */
export async function releaseLogLock(file: string, pid = process.pid): Promise<void> {
  const lock = lockPath(file);
  if ((await lockOwner(lock)) === pid) {
    await fsp.rm(lock, { force: true });
  }
}

/** True when another live process holds the log (housekeeping leaves its files alone). */
export async function heldElsewhere(file: string, pid = process.pid): Promise<boolean> {
  const owner = await lockOwner(lockPath(file));
  return owner !== undefined && owner !== pid && isAlive(owner);
}

async function lockOwner(lock: string): Promise<number | undefined> {
  const text = await fsp.readFile(lock, 'utf8').catch(() => '');
  const pid = Number(text.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else; ESRCH: no such process.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
