// Paging state of a tree level: cursors, dedupe, shared requests, errors and row ids.
import * as assert from 'node:assert/strict';
import { clampPageSize } from '../../../src/api/pageSize';
import { DEFAULT_MAX_ITEMS, DEFAULT_MAX_PAGES } from '../../../src/api/pagination';
import type { Page, PageParams } from '../../../src/api/types';
import { mapPage, PagedList, type PageFetcher, pageOfIds } from '../../../src/views/pagedList';

interface Item {
  id: string;
  v?: number;
}

function list(generation = 1): PagedList<Item> {
  return new PagedList<Item>({
    parentKey: 'tasks',
    generation,
    key: (i) => i.id,
    merge: (shown, incoming) => (shown.v = incoming.v),
  });
}

function page(ids: string[], next: string | null, v = 0): Page<Item> {
  return { object: 'list', data: ids.map((id) => ({ id, v })), has_more: next !== null, next_cursor: next };
}

/** A fetcher that answers from a script and records what it was asked. */
function scripted(pages: Array<Page<Item> | Error>): { fetch: PageFetcher<Item>; calls: PageParams[] } {
  const calls: PageParams[] = [];
  const fetch: PageFetcher<Item> = async (params) => {
    calls.push(params);
    const next = pages.shift();
    if (!next) {
      throw new Error('no more scripted pages');
    }
    if (next instanceof Error) {
      throw next;
    }
    return next;
  };
  return { fetch, calls };
}

describe('views/pagedList', () => {
  it('asks for the first page with the limit and the next with after = next_cursor', async () => {
    const l = list();
    const { fetch, calls } = scripted([page(['a', 'b'], 'c1'), page(['c'], null)]);
    await l.loadNext(fetch, 2);
    assert.deepEqual(
      l.items.map((i) => i.id),
      ['a', 'b'],
    );
    assert.ok(l.hasMore);
    await l.loadNext(fetch, 2);
    assert.deepEqual(calls, [{ limit: 2 }, { limit: 2, after: 'c1' }]);
    assert.deepEqual(
      l.items.map((i) => i.id),
      ['a', 'b', 'c'],
    );
    assert.ok(!l.hasMore);
    await l.loadNext(fetch, 2);
    assert.equal(calls.length, 2, 'no request after the last page');
  });

  it('stops at has_more: false even when the page still carries a cursor', async () => {
    const l = list();
    const { fetch, calls } = scripted([{ object: 'list', data: [{ id: 'a' }], has_more: false, next_cursor: 'stale' }]);
    await l.loadNext(fetch, 2);
    assert.ok(!l.hasMore, 'has_more decides, not the cursor');
    await l.loadNext(fetch, 2);
    assert.equal(calls.length, 1, 'no request after a page that says it is the last');
  });

  it('shows an item that shifts onto the next page once, with its newer record', async () => {
    const l = list();
    const { fetch } = scripted([page(['a', 'b'], 'c1', 1), page(['b', 'c'], null, 2)]);
    await l.loadNext(fetch, 2);
    await l.loadNext(fetch, 2);
    assert.deepEqual(
      l.items.map((i) => i.id),
      ['a', 'b', 'c'],
    );
    assert.equal(l.find('b')?.v, 2);
  });

  it('shares one request between concurrent loads', async () => {
    const l = list();
    const { fetch, calls } = scripted([page(['a'], 'n')]);
    await Promise.all([l.loadNext(fetch, 5), l.loadNext(fetch, 5), l.loadNext(fetch, 5)]);
    assert.equal(calls.length, 1);
    assert.equal(l.loadedPages, 1);
  });

  it('gives every page its own "Load more" id and makes a new listing collide with none', async () => {
    const l = list(1);
    const { fetch } = scripted([page(['a'], 'n1'), page(['b'], 'n2')]);
    const ids = [l.moreId()];
    await l.loadNext(fetch, 1);
    ids.push(l.moreId());
    await l.loadNext(fetch, 1);
    ids.push(l.moreId());
    assert.equal(new Set(ids).size, 3);
    assert.ok(!ids.includes(list(2).moreId()));
    assert.notEqual(list(1).messageId('error'), list(2).messageId('error'));
  });

  it('keeps a failure as the error, keeps what was shown, and retries the same page', async () => {
    const l = list();
    const boom = new Error('offline');
    const { fetch, calls } = scripted([page(['a'], 'n1'), boom, page(['b'], null)]);
    await l.loadNext(fetch, 1);
    await l.loadNext(fetch, 1);
    assert.equal(l.error, boom);
    assert.deepEqual(
      l.items.map((i) => i.id),
      ['a'],
    );
    await l.loadNext(fetch, 1);
    assert.equal(l.error, undefined);
    assert.deepEqual(calls.slice(1), [
      { limit: 1, after: 'n1' },
      { limit: 1, after: 'n1' },
    ]);
    assert.deepEqual(
      l.items.map((i) => i.id),
      ['a', 'b'],
    );
  });

  it('counts as started after a failed first page, and as empty only after an empty one', async () => {
    const failed = list();
    assert.ok(!failed.started);
    await failed.loadNext(scripted([new Error('x')]).fetch, 5);
    assert.ok(failed.started);
    assert.ok(!failed.isEmpty);
    const empty = list();
    await empty.loadNext(scripted([page([], null)]).fetch, 5);
    assert.ok(empty.isEmpty);
  });

  it('stops when has_more comes without a new cursor instead of fetching the same page forever', async () => {
    const l = list();
    const { fetch } = scripted([{ object: 'list', data: [{ id: 'a' }], has_more: true, next_cursor: null }]);
    await l.loadNext(fetch, 5);
    assert.ok(!l.hasMore);
    const same = list();
    const s = scripted([page(['a'], 'x'), page(['b'], 'x')]);
    await same.loadNext(s.fetch, 5);
    await same.loadNext(s.fetch, 5);
    assert.ok(!same.hasMore);
  });

  it('stops "Load more" at the pager\'s page cap when the server hands out a fresh cursor for ever', async () => {
    const l = list();
    let asked = 0;
    const endless: PageFetcher<Item> = async () => {
      asked++;
      return page([`i${asked}`], `c${asked}`);
    };
    for (let click = 0; click < DEFAULT_MAX_PAGES + 5; click++) {
      await l.loadNext(endless, 1);
    }
    assert.equal(asked, DEFAULT_MAX_PAGES, 'no request past the page cap');
    assert.ok(!l.hasMore, 'no "Load more" row once capped');
    assert.equal(l.cut?.reason, 'pages');
    assert.equal(l.items.length, DEFAULT_MAX_PAGES);
  });

  it("stops at the pager's item cap, counting every item the server sent (dropped junk and repeats too)", async () => {
    const l = list();
    let asked = 0;
    // 100 items a page, each page also reporting 100 items dropped as junk by parsePage.
    const junky: PageFetcher<Item> = async () => {
      asked++;
      const p = page(
        Array.from({ length: 60 }, (_, i) => `p${asked}-${i}`),
        `c${asked}`,
      );
      return { ...p, received: 100 };
    };
    for (let click = 0; click < DEFAULT_MAX_PAGES; click++) {
      await l.loadNext(junky, 100);
    }
    assert.equal(asked, DEFAULT_MAX_ITEMS / 100);
    assert.equal(l.cut?.reason, 'items');
    assert.ok(!l.hasMore);
    // Repeats count as received as well: the same items over and over still end the list.
    const repeats = list();
    let again = 0;
    const same: PageFetcher<Item> = async () => page(['a', 'b'], `c${++again}`);
    for (let click = 0; click < DEFAULT_MAX_PAGES + 5; click++) {
      await repeats.loadNext(same, 2);
    }
    assert.deepEqual(
      repeats.items.map((i) => i.id),
      ['a', 'b'],
    );
    assert.ok(!repeats.hasMore);
    assert.ok(repeats.cut !== undefined);
  });

  it('keeps what fits under the item cap of a page that passes it', async () => {
    const l = new PagedList<Item>({ parentKey: 'x', generation: 1, key: (i) => i.id, caps: { maxItems: 3 } });
    const { fetch } = scripted([page(['a', 'b'], 'n1'), page(['c', 'd'], 'n2')]);
    await l.loadNext(fetch, 2);
    await l.loadNext(fetch, 2);
    assert.deepEqual(
      l.items.map((i) => i.id),
      ['a', 'b', 'c'],
    );
    assert.equal(l.cut?.reason, 'items');
  });

  it('puts a newer record of a shown item in its place, and refuses one not shown', async () => {
    const l = list();
    await l.loadNext(scripted([page(['a', 'b'], null, 1)]).fetch, 5);
    assert.ok(l.replace({ id: 'b', v: 7 }));
    assert.ok(!l.replace({ id: 'z', v: 7 }));
    assert.deepEqual(
      l.items.map((i) => [i.id, i.v]),
      [
        ['a', 1],
        ['b', 7],
      ],
    );
    assert.equal(l.find('b')?.v, 7);
  });

  it('ignores the answer of a request in flight when the listing is disposed', async () => {
    const l = list();
    let release: (p: Page<Item>) => void = () => undefined;
    let seen: AbortSignal | undefined;
    const loading = l.loadNext((_params, signal) => {
      seen = signal;
      return new Promise<Page<Item>>((resolve) => (release = resolve));
    }, 5);
    l.dispose();
    assert.ok(seen?.aborted, 'the request is told to stop');
    release(page(['late'], null));
    await loading;
    assert.deepEqual(l.items, []);
    assert.ok(!l.started);
  });

  it('puts a prepended item first and does not repeat it when a page brings it again', async () => {
    const l = list();
    await l.loadNext(scripted([page(['a'], 'n')]).fetch, 1);
    l.prepend({ id: 'new', v: 1 });
    await l.loadNext(scripted([page(['new', 'b'], null, 5)]).fetch, 1);
    assert.deepEqual(
      l.items.map((i) => i.id),
      ['new', 'a', 'b'],
    );
    assert.equal(l.find('new')?.v, 5);
  });

  it('drops a removed item and becomes empty when it was the last one', async () => {
    const l = list();
    await l.loadNext(scripted([page(['a', 'b'], null)]).fetch, 5);
    assert.ok(l.remove('a'));
    assert.ok(!l.remove('a'));
    assert.deepEqual(
      l.items.map((i) => i.id),
      ['b'],
    );
    assert.equal(l.find('a'), undefined);
    l.remove('b');
    assert.ok(l.isEmpty);
  });

  it('clamps the page size to the spec limits 1..100', () => {
    assert.equal(clampPageSize(0), 1);
    assert.equal(clampPageSize(250), 100);
    assert.equal(clampPageSize(25.4), 25);
    assert.equal(clampPageSize(Number.NaN), 25);
  });

  it('pages a local id list with offsets as cursors', () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const first = pageOfIds(ids, { limit: 2 });
    assert.deepEqual(first, { object: 'list', data: ['a', 'b'], has_more: true, next_cursor: '2' });
    const last = pageOfIds(ids, { limit: 2, after: '4' });
    assert.deepEqual(last, { object: 'list', data: ['e'], has_more: false, next_cursor: null });
    assert.deepEqual(pageOfIds(ids, { limit: 2, after: 'garbage' }).data, ['a', 'b']);
  });

  it('maps a page to rows, tolerating a missing data array', () => {
    assert.deepEqual(mapPage(page(['a'], null), (i) => i.id).data, ['a']);
    const broken = { object: 'list', has_more: false } as unknown as Page<Item>;
    assert.deepEqual(mapPage(broken, (i) => i.id).data, []);
  });
});
