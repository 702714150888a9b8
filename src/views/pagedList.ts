// The paging state of one tree level: items loaded so far (deduplicated by key), the cursor of
// the next page, the last error, and the ids of its "Load more" row. A refresh makes a new
// PagedList with a higher generation, so rows of an old listing never collide with new ones.
// Clicks page it one page at a time under the bounded pager's rule (`takePage`, src/api/pagination.ts):
// at most 100 pages and 2,000 items received, then `cut` says the service lists more.
import { clampPageSize } from '../api/pageSize';
import { type PageCaps, pageCaps, type PageWalkCut, startCount, takePage } from '../api/pagination';
import type { Page, PageParams } from '../api/types';

export type PageFetcher<R> = (params: PageParams, signal: AbortSignal) => Promise<Page<R>>;

export interface PagedListOptions<T> {
  /** Identifies the level in row ids: 'files', 'tasks', 'task:<id>', 'run:<id>'. */
  parentKey: string;
  /** Bumped on every refresh by the owner. */
  generation: number;
  /** The dedupe key of an item (the record's id). */
  key: (item: T) => string;
  /** Called with the item already shown and the same item from a later page. */
  merge?: (shown: T, incoming: T) => void;
  /** The pager's caps (DEFAULT_MAX_PAGES, DEFAULT_MAX_ITEMS unless a test says otherwise). */
  caps?: Partial<PageCaps>;
}

export class PagedList<T> {
  readonly parentKey: string;
  readonly generation: number;
  private readonly key: (item: T) => string;
  private readonly merge?: (shown: T, incoming: T) => void;
  private readonly byKey = new Map<string, T>();
  private list: T[] = [];
  private cursor: string | undefined;
  private more = true;
  private readonly caps: PageCaps;
  private readonly count = startCount();
  private cutBy: PageWalkCut | undefined;
  private lastError: unknown;
  private inFlight: Promise<void> | undefined;
  private readonly abort = new AbortController();

  constructor(options: PagedListOptions<T>) {
    this.parentKey = options.parentKey;
    this.generation = options.generation;
    this.key = options.key;
    this.merge = options.merge;
    this.caps = pageCaps(options.caps);
  }

  get items(): readonly T[] {
    return this.list;
  }
  /** Pages received so far. */
  get loadedPages(): number {
    return this.count.pages;
  }
  /** True until a page says there is nothing after it, or a cap of the pager is reached. */
  get hasMore(): boolean {
    return this.more;
  }
  /** Set when a cap of the pager stopped the list with more to come (no "Load more" then). */
  get cut(): PageWalkCut | undefined {
    return this.cutBy;
  }
  /** True once a first page arrived (or failed): the level can be drawn. */
  get started(): boolean {
    return this.count.pages > 0 || this.lastError !== undefined;
  }
  get loading(): boolean {
    return this.inFlight !== undefined;
  }
  /** The failure of the last attempt, cleared by the next success. */
  get error(): unknown {
    return this.lastError;
  }
  /** True when every page is loaded and nothing is in them. */
  get isEmpty(): boolean {
    return this.count.pages > 0 && this.list.length === 0 && !this.more;
  }

  /** The id of the "Load more" row, unique per listing and per page. */
  moreId(): string {
    return `more:${this.parentKey}:${this.generation}:${this.count.pages}`;
  }

  /** The id of a message row of this level. */
  messageId(kind: string): string {
    return `message:${this.parentKey}:${this.generation}:${kind}`;
  }

  find(key: string): T | undefined {
    return this.byKey.get(key);
  }

  /**
   * Fetches the next page and appends what is new. Concurrent calls share one request;
   * a call after the last page does nothing. Failures are kept in `error`, not thrown.
   */
  loadNext(fetch: PageFetcher<T>, limit: number): Promise<void> {
    if (this.inFlight) {
      return this.inFlight;
    }
    if (!this.more || this.abort.signal.aborted) {
      return Promise.resolve();
    }
    const params: PageParams = { limit: clampPageSize(limit) };
    if (this.cursor !== undefined) {
      params.after = this.cursor;
    }
    this.inFlight = fetch(params, this.abort.signal)
      .then(
        (page) => {
          if (this.abort.signal.aborted) {
            return;
          }
          this.lastError = undefined;
          this.accept(page);
        },
        (err: unknown) => {
          if (this.abort.signal.aborted) {
            return;
          }
          this.lastError = err;
        },
      )
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }

  /** Puts an item first (a task just created that the first page did not hold). */
  prepend(item: T): void {
    if (this.admit(item)) {
      this.list = [item, ...this.list];
    }
  }

  /** Puts a newer record of a shown item in its place; false when it is not shown. */
  replace(item: T): boolean {
    const key = this.key(item);
    const shown = this.byKey.get(key);
    if (shown === undefined) {
      return false;
    }
    this.byKey.set(key, item);
    this.list = this.list.map((x) => (x === shown ? item : x));
    return true;
  }

  /** Drops an item (a file just deleted); false when it was not shown. */
  remove(key: string): boolean {
    if (!this.byKey.delete(key)) {
      return false;
    }
    this.list = this.list.filter((item) => this.key(item) !== key);
    return true;
  }

  /** Stops any request in flight; its answer is ignored. The owner replaces the list. */
  dispose(): void {
    this.abort.abort();
  }

  /** Registers an item not shown yet (true); one already shown is given to `merge` with it instead. */
  private admit(item: T): boolean {
    const key = this.key(item);
    const shown = this.byKey.get(key);
    if (shown !== undefined) {
      this.merge?.(shown, item);
      return false;
    }
    this.byKey.set(key, item);
    return true;
  }

  private accept(page: Page<T>): void {
    const step = takePage(page, this.count, this.caps);
    const fresh: T[] = [];
    // Items shift between pages when new ones are created meanwhile: show each once.
    for (const item of step.items) {
      if (this.admit(item)) {
        fresh.push(item);
      }
    }
    this.list = [...this.list, ...fresh];
    this.more = step.next !== undefined;
    this.cursor = step.next;
    this.cutBy = step.cut;
  }
}

/**
 * A page of a local id list (the files uploaded from this machine), shaped like a server page:
 * the cursor is the offset of the next id.
 */
export function pageOfIds(ids: readonly string[], params: PageParams): Page<string> {
  const start = params.after !== undefined && /^\d+$/.test(params.after) ? Number(params.after) : 0;
  const end = Math.min(ids.length, start + clampPageSize(params.limit ?? 25));
  const has_more = end < ids.length;
  return { object: 'list', data: ids.slice(start, end), has_more, next_cursor: has_more ? String(end) : null };
}

/** The same page with its items turned into rows. */
export function mapPage<R, T>(page: Page<R>, map: (record: R) => T): Page<T> {
  return { ...page, data: (Array.isArray(page.data) ? page.data : []).map(map) };
}
