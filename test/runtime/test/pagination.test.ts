// Cursor pagination on every list: limit default 25 and max 100, unknown cursors, newest first, stability.
import * as assert from 'node:assert';
import { type RuntimeHandle, startRuntime } from '../index';
import { call, createTask, errorOf, runToEnd, uploadOk } from './runtimeTestKit';

type Page = { object: string; data: { id: string }[]; has_more: boolean; next_cursor: string | null };

describe('runtime: pagination', () => {
  let rt: RuntimeHandle;
  const fileIds: string[] = [];
  before(async () => {
    rt = await startRuntime();
    for (let i = 0; i < 130; i++) {
      fileIds.push(await uploadOk(rt, `f${i}.txt`, `file ${i}`));
    }
    fileIds.reverse(); // newest first
  });
  after(() => rt.close());

  const page = async (path: string): Promise<Page> => {
    const res = await call(rt, 'GET', path);
    assert.strictEqual(res.status, 200, res.text);
    return res.json as unknown as Page;
  };

  it('serves 25 items by default, newest first, with a cursor to the next page', async () => {
    const first = await page('/v1/files');
    assert.strictEqual(first.object, 'list');
    assert.deepStrictEqual(
      first.data.map((f) => f.id),
      fileIds.slice(0, 25),
    );
    assert.strictEqual(first.has_more, true);
    assert.strictEqual(first.next_cursor, fileIds[24]);
  });

  it('walks every item exactly once page by page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const p: Page = await page(`/v1/files?limit=40${cursor ? `&after=${cursor}` : ''}`);
      seen.push(...p.data.map((f) => f.id));
      cursor = p.has_more ? p.next_cursor : null;
      if (!p.has_more) {
        assert.strictEqual(p.next_cursor, null);
      }
    } while (cursor);
    assert.deepStrictEqual(seen, fileIds);
  });

  it('allows limit 100 and rejects 101, 0 and non-integers with 400 naming limit', async () => {
    assert.strictEqual((await page('/v1/files?limit=100')).data.length, 100);
    for (const bad of ['101', '0', '-1', 'abc', '2.5']) {
      const res = await call(rt, 'GET', `/v1/files?limit=${bad}`);
      assert.strictEqual(res.status, 400, bad);
      assert.strictEqual(errorOf(res).param, 'limit');
    }
  });

  it('rejects an unknown cursor with 400 naming after, on every list', async () => {
    const task = await createTask(rt, 'list me');
    for (const path of ['/v1/files', '/v1/tasks', '/v1/runs', `/v1/runs/${task.run_id}/artifacts`]) {
      const res = await call(rt, 'GET', `${path}${path.includes('?') ? '&' : '?'}after=nonsense`);
      assert.strictEqual(res.status, 400, path);
      assert.strictEqual(errorOf(res).param, 'after');
      assert.strictEqual(errorOf(res).code, 'invalid_cursor');
    }
  });

  it('keeps pages stable while new items are added in front', async () => {
    const first = await page('/v1/files?limit=10');
    const added = await uploadOk(rt, 'new.txt', 'new');
    const second = await page(`/v1/files?limit=10&after=${first.next_cursor}`);
    assert.deepStrictEqual(
      second.data.map((f) => f.id),
      fileIds.slice(10, 20),
    );
    assert.strictEqual((await page('/v1/files?limit=1')).data[0].id, added, 'the new item leads the list');
    await call(rt, 'DELETE', `/v1/files/${added}`);
  });

  it('keeps a cursor valid after the item it points at is deleted', async () => {
    const first = await page('/v1/files?limit=5');
    await call(rt, 'DELETE', `/v1/files/${first.next_cursor}`);
    const second = await page(`/v1/files?limit=5&after=${first.next_cursor}`);
    assert.deepStrictEqual(
      second.data.map((f) => f.id),
      fileIds.slice(5, 10),
    );
    fileIds.splice(4, 1);
  });

  it("pages tasks, runs filtered by task_id, and a run's artifacts", async () => {
    const a = await createTask(rt, 'A');
    const b = await createTask(rt, 'B');
    await runToEnd(rt, a.run_id);
    await runToEnd(rt, b.run_id);
    const tasks = await page('/v1/tasks?limit=1');
    assert.strictEqual(tasks.data[0].id, b.id);
    assert.strictEqual(tasks.has_more, true);
    assert.strictEqual((await page(`/v1/tasks?limit=1&after=${tasks.next_cursor}`)).data[0].id, a.id);

    const runs = await page(`/v1/runs?task_id=${a.id}`);
    assert.deepStrictEqual(
      runs.data.map((r) => r.id),
      [a.run_id],
    );
    assert.strictEqual((await call(rt, 'GET', '/v1/runs?task_id=task_missing')).status, 404);

    const art1 = await page(`/v1/runs/${a.run_id}/artifacts?limit=1`);
    assert.strictEqual(art1.has_more, true);
    const art2 = await page(`/v1/runs/${a.run_id}/artifacts?limit=1&after=${art1.next_cursor}`);
    assert.strictEqual(art2.has_more, false);
    assert.strictEqual(art2.next_cursor, null);
    assert.notStrictEqual(art1.data[0].id, art2.data[0].id);
    assert.strictEqual((await call(rt, 'GET', '/v1/runs/run_missing/artifacts')).status, 404);
  });
});
