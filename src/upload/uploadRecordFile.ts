// The record of what was uploaded from this machine (where each upload came from) and of the
// tasks created here (which files each was given), per service: one JSON file in the
// extension's global storage folder, so it lives on the machine that has the files. globalState
// is not that place under code-server (the browser keeps it: a second browser or a cleared
// profile forgot every upload). Written atomically (a temporary file renamed over it), bounded
// in size, and merged with what another window wrote meanwhile: every change reads it first,
// inside a lock file (`<record>.lock`, created exclusively) so two windows changing it at the same
// instant do not lose one update. Plain Node: no vscode.
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
