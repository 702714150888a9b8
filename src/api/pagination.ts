// `for await` over every item of a list endpoint, page by page, that always ends: on has_more
// false, a missing or repeated next_cursor, or an empty page (a broken server cannot loop us).
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page, type PageParams } from './types';

/** A page size the spec allows: an integer in 1..100 (25 when absent or not a number). */
export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_PAGE_SIZE;
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(limit)));
}

export function paginate<T>(fetchPage: (params: PageParams) => Promise<Page<T>>, params: PageParams = {}): AsyncIterable<T> {
  return {
    async *[Symbol.asyncIterator]() {
      const seen = new Set<string>();
      let after = params.after;
      const limit = params.limit === undefined ? undefined : clampLimit(params.limit);
      for (;;) {
        const page = await fetchPage({ limit, after });
        yield* page.data;
        const next = page.next_cursor;
        if (!page.has_more || page.data.length === 0 || typeof next !== 'string' || next === '' || seen.has(next)) return;
        seen.add(next);
        after = next;
      }
    },
  };
}
