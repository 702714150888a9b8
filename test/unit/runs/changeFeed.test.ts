// What changed since the last look, at one request a look: against the reference runtime over
// HTTP (which filters by `updated_after`), and against servers that ignore the parameter or
// answer with whole pages of changes (a stand-in list).
import * as assert from 'node:assert/strict';
import type { Page, RunRecord, TaskRecord } from '../../../src/api/types';
import { CHANGE_OVERLAP_MS, ChangeFeed, type ChangeListParams, MAX_CHANGE_PAGES } from '../../../src/runs/changeFeed';
import { rejectionOf, type RuntimeWithClient, startRuntimeWithClient } from '../api/fixtures';

describe('runs/changeFeed', () => {
  describe('against the reference runtime', () => {
    let rt: RuntimeWithClient;
    beforeEach(async () => {
      rt = await startRuntimeWithClient({ eventDelayMs: 10_000 });
    });
    afterEach(async () => rt.close());

    it('lists the tasks and runs changed after an instant, oldest change first, each with updated_at', async () => {
      const first = await rt.runtime.createSyntheticRun({ events: 1, terminal: null, taskObjective: 'First' });
      const second = await rt.runtime.createSyntheticRun({ events: 1, terminal: null, taskObjective: 'Second' });
      const all = await rt.client.listRuns({ limit: 100 });
      const stamp = all.data.find((r) => r.id === second)?.updated_at;
      assert.ok(stamp && Number.isFinite(Date.parse(stamp)), 'a run says when it last changed');
      rt.runtime.endRun(first, 'completed');
      const changed = await rt.client.listRuns({ limit: 100, updated_after: stamp });
      assert.deepEqual(
        changed.data.map((r) => r.id),
        [first],
        'only the run that changed after the instant',
      );
      const tasks = await rt.client.listTasks({ limit: 100, updated_after: stamp });
      assert.deepEqual(
        tasks.data.map((t) => t.objective),
        ['First'],
        "the task follows its run's status, so it changed too",
      );
      rt.runtime.endRun(second, 'failed');
      const both = await rt.client.listRuns({ limit: 100, updated_after: stamp });
      assert.deepEqual(
        both.data.map((r) => r.id),
        [first, second],
        'oldest change first',
      );
    });

    it('refuses an updated_after that is not an RFC 3339 timestamp', async () => {
      const err = await rejectionOf(rt.client.listTasks({ limit: 5, updated_after: 'yesterday' }));
      assert.match(String((err as Error).message), /updated_after/);
    });

    it('reads one list per look and vouches for every run, changed or not', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        ids.push(await rt.runtime.createSyntheticRun({ events: 1, terminal: null }));
      }
      const calls: ChangeListParams[] = [];
      const feed = new ChangeFeed<RunRecord>({
        list: (params, signal) => (calls.push(params), rt.client.listRuns(params, { signal })),
      });
      const firstLook = await feed.read();
      assert.equal(firstLook.changed.length, 30, 'the first look is the first page');
      rt.runtime.endRun(ids[7], 'completed');
      const look = await feed.read();
      assert.deepEqual(
        look.changed.map((r) => [r.id, r.status]),
        [[ids[7], 'completed']],
      );
      assert.ok(feed.filtersByChange);
      assert.ok(
        ids.every((id) => look.covers(id)),
        'a run not listed did not change',
      );
      const quiet = await feed.read();
      assert.deepEqual(quiet.changed, [], 'the overlap brings nothing seen before');
      assert.equal(calls.length, 3, 'one request a look, whatever the number of runs');
      assert.ok(calls.slice(1).every((c) => typeof c.updated_after === 'string'));
    });
  });

  describe('with a stand-in list', () => {
    /** A list of tasks: `filters` says whether it honours updated_after. */
    function standIn(records: TaskRecord[], filters: boolean, pageSize = 100) {
      const calls: ChangeListParams[] = [];
      const list = async (params: ChangeListParams): Promise<Page<TaskRecord>> => {
        calls.push(params);
        const since = params.updated_after === undefined ? undefined : Date.parse(params.updated_after);
        let rows =
          filters && since !== undefined
            ? records
                .filter((r) => Date.parse(r.updated_at ?? '') > since)
                .sort((a, b) => Date.parse(a.updated_at!) - Date.parse(b.updated_at!))
            : [...records].reverse();
        const start = params.after ? rows.findIndex((r) => r.id === params.after) + 1 : 0;
        rows = rows.slice(start);
        const data = rows.slice(0, Math.min(pageSize, params.limit));
        return { object: 'list', data, has_more: rows.length > data.length, next_cursor: data.at(-1)?.id ?? null };
      };
      return { list, calls };
    }
    const at = (ms: number): string => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();

    it('takes a server that ignores updated_after at its word: the first page, compared with the last look', async () => {
      const records: TaskRecord[] = [
        { id: 'task_b', status: 'running', updated_at: at(0) },
        { id: 'task_a', status: 'running', updated_at: at(10_000) },
      ];
      const server = standIn(records, false);
      const feed = new ChangeFeed<TaskRecord>({ list: server.list });
      await feed.read();
      records[1] = { ...records[1], status: 'completed', updated_at: at(20_000) };
      const look = await feed.read();
      assert.equal(feed.filtersByChange, false, 'task_b came back though it changed long before the instant');
      assert.deepEqual(
        look.changed.map((t) => t.id),
        ['task_a'],
        'only the record that looks different',
      );
      assert.ok(look.covers('task_b'), 'listed and unchanged');
      assert.ok(!look.covers('task_old'), 'not on the first page: not vouched for');
      await feed.read();
      assert.equal(server.calls[2].updated_after, undefined, 'then the first page only');
    });

    it('takes a record without updated_at as a sign the parameter was ignored, and compares whole records', async () => {
      const records: TaskRecord[] = [{ id: 'task_a', status: 'running', updated_at: at(0) }];
      const server = standIn(records, false);
      const feed = new ChangeFeed<TaskRecord>({ list: server.list });
      await feed.read();
      // Every record stamped after the instant asked but one without a stamp at all.
      records.push({ id: 'task_new', status: 'queued' });
      const look = await feed.read();
      assert.equal(feed.filtersByChange, false);
      assert.deepEqual(
        look.changed.map((t) => t.id),
        ['task_new'],
      );
      records[1] = { ...records[1], status: 'running' };
      assert.deepEqual(
        (await feed.read()).changed.map((t) => t.status),
        ['running'],
        'a record without updated_at is compared as a whole',
      );
    });

    it('asks again for changes within the overlap, and shows each change once', async () => {
      const records: TaskRecord[] = [{ id: 'task_a', status: 'running', updated_at: at(5_000) }];
      const server = standIn(records, true);
      const feed = new ChangeFeed<TaskRecord>({ list: server.list });
      await feed.read();
      // A change stamped a moment before the newest one seen (another server clock, a tie).
      records.push({ id: 'task_b', status: 'running', updated_at: at(5_000 - CHANGE_OVERLAP_MS / 2) });
      const look = await feed.read();
      assert.equal(server.calls[1].updated_after, at(5_000 - CHANGE_OVERLAP_MS));
      assert.deepEqual(
        look.changed.map((t) => t.id),
        ['task_b'],
        'task_a came back in the overlap and is not a change',
      );
    });

    it('reads at most a few pages a look when changes come faster than a page; the rest come next look', async () => {
      const records: TaskRecord[] = [{ id: 'task_0', status: 'running', updated_at: at(0) }];
      const server = standIn(records, true, 10);
      const feed = new ChangeFeed<TaskRecord>({ list: server.list });
      await feed.read();
      for (let i = 1; i <= 100; i++) {
        records.push({ id: `task_${i}`, status: 'running', updated_at: at(10_000 + i) });
      }
      const calls = server.calls.length;
      const look = await feed.read();
      assert.equal(server.calls.length - calls, MAX_CHANGE_PAGES, 'bounded in requests');
      assert.equal(look.changed.length, MAX_CHANGE_PAGES * 10 - 1, 'task_0 came back in the overlap');
      const next = await feed.read();
      assert.ok(next.changed.length > 0, 'the next look goes on from the newest change seen');
      assert.ok(!next.changed.some((t) => look.changed.includes(t)));
    });

    it('starts over when it reads another list (another server or project)', async () => {
      const records: TaskRecord[] = [{ id: 'task_a', status: 'running', updated_at: at(0) }];
      const server = standIn(records, true);
      let scope = 'one';
      const feed = new ChangeFeed<TaskRecord>({ list: server.list, scope: () => scope });
      await feed.read();
      await feed.read();
      scope = 'two';
      const look = await feed.read();
      assert.equal(server.calls[2].updated_after, undefined, 'a first look again');
      assert.deepEqual(
        look.changed.map((t) => t.id),
        ['task_a'],
        'nothing remembered from the other list',
      );
    });
  });
});
