// The record of what was uploaded from this machine (where each upload came from) and of the
// tasks created here (which files each was given), per service: one JSON file in the
// extension's global storage folder, so it lives on the machine that has the files. globalState
// is not that place under code-server (the browser keeps it: a second browser or a cleared
// profile forgot every upload). Written atomically (a temporary file renamed over it), bounded
// in size, and merged with what another window wrote meanwhile: every change reads it first,
// inside a lock file (`<record>.lock`, created exclusively) so two windows changing it at the same
// instant do not lose one update. Plain Node: no vscode.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { dirname } from 'node:path';
import type { UploadOrigin } from '../review/types';

/** Uploads and tasks remembered per service; the oldest go first. */
export const MAX_REMEMBERED = 500;
/** Services remembered; the one used longest ago goes first. */
export const MAX_SERVICES = 20;
/** File ids remembered per task (a task takes at most 100 attachments on the reference runtime). */
export const MAX_TASK_FILES = 1000;
/** A record file larger than this is not read (it was not written by us): it starts again empty. */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

export interface TaskFiles {
  fileIds: string[];
  createdAt: string;
}

export interface ServiceRecord {
  origins: Record<string, UploadOrigin>;
  tasks: Record<string, TaskFiles>;
  /** ISO time of the last change, to drop the services used longest ago. */
  touchedAt: string;
}

export interface UploadRecord {
  version: 1;
  services: Record<string, ServiceRecord>;
}

export function emptyRecord(): UploadRecord {
  return { version: 1, services: {} };
}

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

/** `into` with what `from` has that `into` does not (`into` wins on the same id). */
export function mergeRecords(into: UploadRecord, from: UploadRecord): UploadRecord {
  const out = sanitizeRecord(into);
  for (const [url, service] of Object.entries(from.services)) {
    if (!safeKey(url)) {
      continue;
    }
    const mine = Object.hasOwn(out.services, url)
      ? out.services[url]
      : (out.services[url] = { origins: {}, tasks: {}, touchedAt: service.touchedAt });
    for (const [id, origin] of Object.entries(service.origins)) {
      if (safeKey(id) && !Object.hasOwn(mine.origins, id)) {
        mine.origins[id] = origin;
      }
    }
    for (const [id, task] of Object.entries(service.tasks)) {
      if (safeKey(id) && !Object.hasOwn(mine.tasks, id)) {
        mine.tasks[id] = task;
      }
    }
    if (service.touchedAt > mine.touchedAt) {
      mine.touchedAt = service.touchedAt;
    }
  }
  return bounded(out);
}

/** At most MAX_SERVICES services, MAX_REMEMBERED newest uploads and tasks each. */
export function bounded(record: UploadRecord): UploadRecord {
  const services = Object.entries(record.services)
    .sort(([, a], [, b]) => newestFirst(a.touchedAt, b.touchedAt))
    .slice(0, MAX_SERVICES)
    .map(([url, s]): [string, ServiceRecord] => [
      url,
      {
        origins: Object.fromEntries(
          Object.entries(s.origins)
            .sort(([, a], [, b]) => newestFirst(a.uploadedAt, b.uploadedAt))
            .slice(0, MAX_REMEMBERED),
        ),
        tasks: Object.fromEntries(
          Object.entries(s.tasks)
            .sort(([, a], [, b]) => newestFirst(a.createdAt, b.createdAt))
            .slice(0, MAX_REMEMBERED),
        ),
        touchedAt: s.touchedAt,
      },
    ]);
  return { version: 1, services: Object.fromEntries(services) };
}

/** Only well-formed entries of a value read from disk or from an older version's globalState. */
export function sanitizeRecord(value: unknown): UploadRecord {
  const out = emptyRecord();
  const services = isObject(value) && isObject(value.services) ? value.services : {};
  for (const [url, raw] of Object.entries(services)) {
    if (!isObject(raw) || !safeKey(url)) {
      continue;
    }
    const service: ServiceRecord = {
      origins: {},
      tasks: {},
      touchedAt: typeof raw.touchedAt === 'string' ? raw.touchedAt : '',
    };
    for (const [id, origin] of Object.entries(isObject(raw.origins) ? raw.origins : {})) {
      if (safeKey(id) && isOrigin(origin) && origin.fileId === id) {
        service.origins[id] = { ...origin };
      }
    }
    for (const [id, task] of Object.entries(isObject(raw.tasks) ? raw.tasks : {})) {
      if (safeKey(id) && isObject(task) && Array.isArray(task.fileIds) && typeof task.createdAt === 'string') {
        const fileIds = task.fileIds.filter((f): f is string => typeof f === 'string').slice(0, MAX_TASK_FILES);
        service.tasks[id] = { fileIds, createdAt: task.createdAt };
      }
    }
    out.services[url] = service;
  }
  return bounded(out);
}

/** An older version's globalState value (`{ [baseUrl]: { [fileId]: origin } }`) as a record. */
export function recordFromLegacy(value: unknown): UploadRecord {
  const out = emptyRecord();
  if (!isObject(value)) {
    return out;
  }
  for (const [url, origins] of Object.entries(value)) {
    if (!isObject(origins) || !safeKey(url)) {
      continue;
    }
    const kept: Record<string, UploadOrigin> = {};
    let touchedAt = '';
    for (const [id, origin] of Object.entries(origins)) {
      if (!safeKey(id) || !isOrigin(origin) || origin.fileId !== id) {
        continue;
      }
      kept[id] = { ...origin };
      if (origin.uploadedAt > touchedAt) {
        touchedAt = origin.uploadedAt;
      }
    }
    out.services[url] = { origins: kept, tasks: {}, touchedAt };
  }
  return bounded(out);
}

/** A stored value from an older version or a hand edit must not crash a review. */
export function isOrigin(value: unknown): value is UploadOrigin {
  if (!isObject(value)) {
    return false;
  }
  const o = value;
  return (
    typeof o.fileId === 'string' &&
    typeof o.uri === 'string' &&
    typeof o.relativePath === 'string' &&
    typeof o.sha256 === 'string' &&
    typeof o.bytes === 'number' &&
    typeof o.uploadedAt === 'string' &&
    (o.workspaceFolder === undefined || typeof o.workspaceFolder === 'string')
  );
}

/** A key that assigning cannot turn into a prototype change. */
function safeKey(key: string): boolean {
  return key !== '__proto__';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function newestFirst(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}
