// Pagination: page calls with limit clamped to 1..100, and `for await` over every item that
// always ends, even on a broken server.
import * as assert from 'node:assert/strict';
import { ApiError, isApiError } from '../../../src/api/errors';
import { clampLimit, DEFAULT_MAX_PAGES, paginate } from '../../../src/api/pagination';
import { json, rejectionOf, startRecordingServer, startRuntimeWithClient } from './fixtures';
import { ApiClient } from './transportUnderTest';

describe('api/pagination', () => {
  it('iterates every task of the runtime across many pages, each once, in order', async () => {
    const ctx = await startRuntimeWithClient();
    try {
      const created: string[] = [];
      for (let i = 0; i < 57; i++) {
        created.push((await ctx.client.createTask({ objective: `task ${i}` })).id);
      }
      const seen: string[] = [];
      for await (const task of ctx.client.iterateTasks({ limit: 10 })) {
        seen.push(task.id);
      }
      assert.equal(seen.length, 57);
      assert.equal(new Set(seen).size, 57);
      assert.deepEqual([...seen].sort(), [...created].sort());
      const first = await ctx.client.listTasks({ limit: 10 });
      assert.equal(first.data.length, 10);
      assert.equal(first.has_more, true);
      assert.equal(typeof first.next_cursor, 'string');
    } finally {
      await ctx.close();
    }
  });

  it('clamps limit to 1..100 on the wire', async () => {
    const server = await startRecordingServer((_req, res) =>
      json(res, 200, { object: 'list', data: [], has_more: false }),
    );
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k' });
    try {
      await client.listTasks({ limit: 1000 });
      await client.listTasks({ limit: 0 });
      await client.listTasks({ limit: -5 });
      await client.listFiles({ limit: 7.9, purpose: 'dataset', after: 'c 1' });
      await client.listTasks();
      assert.deepEqual(
        server.requests.map((r) => r.url),
        [
          '/v1/tasks?limit=100',
          '/v1/tasks?limit=1',
          '/v1/tasks?limit=1',
          '/v1/files?purpose=dataset&limit=7&after=c+1',
          '/v1/tasks',
        ],
      );
      assert.deepEqual(
        [clampLimit(undefined), clampLimit(NaN), clampLimit(0), clampLimit(250), clampLimit(42)],
        [25, 25, 1, 100, 42],
      );
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('stops on a broken server: has_more with a repeated cursor, an empty page, or no cursor', async () => {
    let mode = 'repeat';
    const server = await startRecordingServer((_req, res) => {
      if (mode === 'repeat') {
        return json(res, 200, { object: 'list', data: [{ id: 'task_a' }], has_more: true, next_cursor: 'same' });
      }
      if (mode === 'empty') {
        return json(res, 200, { object: 'list', data: [], has_more: true, next_cursor: 'more' });
      }
      return json(res, 200, { object: 'list', data: [{ id: 'task_b' }], has_more: true });
    });
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k' });
    try {
      const collect = async (): Promise<string[]> => {
        const ids: string[] = [];
        for await (const t of client.iterateTasks()) {
          ids.push(t.id);
        }
        return ids;
      };
      assert.deepEqual(await collect(), ['task_a', 'task_a']);
      mode = 'empty';
      assert.deepEqual(await collect(), []);
      mode = 'no-cursor';
      assert.deepEqual(await collect(), ['task_b']);
      assert.equal(server.requests.length, 4);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('paginate() passes the cursor on and stops when has_more is false', async () => {
    const calls: (string | undefined)[] = [];
    const pages = [
      { object: 'list', data: [1, 2], has_more: true, next_cursor: 'c1' },
      { object: 'list', data: [3], has_more: false, next_cursor: 'c2' },
    ];
    const items: number[] = [];
    const walk = paginate((p) => (calls.push(p.after), Promise.resolve(pages[calls.length - 1])), { limit: 2 });
    for await (const n of walk) {
      items.push(n);
    }
    assert.deepEqual(items, [1, 2, 3]);
    assert.deepEqual(calls, [undefined, 'c1']);
    assert.equal(walk.cut, undefined, 'the list ended: nothing was cut');
  });

  describe('the caps, the signal and the timeout (a server handing out a fresh cursor for ever)', () => {
    let page = 0;
    let junkPerPage = 0;
    let hold = false;
    let server: Awaited<ReturnType<typeof startRecordingServer>>;
    let client: ApiClient;
    beforeEach(async () => {
      page = 0;
      junkPerPage = 0;
      hold = false;
      server = await startRecordingServer((_req, res) => {
        if (hold && page > 0) {
          return;
        } // never answers: only the walk's timeout ends it
        page++;
        const junk = Array.from({ length: junkPerPage }, (_, i) => (i % 2 ? null : { status: 'pending' }));
        json(res, 200, {
          object: 'list',
          data: [{ id: `task_${page}` }, ...junk],
          has_more: true,
          next_cursor: `fresh-${page}`,
        });
      });
      client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k' });
    });
    afterEach(async () => {
      await client.dispose();
      await server.close();
    });

    it('stops at the page cap and says it cut the list', async () => {
      const walk = client.iterateTasks({}, { maxPages: 7 });
      const ids: string[] = [];
      for await (const t of walk) {
        ids.push(t.id);
      }
      assert.equal(server.requests.length, 7);
      assert.equal(ids.length, 7);
      assert.deepEqual(walk.cut, { reason: 'pages', pages: 7, received: 7 });
    });

    it('has a page cap by default', async () => {
      const walk = client.iterateTasks();
      let n = 0;
      for await (const _ of walk) {
        n++;
      }
      assert.equal(server.requests.length, DEFAULT_MAX_PAGES);
      assert.equal(n, DEFAULT_MAX_PAGES);
      assert.equal(walk.cut?.reason, 'pages');
    });

    it('counts every item the server sent toward the item cap, the ones dropped as junk too', async () => {
      junkPerPage = 99; // one record and 99 items parsePage drops, per page
      const walk = client.iterateTasks({}, { maxItems: 250 });
      const ids: string[] = [];
      for await (const t of walk) {
        ids.push(t.id);
      }
      assert.equal(server.requests.length, 3, 'three pages hold 300 items: past 250');
      assert.deepEqual(walk.cut, { reason: 'items', pages: 3, received: 300 });
      assert.ok(ids.length <= 3);
    });

    it("stops when the caller's signal aborts, and asks for nothing after", async () => {
      const controller = new AbortController();
      const walk = client.iterateTasks({}, { signal: controller.signal });
      const err = await rejectionOf(
        (async () => {
          for await (const t of walk) {
            if (t.id === 'task_3') {
              controller.abort();
            }
          }
        })(),
      );
      assert.ok(isApiError(err, 'aborted'), String(err));
      assert.equal(server.requests.length, 3);
    });

    it('gives up on the whole walk past its timeout, with a timeout error', async () => {
      hold = true; // the second page never comes
      const walk = client.iterateTasks({}, { timeoutMs: 50 });
      const err = await rejectionOf(
        (async () => {
          for await (const _ of walk) {
            void _;
          }
        })(),
      );
      assert.ok(err instanceof ApiError && err.kind === 'timeout' && err.code === 'list_timeout', String(err));
      assert.match(err.message, /did not end within 1 s/);
    });
  });
});
