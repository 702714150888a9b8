// Pagination: page calls with limit clamped to 1..100, and `for await` over every item that
// always ends, even on a broken server.
import * as assert from 'node:assert/strict';
import { ApiClient } from '../../../src/api/client';
import { clampLimit, paginate } from '../../../src/api/pagination';
import { json, startRecordingServer, startRuntimeWithClient } from './fixtures';

describe('api/pagination', () => {
  it('iterates every task of the runtime across many pages, each once, in order', async () => {
    const ctx = await startRuntimeWithClient();
    try {
      const created: string[] = [];
      for (let i = 0; i < 57; i++) created.push((await ctx.client.createTask({ objective: `task ${i}` })).id);
      const seen: string[] = [];
      for await (const task of ctx.client.iterateTasks({ limit: 10 })) seen.push(task.id);
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
    const server = await startRecordingServer((_req, res) => json(res, 200, { object: 'list', data: [], has_more: false }));
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k' });
    try {
      await client.listTasks({ limit: 1000 });
      await client.listTasks({ limit: 0 });
      await client.listTasks({ limit: -5 });
      await client.listFiles({ limit: 7.9, purpose: 'dataset', after: 'c 1' });
      await client.listTasks();
      assert.deepEqual(server.requests.map((r) => r.url), [
        '/v1/tasks?limit=100',
        '/v1/tasks?limit=1',
        '/v1/tasks?limit=1',
        '/v1/files?purpose=dataset&limit=7&after=c+1',
        '/v1/tasks',
      ]);
      assert.deepEqual([clampLimit(undefined), clampLimit(NaN), clampLimit(0), clampLimit(250), clampLimit(42)], [25, 25, 1, 100, 42]);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('stops on a broken server: has_more with a repeated cursor, an empty page, or no cursor', async () => {
    let mode = 'repeat';
    const server = await startRecordingServer((_req, res) => {
      if (mode === 'repeat') return json(res, 200, { object: 'list', data: [{ id: 'task_a' }], has_more: true, next_cursor: 'same' });
      if (mode === 'empty') return json(res, 200, { object: 'list', data: [], has_more: true, next_cursor: 'more' });
      return json(res, 200, { object: 'list', data: [{ id: 'task_b' }], has_more: true });
    });
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k' });
    try {
      const collect = async (): Promise<string[]> => {
        const ids: string[] = [];
        for await (const t of client.iterateTasks()) ids.push(t.id);
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
    for await (const n of paginate((p) => (calls.push(p.after), Promise.resolve(pages[calls.length - 1])), { limit: 2 })) items.push(n);
    assert.deepEqual(items, [1, 2, 3]);
    assert.deepEqual(calls, [undefined, 'c1']);
  });
});
