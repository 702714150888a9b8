// The one pager of every list the extension walks: `for await` over a list endpoint's items,
// page by page, that always ends. It stops at the list's end (has_more false, a missing or
// repeated next_cursor, an empty page), at a page cap and at an item cap where every item the
// server sent counts, kept by the caller or not (a server handing out a fresh cursor for ever,
// or pages of junk, is cut all the same), when the caller's signal aborts, and when the whole
// walk outlasts its timeout (ApiError 'timeout'). A walk cut by a cap says so in `cut`, so the
// caller can tell the user ("showing the first N") instead of cutting silently. `takePage` is that
// rule for one page; a list paged one click at a time (src/views/pagedList.ts) keeps it too.
import { untranslated } from '../common/translate';
import { apiDetailText } from './apiDetailText';
import { type ApiDetail, ApiError } from './errors';
import type { Query } from './requestPath';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page, type PageParams } from './types';

/** Pages asked for at most by one walk, unless the caller says otherwise. */
export const DEFAULT_MAX_PAGES = 100;
/** Items received at most by one walk (junk and duplicates count), unless the caller says otherwise. */
export const DEFAULT_MAX_ITEMS = 2000;
/** How long one whole walk may take, unless the caller says otherwise. */
export const DEFAULT_WALK_TIMEOUT_MS = 60_000;

const MAX_TIMER_MS = 2_147_483_647;

/** A page size the spec allows: an integer in 1..100 (25 when absent or not a number). */
export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) {
    return DEFAULT_PAGE_SIZE;
  }
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(limit)));
}

/** One list page's query: `limit` clamped to the spec's range (absent stays absent), `after`, and the filters in `extra`. */
export function pageQuery(params: PageParams | undefined, extra: Query = {}): Query {
  const limit = params?.limit === undefined ? undefined : clampLimit(params.limit);
  return { ...extra, limit, after: params?.after };
}

export interface PageWalkOptions {
  /** Pages asked for at most (default DEFAULT_MAX_PAGES). */
  maxPages?: number;
  /** Items received at most, every item of every page counted (default DEFAULT_MAX_ITEMS). */
  maxItems?: number;
  /** Ends the walk and the request in flight (the walk then throws the abort). */
  signal?: AbortSignal;
  /** The whole walk's time limit in ms (default DEFAULT_WALK_TIMEOUT_MS); past it, ApiError 'timeout'. */
  timeoutMs?: number;
}

/** Why a walk stopped before the list's end. */
export interface PageWalkCut {
  reason: 'pages' | 'items';
  /** Pages received. */
  pages: number;
  /** Items the server sent, kept or not. */
  received: number;
}

/** The items of a list; after the walk, `cut` says whether a cap stopped it with more to come. */
export interface PageWalk<T> extends AsyncIterable<T> {
  readonly cut: PageWalkCut | undefined;
}

/** One page: `signal` is the walk's (the caller's signal and the walk's timeout). */
export type PageFetch<T> = (params: PageParams, signal: AbortSignal) => Promise<Page<T>>;

/** The caps of one walk: pages asked for and items received at most. */
export interface PageCaps {
  maxPages: number;
  maxItems: number;
}

/** The caps of `options`, the defaults where a value is absent or not a positive number. */
export function pageCaps(options: Pick<PageWalkOptions, 'maxPages' | 'maxItems'> = {}): PageCaps {
  return {
    maxPages: positive(options.maxPages, DEFAULT_MAX_PAGES),
    maxItems: positive(options.maxItems, DEFAULT_MAX_ITEMS),
  };
}

/** What one walk has received so far: pages, items (kept or not) and the cursors it followed. */
export interface PageCount {
  pages: number;
  received: number;
  readonly followed: Set<string>;
}

export function startCount(): PageCount {
  return { pages: 0, received: 0, followed: new Set() };
}

/** What to do with one page of a walk. */
export interface PageStep<T> {
  /** The page's items to hand out: all, or as many as fit under the item cap. */
  items: T[];
  /** The cursor to ask for next; undefined when the walk ends here (its end or a cap). */
  next: string | undefined;
  /** Set when a cap ends the walk with more to come. */
  cut: PageWalkCut | undefined;
}

/**
 * The one rule of a bounded walk, for `paginate` and for lists paged one click at a time
 * (src/views/pagedList.ts): counts the page into `count` and says what of it to keep and whether
 * to go on. The list ends on has_more false, an empty page, a missing or already followed cursor;
 * a cap ends it with `cut` once the pages reach `maxPages` or the items received (every item the
 * server sent) reach `maxItems`.
 */
export function takePage<T>(page: Page<T> | undefined, count: PageCount, caps: PageCaps): PageStep<T> {
  count.pages++;
  const data: T[] = Array.isArray(page?.data) ? page.data : [];
  const sent = Math.max(
    data.length,
    typeof page?.received === 'number' && Number.isFinite(page.received) ? page.received : 0,
  );
  const room = caps.maxItems - count.received;
  count.received += sent;
  const next = page?.next_cursor;
  const more =
    page?.has_more === true && data.length > 0 && typeof next === 'string' && next !== '' && !count.followed.has(next);
  const cutBy = (reason: PageWalkCut['reason']): PageWalkCut => ({
    reason,
    pages: count.pages,
    received: count.received,
  });
  if (sent > room) {
    // Over the cap within this page: hand out what fits and stop.
    return { items: data.slice(0, Math.max(0, room)), next: undefined, cut: cutBy('items') };
  }
  if ((page?.overflow ?? 0) > 0) {
    // A page larger than it may be: the rest was left out, and a cursor after it would skip it.
    return { items: data, next: undefined, cut: cutBy('items') };
  }
  if (!more) {
    return { items: data, next: undefined, cut: undefined };
  }
  if (count.received >= caps.maxItems) {
    return { items: data, next: undefined, cut: cutBy('items') };
  }
  if (count.pages >= caps.maxPages) {
    return { items: data, next: undefined, cut: cutBy('pages') };
  }
  count.followed.add(next);
  return { items: data, next, cut: undefined };
}

export function paginate<T>(
  fetchPage: PageFetch<T>,
  params: PageParams = {},
  options: PageWalkOptions = {},
): PageWalk<T> {
  const caps = pageCaps(options);
  const timeoutMs = Math.min(positive(options.timeoutMs, DEFAULT_WALK_TIMEOUT_MS), MAX_TIMER_MS);
  const limit = params.limit === undefined ? undefined : clampLimit(params.limit);
  let cut: PageWalkCut | undefined;
  return {
    get cut() {
      return cut;
    },
    async *[Symbol.asyncIterator]() {
      cut = undefined;
      const walk = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        walk.abort(listTimeout(timeoutMs));
      }, timeoutMs);
      timer.unref?.(); // an abandoned walk does not keep a process alive
      const callerAborted = () => walk.abort(options.signal?.reason);
      if (options.signal?.aborted) {
        callerAborted();
      } else {
        options.signal?.addEventListener('abort', callerAborted, { once: true });
      }
      const stopped = (err?: unknown): unknown =>
        timedOut ? listTimeout(timeoutMs) : options.signal?.aborted ? cancelled(err) : err;
      try {
        const count = startCount();
        let after = params.after;
        for (;;) {
          if (walk.signal.aborted) {
            throw stopped();
          }
          let page: Page<T>;
          try {
            page = await fetchPage(after === undefined ? { limit } : { limit, after }, walk.signal);
          } catch (err) {
            throw walk.signal.aborted ? stopped(err) : err;
          }
          const step = takePage(page, count, caps);
          for (const item of step.items) {
            yield item;
          }
          cut = step.cut;
          if (step.next === undefined) {
            return;
          }
          after = step.next;
        }
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', callerAborted);
      }
    },
  };
}

/** The walk took longer than its limit. */
function listTimeout(ms: number): ApiError {
  const detail: ApiDetail = { id: 'listTimeout', args: [String(Math.ceil(ms / 1000))] };
  return new ApiError({ kind: 'timeout', code: 'list_timeout', message: apiDetailText(untranslated, detail), detail });
}

function cancelled(cause: unknown): ApiError {
  if (cause instanceof ApiError && cause.kind === 'aborted') {
    return cause;
  }
  const detail: ApiDetail = { id: 'cancelled', args: [] };
  return new ApiError({ kind: 'aborted', message: apiDetailText(untranslated, detail), detail, cause });
}

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && value > 0 && !Number.isNaN(value)
    ? Math.floor(Math.min(value, Number.MAX_SAFE_INTEGER))
    : fallback;
}
