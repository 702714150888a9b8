// What changed in a list since the last look, at one request per look (docs/PROTOCOL.md,
// Staying current): `updated_after` = the newest change seen, less a little overlap, when the
// server honours it; otherwise the first page (newest first), compared with what was seen
// before. A server "honours" it when every record it returns says it changed after the instant
// asked; one record that does not (or that has no `updated_at`) shows the parameter was ignored,
// and the feed reads the first page from then on. Pure: the list call is injected.
import { pageCaps, startCount, takePage } from '../api/pagination';
import type { Page } from '../api/types';

/** Changes this close to the newest one seen are asked for again (servers whose clocks tie). */
export const CHANGE_OVERLAP_MS = 1_000;
/** Records asked for in one request (the spec's largest page). */
export const CHANGE_PAGE_LIMIT = 100;
/** Pages read in one look when changes come faster than a page: the rest wait for the next look. */
export const MAX_CHANGE_PAGES = 3;
/** What a record looked like, kept for at most this many ids (the overlap and the first page). */
const MAX_REMEMBERED = 1_000;

export interface ChangeListParams {
  limit: number;
  after?: string;
  updated_after?: string;
}

export interface ChangeFeedOptions<T> {
  list(params: ChangeListParams, signal?: AbortSignal): Promise<Page<T>>;
  /** Which list is read (the server, a project): when it changes, the feed starts over. */
  scope?(): string;
}

/** One look's answer. */
export interface ChangeLook<T> {
  /** The records that changed since the last look (on the first look, the first page). */
  changed: T[];
  /** Whether a record not in `changed` is known to be unchanged (the server filtered, or it was listed). */
  covers(id: string): boolean;
}

interface Stamped {
  id: string;
  updated_at?: string;
}

export class ChangeFeed<T extends Stamped> {
  /** The newest `updated_at` seen, in milliseconds. */
  private newest: number | undefined;
  /** undefined until the first answer to `updated_after` says. */
  private honoured: boolean | undefined;
  private scope: string | undefined;
  /** id -> what the record looked like when last seen (its `updated_at`, else its JSON). */
  private readonly seen = new Map<string, string>();

  constructor(private readonly options: ChangeFeedOptions<T>) {}

  /** True once the server has shown that it filters by `updated_after`. */
  get filtersByChange(): boolean {
    return this.honoured === true;
  }

  /** One look at the list: one request, a few more only while whole pages of changes come. */
  async read(signal?: AbortSignal): Promise<ChangeLook<T>> {
    const scope = this.options.scope?.();
    if (scope !== this.scope) {
      this.scope = scope;
      this.newest = undefined;
      this.honoured = undefined;
      this.seen.clear();
    }
    if (this.newest === undefined || this.honoured === false) {
      return this.readFirstPage(signal);
    }
    const since = this.newest - CHANGE_OVERLAP_MS;
    const changed: T[] = [];
    // The one pager's rule for following a cursor, capped at a few pages a look.
    const count = startCount();
    const caps = pageCaps({ maxPages: MAX_CHANGE_PAGES, maxItems: MAX_CHANGE_PAGES * CHANGE_PAGE_LIMIT });
    let after: string | undefined;
    for (;;) {
      const page = await this.options.list(
        { limit: CHANGE_PAGE_LIMIT, after, updated_after: new Date(since).toISOString() },
        signal,
      );
      const data: T[] = Array.isArray(page?.data) ? page.data : [];
      if (!data.every((r) => stampOf(r) > since)) {
        // The parameter was ignored: this is the plain first page.
        this.honoured = false;
        return this.listed(data);
      }
      this.honoured = true;
      const step = takePage(page, count, caps);
      changed.push(...this.take(step.items));
      if (step.next === undefined) {
        break;
      }
      after = step.next;
    }
    return { changed, covers: () => true };
  }

  private async readFirstPage(signal?: AbortSignal): Promise<ChangeLook<T>> {
    const page = await this.options.list({ limit: CHANGE_PAGE_LIMIT }, signal);
    return this.listed(Array.isArray(page?.data) ? page.data : []);
  }

  /** A first page: what it lists is known, the rest is not. A page longer than asked is cut. */
  private listed(all: readonly T[]): ChangeLook<T> {
    const records = all.slice(0, CHANGE_PAGE_LIMIT);
    const ids = new Set(records.map((r) => r?.id));
    return { changed: this.take(records), covers: (id) => ids.has(id) };
  }

  /** The records that look different from the last time, remembered now; the newest change noted. */
  private take(records: readonly T[]): T[] {
    const changed: T[] = [];
    for (const record of records) {
      if (typeof record?.id !== 'string') {
        continue;
      }
      const stamp = stampOf(record);
      if (Number.isFinite(stamp) && (this.newest === undefined || stamp > this.newest)) {
        this.newest = stamp;
      }
      const look = typeof record.updated_at === 'string' ? record.updated_at : JSON.stringify(record);
      if (this.seen.get(record.id) === look) {
        continue;
      }
      this.seen.delete(record.id);
      this.seen.set(record.id, look);
      changed.push(record);
    }
    while (this.seen.size > MAX_REMEMBERED) {
      this.seen.delete(this.seen.keys().next().value as string);
    }
    return changed;
  }
}

/** `updated_at` in milliseconds; NaN when absent or not a timestamp. */
function stampOf(record: Stamped): number {
  return typeof record?.updated_at === 'string' ? Date.parse(record.updated_at) : NaN;
}
