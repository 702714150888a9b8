// The filter over the Tasks and Files views' top level, against the reference runtime (with a
// stand-in `vscode`): it loads further pages while fewer than a page of rows match, stops after
// a bounded number of pages however many the server has, says how many rows it searched, and
// keeps its query across a reload.
import './vscodeStub';
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { Page, TaskRecord } from '../../../src/api/types';
import { untranslated } from '../../../src/common/translate';
import { RunStore } from '../../../src/runs/runStore';
import { SidebarContextKeys } from '../../../src/views/contextKeys';
import { FilesTreeProvider } from '../../../src/views/filesProvider';
import { fileFilterFields, matchesFilter, normalizeFilter, taskFilterFields } from '../../../src/views/filterQuery';
import { FileNode, LoadMoreNode, MessageNode, TaskNode, type TreeNode } from '../../../src/views/nodes';
import { TasksTreeProvider } from '../../../src/views/tasksProvider';
import type { ViewApiClient, ViewDeps } from '../../../src/views/viewDeps';
import { FilterMoreNode, ViewFilter } from '../../../src/views/viewFilter';
import { CapturingLogger, type RuntimeWithClient, startRuntimeWithClient } from '../api/fixtures';

class MemoryMemento {
  readonly values = new Map<string, unknown>();
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }
  update(key: string, value: unknown): Thenable<void> {
    if (value === undefined) {
      this.values.delete(key);
    } else {
      this.values.set(key, value);
    }
    return Promise.resolve();
  }
}

function viewDeps(client: ViewApiClient, pageSize: number): ViewDeps {
  return {
    getClient: () => client,
    pageSize: () => pageSize,
    isSignedIn: () => true,
    onAuthError: () => undefined,
    log: new CapturingLogger(),
    localFiles: { list: () => [], remove: () => undefined },
  };
}

interface Setup {
  filter: ViewFilter;
  tasks: TasksTreeProvider;
  state: MemoryMemento;
  context: Map<string, boolean>;
  view: { description?: string };
  dispose(): void;
}

function tasksFilter(
  client: ViewApiClient,
  pageSize: number,
  options: { state?: MemoryMemento; maxPagesPerRound?: number } = {},
): Setup {
  const deps = viewDeps(client, pageSize);
  const runs = new RunStore({ fetchRun: (id, signal) => client.getRun(id, { signal }), log: deps.log });
  const tasks = new TasksTreeProvider(deps, runs, { contextKeys: new SidebarContextKeys(() => undefined) });
  const state = options.state ?? new MemoryMemento();
  const context = new Map<string, boolean>();
  const filter = new ViewFilter(tasks, {
    view: 'tasks',
    state,
    contextKey: 'agentRuntime.tasksFiltered',
    setContext: (k, v) => context.set(k, v),
    pageSize: deps.pageSize,
    fields: (node) => (node instanceof TaskNode ? taskFilterFields(node.task, untranslated) : []),
    maxPagesPerRound: options.maxPagesPerRound,
  });
  const view: { description?: string } = {};
  filter.attach(view as unknown as vscode.TreeView<TreeNode>);
  return { filter, tasks, state, context, view, dispose: () => (filter.dispose(), tasks.dispose(), runs.dispose()) };
}

const taskRows = (rows: TreeNode[]) => rows.filter((r): r is TaskNode => r instanceof TaskNode);
const objectives = (rows: TreeNode[]) => taskRows(rows).map((n) => n.task.objective);

describe('views/viewFilter', () => {
  describe('the query (pure)', () => {
    it('matches every word, ignoring case, in the objective, name, status (raw or shown) or id', () => {
      const task: TaskRecord = { id: 'task_9', objective: 'Write the Quarterly REPORT', status: 'awaiting_approval' };
      const fields = taskFilterFields(task, untranslated);
      assert.ok(matchesFilter('quarterly report', fields));
      assert.ok(matchesFilter('report waiting', fields), 'the status as the row shows it');
      assert.ok(matchesFilter('awaiting_approval', fields), 'the raw status');
      assert.ok(matchesFilter('task_9', fields));
      assert.ok(!matchesFilter('report failed', fields), 'every word must match');
      assert.ok(
        matchesFilter('notes.MD', fileFilterFields({ id: 'file_1', filename: 'Notes.md', purpose: 'task_input' })),
      );
      assert.ok(
        matchesFilter('task_input', fileFilterFields({ id: 'file_1', filename: 'Notes.md', purpose: 'task_input' })),
      );
    });

    it('keeps a filter to one trimmed line of at most 200 characters; empty is no filter', () => {
      assert.equal(normalizeFilter('  a \n\t b  '), 'a b');
      assert.equal(normalizeFilter('   '), undefined);
      assert.equal(normalizeFilter(42), undefined);
      assert.equal(normalizeFilter('x'.repeat(10_000))?.length, 200);
    });
  });

  describe('paging (reference runtime)', function () {
    this.timeout(30_000);
    let rt: RuntimeWithClient;

    before(async () => {
      rt = await startRuntimeWithClient({ eventDelayMs: 0 });
      // 12 tasks; "alpha" in every third (2, 5, 8, 11 in creation order).
      for (let i = 0; i < 12; i++) {
        await rt.client.createTask({ objective: i % 3 === 2 ? `alpha ${i}` : `beta ${i}` });
      }
    });
    after(async () => rt.close());

    it('loads pages until a page of rows match, then offers "Load more" saying how many it searched', async () => {
      const s = tasksFilter(rt.client, 2);
      await s.filter.setQuery('ALPHA');
      let rows = await s.filter.getChildren();
      assert.equal(taskRows(rows).length, 2, 'a page of matches');
      assert.ok(objectives(rows).every((o) => o?.startsWith('alpha')));
      const more = rows.at(-1);
      assert.ok(more instanceof FilterMoreNode, 'a Load more row');
      const searched = (await s.tasks.getChildren()).filter((r) => r instanceof TaskNode).length;
      assert.ok(searched > 2 && searched < 12, `searched ${searched}`);
      assert.equal(more.label, `Load more… (${searched} searched)`);
      assert.equal(s.view.description, `Filtered: "ALPHA" · 2 of ${searched} loaded`);
      assert.equal(s.context.get('agentRuntime.tasksFiltered'), true);

      await s.filter.loadMore(more);
      rows = await s.filter.getChildren();
      assert.equal(taskRows(rows).length, 4, 'all four alphas');
      assert.equal(s.view.description?.startsWith('Filtered: "ALPHA" · 4 of '), true);
      s.dispose();
    });

    it('searches at most maxPagesPerRound pages at a time, and says when nothing matched so far', async () => {
      const s = tasksFilter(rt.client, 2, { maxPagesPerRound: 2 });
      await s.filter.setQuery('gamma');
      const rows = await s.filter.getChildren();
      assert.equal(taskRows(rows).length, 0);
      const message = rows.find((r) => r instanceof MessageNode);
      assert.equal(message?.label, 'Nothing matches "gamma" among the 6 loaded so far.', 'the first page and two more');
      const more = rows.at(-1);
      assert.ok(more instanceof FilterMoreNode);
      await s.filter.loadMore(more);
      const after = await s.filter.getChildren();
      assert.equal(
        after.find((r) => r instanceof MessageNode)?.label,
        'Nothing matches "gamma" among the 10 loaded so far.',
      );
      s.dispose();
    });

    it('says "Nothing matches" without a Load more row once every page is searched', async () => {
      const s = tasksFilter(rt.client, 50);
      await s.filter.setQuery('gamma');
      const rows = await s.filter.getChildren();
      assert.deepEqual(
        rows.map((r) => r.label),
        ['Nothing matches "gamma".'],
      );
      assert.equal(s.view.description, 'Filtered: "gamma" · 0 of 12');
      s.dispose();
    });

    it("shows the provider's rows unchanged without a filter, and again once it is cleared", async () => {
      const s = tasksFilter(rt.client, 5);
      let rows = await s.filter.getChildren();
      assert.equal(taskRows(rows).length, 5);
      assert.ok(rows.at(-1) instanceof LoadMoreNode && !(rows.at(-1) instanceof FilterMoreNode));
      await s.filter.setQuery('alpha');
      await s.filter.setQuery('');
      rows = await s.filter.getChildren();
      assert.equal(s.filter.query, undefined);
      assert.equal(s.view.description, undefined);
      assert.equal(s.context.get('agentRuntime.tasksFiltered'), false);
      assert.ok(!(rows.at(-1) instanceof FilterMoreNode));
      s.dispose();
    });

    it('keeps the query for the workspace: a new view after a reload starts filtered', async () => {
      const first = tasksFilter(rt.client, 2);
      await first.filter.setQuery('  alpha  ');
      first.dispose();
      const second = tasksFilter(rt.client, 2, { state: first.state });
      assert.equal(second.filter.query, 'alpha');
      assert.equal(second.context.get('agentRuntime.tasksFiltered'), true);
      const rows = await second.filter.getChildren();
      assert.ok(objectives(rows).length === 2 && objectives(rows).every((o) => o?.startsWith('alpha')));
      await second.filter.setQuery(undefined);
      assert.equal(first.state.values.size, 0, 'cleared for the next reload too');
      second.dispose();
    });

    it('a refresh searches the new listing afresh', async () => {
      const s = tasksFilter(rt.client, 2, { maxPagesPerRound: 1 });
      await s.filter.setQuery('alpha');
      await s.filter.getChildren();
      s.tasks.refresh();
      const rows = await s.filter.getChildren();
      const searched = (await s.tasks.getChildren()).filter((r) => r instanceof TaskNode).length;
      assert.equal(searched, 4, 'the first page and one more, as for a new search');
      assert.ok(rows.at(-1) instanceof FilterMoreNode);
      s.dispose();
    });
  });

  describe('a hostile server', () => {
    /** Pages without end, each with a new cursor and nothing that matches; fails past 1,000 calls. */
    function endless(): { client: ViewApiClient; calls: () => number } {
      let calls = 0;
      const listTasks = async (): Promise<Page<TaskRecord>> => {
        calls++;
        if (calls > 1000) {
          throw new Error('still paging');
        }
        return {
          object: 'list',
          data: [{ id: `task_${calls}`, objective: `noise ${calls}`, status: 'completed' }],
          has_more: true,
          next_cursor: `c${calls}`,
        };
      };
      const no = () => Promise.reject(new Error('not asked'));
      return {
        client: { listTasks, getTask: no, listFiles: no, getFile: no, listRuns: no, getRun: no, listRunArtifacts: no },
        calls: () => calls,
      };
    }

    it('never loads more than the first page and maxPagesPerRound more per search or Load more', async () => {
      const server = endless();
      const s = tasksFilter(server.client, 3, { maxPagesPerRound: 4 });
      await s.filter.setQuery('signal');
      let rows = await s.filter.getChildren();
      assert.equal(server.calls(), 5);
      // The tree asks again after every page: that must not start another search.
      await s.filter.getChildren();
      assert.equal(server.calls(), 5);
      const more = rows.at(-1);
      assert.ok(more instanceof FilterMoreNode);
      assert.equal(more.label, 'Load more… (5 searched)');
      await s.filter.loadMore(more);
      rows = await s.filter.getChildren();
      assert.equal(server.calls(), 9);
      assert.ok(rows.at(-1) instanceof FilterMoreNode);
      s.dispose();
    });

    it('stops at once when the server repeats its cursor', async () => {
      let calls = 0;
      const no = () => Promise.reject(new Error('not asked'));
      const client: ViewApiClient = {
        listTasks: async () => {
          calls++;
          return {
            object: 'list',
            data: [{ id: `task_${calls}`, objective: 'noise' }],
            has_more: true,
            next_cursor: 'same',
          };
        },
        getTask: no,
        listFiles: no,
        getFile: no,
        listRuns: no,
        getRun: no,
        listRunArtifacts: no,
      };
      const s = tasksFilter(client, 3);
      await s.filter.setQuery('signal');
      const rows = await s.filter.getChildren();
      assert.equal(calls, 2, 'the second page named the same cursor: the end');
      assert.deepEqual(
        rows.map((r) => r.label),
        ['Nothing matches "signal".'],
      );
      s.dispose();
    });
  });

  it('filters the Files view by name the same way', async () => {
    const no = () => Promise.reject(new Error('not asked'));
    const client: ViewApiClient = {
      listFiles: async () => ({
        object: 'list',
        data: [
          { id: 'file_1', filename: 'notes.md' },
          { id: 'file_2', filename: 'data.csv' },
        ],
        has_more: false,
      }),
      listTasks: no,
      getTask: no,
      getFile: no,
      listRuns: no,
      getRun: no,
      listRunArtifacts: no,
    };
    const files = new FilesTreeProvider(viewDeps(client, 10), new SidebarContextKeys(() => undefined));
    const filter = new ViewFilter(files, {
      view: 'files',
      state: new MemoryMemento(),
      contextKey: 'agentRuntime.filesFiltered',
      setContext: () => undefined,
      pageSize: () => 10,
      fields: (node) => (node instanceof FileNode ? fileFilterFields(node.file) : []),
    });
    await filter.setQuery('CSV');
    const rows = await filter.getChildren();
    assert.deepEqual(
      rows.map((r) => r.id),
      ['file:file_2'],
    );
    assert.ok(filter.hides((await files.getChildren())[0]));
    filter.dispose();
    files.dispose();
  });
});
