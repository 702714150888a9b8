// The upload record's file on disk (Node): read, written whole through a temporary file, and
// changed under a lock file shared by every window. The web bundle takes uploadRecordDisk.web.ts.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { dirname } from 'node:path';
import { bounded, emptyRecord, MAX_RECORD_BYTES, sanitizeRecord, type UploadRecord } from './uploadRecordFile';

/** A lock older than this was left by a window that stopped in the middle of a change: taken over. */
export const STALE_LOCK_MS = 10_000;
/** How long a change waits between tries for the lock. */
const LOCK_RETRY_MS = 15;

/**
 * Runs `change` (read, edit, write) holding the record's lock file, so a second window's change
 * waits for this one and then reads what it wrote. The lock holds a token of this change: only
 * its owner removes it. A lock left behind (a crashed window) is taken over once it is
 * STALE_LOCK_MS old, by renaming it away (only one window's rename can win; a fresh lock renamed
 * by mistake is linked back); so the wait is bounded.
 */
export async function withRecordLock<T>(path: string, change: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const token = randomBytes(8).toString('hex');
  await fsp.mkdir(dirname(path), { recursive: true });
  for (;;) {
    try {
      await fsp.writeFile(lock, token, { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw err;
      }
    }
    const age = await fsp.stat(lock).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > STALE_LOCK_MS) {
      await takeOverStale(lock, token);
    } else {
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
  }
  try {
    return await change();
  } finally {
    const held = await fsp.readFile(lock, 'utf8').catch(() => undefined);
    if (held === token) {
      await fsp.rm(lock, { force: true }).catch(() => undefined);
    }
  }
}

/** Moves a stale lock away; one that turns out fresh (another window just took it) goes back. */
async function takeOverStale(lock: string, token: string): Promise<void> {
  const away = `${lock}.${token}.stale`;
  try {
    await fsp.rename(lock, away);
  } catch {
    return; // another window moved it first
  }
  const age = await fsp.stat(away).then(
    (s) => Date.now() - s.mtimeMs,
    () => Infinity,
  );
  if (age <= STALE_LOCK_MS) {
    // Not the stale one: a window took the lock between our look and our rename. Put it back
    // unless a lock is there again (link fails then, and that lock is respected).
    await fsp.link(away, lock).catch(() => undefined);
  }
  await fsp.rm(away, { force: true }).catch(() => undefined);
}

/** The record in the file; an empty one when the file is missing, too large or not ours. */
export async function readUploadRecord(path: string): Promise<{ record: UploadRecord; found: boolean }> {
  let text: string;
  try {
    const stat = await fsp.stat(path);
    if (!stat.isFile() || stat.size > MAX_RECORD_BYTES) {
      return { record: emptyRecord(), found: true };
    }
    text = await fsp.readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return { record: emptyRecord(), found: false };
    }
    throw err;
  }
  try {
    return { record: sanitizeRecord(JSON.parse(text)), found: true };
  } catch {
    return { record: emptyRecord(), found: true };
  }
}

/** Writes the record whole: to a temporary file next to it, then renamed over it (never half a file). */
export async function writeUploadRecord(path: string, record: UploadRecord): Promise<void> {
  await fsp.mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await fsp.writeFile(temp, JSON.stringify(bounded(record)), { encoding: 'utf8', mode: 0o600 });
    await fsp.rename(temp, path);
  } catch (err) {
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
}
