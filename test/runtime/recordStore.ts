// A durable collection of records: kept in memory in creation order, one JSON file per record.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readJsonFile, writeJsonAtomic } from './atomicFile';

interface StoredEntry<T, M> {
  seq: number;
  record: T;
  /** Hidden records (deleted files) stay known so that a cursor pointing at one still works. */
  hidden?: boolean;
  meta?: M;
}

/** Options of a store whose records say when they last changed (docs/PROTOCOL.md, Staying current). */
export interface RecordStoreOptions {
  /** Sets `updated_at` on every insert and update, strictly increasing within the store. */
  stampUpdates?: boolean;
}

export class RecordStore<T extends { id: string }, M = undefined> {
  private readonly entries: StoredEntry<T, M>[] = [];
  private readonly byId = new Map<string, StoredEntry<T, M>>();
  private nextSeq = 1;
  /** The last `updated_at` given (milliseconds): two changes never share an instant. */
  private lastStamp = 0;

  constructor(
    private readonly dir: string,
    private readonly options: RecordStoreOptions = {},
  ) {
    fs.mkdirSync(dir, { recursive: true });
    for (const name of fs.readdirSync(dir)) {
      if (!name.endsWith('.json') || name.startsWith('.')) {
        continue;
      }
      const entry = readJsonFile<StoredEntry<T, M>>(path.join(dir, name));
      this.entries.push(entry);
      this.byId.set(entry.record.id, entry);
      this.nextSeq = Math.max(this.nextSeq, entry.seq + 1);
    }
    this.entries.sort((a, b) => a.seq - b.seq);
    for (const entry of this.entries) {
      this.lastStamp = Math.max(this.lastStamp, stampOf(entry.record));
    }
  }

  insert(record: T, meta?: M): T {
    record = this.stamped(record);
    const entry: StoredEntry<T, M> = { seq: this.nextSeq++, record, meta };
    this.entries.push(entry);
    this.byId.set(record.id, entry);
    this.persist(entry);
    return record;
  }

  /** A visible record, or undefined for unknown and hidden ids. */
  get(id: string): T | undefined {
    const entry = this.byId.get(id);
    return entry && !entry.hidden ? entry.record : undefined;
  }

  meta(id: string): M | undefined {
    return this.byId.get(id)?.meta;
  }

  /** True for any id this store ever held, hidden or not (cursor validation). */
  knows(id: string): boolean {
    return this.byId.has(id);
  }

  update(id: string, change: Partial<T>, meta?: M): T {
    const entry = this.byId.get(id);
    if (!entry) {
      throw new Error(`unknown record ${id}`);
    }
    entry.record = this.stamped({ ...entry.record, ...change });
    if (meta !== undefined) {
      entry.meta = meta;
    }
    this.persist(entry);
    return entry.record;
  }

  hide(id: string): void {
    const entry = this.byId.get(id);
    if (!entry) {
      return;
    }
    entry.hidden = true;
    this.persist(entry);
  }

  /** Every record ever stored (hidden flagged), newest first: the order lists are served in. */
  *newestFirst(): Iterable<{ record: T; hidden: boolean }> {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      yield { record: this.entries[i].record, hidden: this.entries[i].hidden === true };
    }
  }

  /**
   * The visible records changed after `instant` (ms), oldest change first: what
   * `updated_after` lists. Only for a store that stamps its updates.
   */
  *changedAfter(instant: number): Iterable<{ record: T; hidden: boolean }> {
    const changed = this.entries.filter((e) => !e.hidden && stampOf(e.record) > instant);
    changed.sort((a, b) => stampOf(a.record) - stampOf(b.record) || a.seq - b.seq);
    for (const e of changed) {
      yield { record: e.record, hidden: false };
    }
  }

  all(): T[] {
    return this.entries.filter((e) => !e.hidden).map((e) => e.record);
  }

  private stamped(record: T): T {
    if (!this.options.stampUpdates) {
      return record;
    }
    this.lastStamp = Math.max(Date.now(), this.lastStamp + 1);
    return { ...record, updated_at: new Date(this.lastStamp).toISOString() };
  }

  private persist(entry: StoredEntry<T, M>): void {
    writeJsonAtomic(path.join(this.dir, `${entry.record.id}.json`), entry);
  }
}

function stampOf(record: object): number {
  const stamp = (record as { updated_at?: unknown }).updated_at;
  const ms = typeof stamp === 'string' ? Date.parse(stamp) : NaN;
  return Number.isFinite(ms) ? ms : 0;
}
