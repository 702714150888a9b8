// The one pager of every list the extension walks: `for await` over a list endpoint's items,
// page by page, that always ends. It stops at the list's end (has_more false, a missing or
// repeated next_cursor, an empty page), at a page cap and at an item cap where every item the
// server sent counts, kept by the caller or not (a server handing out a fresh cursor for ever,
// or pages of junk, is cut all the same), when the caller's signal aborts, and when the whole
// walk outlasts its timeout (ApiError 'timeout'). A walk cut by a cap says so in `cut`, so the
// caller can tell the user ("showing the first N") instead of cutting silently.
import { ApiError, type ApiDetail } from './errors';
import { apiDetailText } from './apiDetailText';
import { untranslated } from '../common/translate';
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

export function paginate<T>(
  fetchPage: PageFetch<T>,
  params: PageParams = {},
  options: PageWalkOptions = {},
): PageWalk<T> {
  const maxPages = positive(options.maxPages, DEFAULT_MAX_PAGES);
  const maxItems = positive(options.maxItems, DEFAULT_MAX_ITEMS);
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
        const seen = new Set<string>();
        let after = params.after;
        let pages = 0;
        let received = 0;
        for (;;) {
          if (walk.signal.aborted) {
            throw stopped();
          }
          if (pages >= maxPages) {
            cut = { reason: 'pages', pages, received };
            return;
          }
          let page: Page<T>;
          try {
            page = await fetchPage(after === undefined ? { limit } : { limit, after }, walk.signal);
          } catch (err) {
            throw walk.signal.aborted ? stopped(err) : err;
          }
          pages++;
          const data: T[] = Array.isArray(page?.data) ? page.data : [];
          const sent = Math.max(
            data.length,
            typeof page?.received === 'number' && Number.isFinite(page.received) ? page.received : 0,
          );
          const room = maxItems - received;
          received += sent;
          const next = page?.next_cursor;
          const more =
            page?.has_more === true && data.length > 0 && typeof next === 'string' && next !== '' && !seen.has(next);
          if (sent > room) {
            // Over the cap within this page: hand out what fits and stop.
            for (let i = 0; i < Math.min(room, data.length); i++) {
              yield data[i];
            }
            cut = { reason: 'items', pages, received };
            return;
          }
          for (const item of data) {
            yield item;
          }
          if (!more) {
            return;
          }
          if (received >= maxItems) {
            cut = { reason: 'items', pages, received };
            return;
          }
          seen.add(next);
          after = next;
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
