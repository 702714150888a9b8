// Idempotency-Key bookkeeping: first responses stored on disk, in-flight keys held in memory.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readJsonFile, writeJsonAtomic } from './atomicFile';

export interface StoredReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface IdempotencyRecord {
  method: string;
  path: string;
  /** sha256 over method, path and the request's fingerprint (see README: "Idempotency"). */
  fingerprint: string;
  reply: StoredReply;
  created_at: string;
}

export class IdempotencyStore {
  private readonly inFlight = new Set<string>();
  private readonly cache = new Map<string, IdempotencyRecord>();

  constructor(private readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }

  /** Keys are scoped to the API key that sent them; only a hash of either reaches the disk. */
  static slot(apiKey: string, idempotencyKey: string): string {
    return createHash('sha256').update(apiKey).update('\0').update(idempotencyKey).digest('hex');
  }

  isInFlight(slot: string): boolean {
    return this.inFlight.has(slot);
  }

  get(slot: string): IdempotencyRecord | undefined {
    const cached = this.cache.get(slot);
    if (cached) {
      return cached;
    }
    const file = path.join(this.dir, `${slot}.json`);
    if (!fs.existsSync(file)) {
      return undefined;
    }
    const record = readJsonFile<IdempotencyRecord>(file);
    this.cache.set(slot, record);
    return record;
  }

  begin(slot: string): void {
    this.inFlight.add(slot);
  }

  release(slot: string): void {
    this.inFlight.delete(slot);
  }

  complete(slot: string, record: IdempotencyRecord): void {
    this.cache.set(slot, record);
    writeJsonAtomic(path.join(this.dir, `${slot}.json`), record);
  }
}
