// The web bundle's twin of uploadRecordDisk.ts: VS Code for the Web has no disk of this machine
// and no uploads from paths, so the record lives in memory for the window's life (the Files
// view's list of uploaded ids stays in globalState either way).
import { bounded, emptyRecord, type UploadRecord } from './uploadRecordFile';

export const STALE_LOCK_MS = 10_000;

const records = new Map<string, UploadRecord>();
let chain: Promise<unknown> = Promise.resolve();

/** Runs `change` after every change before it (one window: no lock file needed). */
export function withRecordLock<T>(_path: string, change: () => Promise<T>): Promise<T> {
  const next = chain.then(change);
  chain = next.catch(() => undefined);
  return next;
}

export async function readUploadRecord(path: string): Promise<{ record: UploadRecord; found: boolean }> {
  const record = records.get(path);
  return record ? { record: structuredClone(record), found: true } : { record: emptyRecord(), found: false };
}

export async function writeUploadRecord(path: string, record: UploadRecord): Promise<void> {
  records.set(path, structuredClone(bounded(record)));
}
