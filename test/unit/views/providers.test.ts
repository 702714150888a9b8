// The Files and Tasks providers against the reference runtime (with a stand-in `vscode`):
// paging and "Load more", refresh, fallbacks, error rows, welcome keys, polling and reveal.
import './vscodeStub';
import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiClient } from '../../../src/api/client';
import { ApiError, isApiError } from '../../../src/api/errors';
import type { RunRecord, TaskRecord } from '../../../src/api/types';
import { resolveRun } from '../../../src/commandSupport/runArgs';
import type { Schedule } from '../../../src/common/statusPoller';
import { runContextValue, runFactsOf } from '../../../src/runEvents/runActions';
import { type RunChange, RunStore } from '../../../src/runs/runStore';
import { SidebarContextKeys } from '../../../src/views/contextKeys';
import { FilesTreeProvider } from '../../../src/views/filesProvider';
import {
  ArtifactNode,
  FileNode,
  LoadMoreNode,
  MessageNode,
  RunNode,
  TaskNode,
  type TreeNode,
} from '../../../src/views/nodes';
import { TasksTreeProvider } from '../../../src/views/tasksProvider';
import { revealTask } from '../../../src/views/tasksReveal';
import { droppedUris, UploadDropController } from '../../../src/views/uploadDropController';
import type { ViewApiClient, ViewDeps } from '../../../src/views/viewDeps';
import { CapturingLogger, makeTempDir, type RuntimeWithClient, startRuntimeWithClient } from '../api/fixtures';
import { ManualSchedule } from '../common/manualSchedule';
import { progressViews } from './vscodeStub';

interface Harness {
  deps: ViewDeps;
  keys: Map<string, boolean>;
  contextKeys: SidebarContextKeys;
  authErrors: unknown[];
  local: string[];
  removed: string[];
  signedIn: { value: boolean };
}

function harness(client: ViewApiClient, pageSize = 2): Harness {
  const keys = new Map<string, boolean>();
  const h: Harness = {
    keys,
    contextKeys: new SidebarContextKeys((k, v) => keys.set(k, v)),
    authErrors: [],
    local: [],
    removed: [],
    signedIn: { value: true },
    deps: undefined as unknown as ViewDeps,
  };
  h.deps = {
    getClient: () => client,
    pageSize: () => pageSize,
    isSignedIn: () => h.signedIn.value,
    onAuthError: (err) => h.authErrors.push(err),
    log: new CapturingLogger(),
    localFiles: {
      list: () => h.local,
      remove: (id) => {
        h.removed.push(id);
        h.local = h.local.filter((x) => x !== id);
      },
    },
  };
  return h;
}

/** A client that answers like `base` except for the calls overridden. */
function clientWith(base: ApiClient, overrides: Partial<ViewApiClient>): ViewApiClient {
  return {
    listFiles: (p, o) => base.listFiles(p, o),
    getFile: (id, o) => base.getFile(id, o),
    listTasks: (p, o) => base.listTasks(p, o),
    getTask: (id, o) => base.getTask(id, o),
    listRuns: (p, o) => base.listRuns(p, o),
    getRun: (id, o) => base.getRun(id, o),
    listRunArtifacts: (id, p, o) => base.listRunArtifacts(id, p, o),
    ...overrides,
  };
}

const notSupported = (): Promise<never> =>
  Promise.reject(new ApiError({ kind: 'not_supported', message: 'No such endpoint.' }));

/** A fake TreeView: visibility and the reveals asked for. */
function fakeTreeView(visible: boolean) {
  const reveals: Array<{ node: TreeNode; options: unknown }> = [];
  const view = {
    visible,
    message: undefined as string | undefined,
    onDidChangeVisibility: () => ({ dispose: () => undefined }),
    reveal: async (node: TreeNode, options: unknown) => void reveals.push({ node, options }),
  };
  return { view: view as unknown as import('vscode').TreeView<TreeNode>, raw: view, reveals };
}

function ids(rows: readonly TreeNode[]): string[] {
  return rows.map((r) => r.id ?? '');
}

function nextEvent<T>(
  event: (listener: (value: T) => void) => { dispose(): void },
  accept: (value: T) => boolean = () => true,
): Promise<T> {
  return new Promise((resolve) => {
    const sub = event((value) => {
      if (!accept(value)) {
        return;
      }
      sub.dispose();
      resolve(value);
    });
  });
}

describe('views/providers (reference runtime)', function () {
  this.timeout(30_000);
  let rt: RuntimeWithClient;
  let temp: { dir: string; remove: () => Promise<void> };

  beforeEach(async () => {
    rt = await startRuntimeWithClient({ eventDelayMs: 0 });
    temp = await makeTempDir();
  });
  afterEach(async () => {
    await rt.close();
    await temp.remove();
  });

  async function upload(count: number): Promise<string[]> {
    const made: string[] = [];
    for (let i = 0; i < count; i++) {
      const path = join(temp.dir, `doc${i}.md`);
      await writeFile(path, `# Doc ${i}\n\nbody\n`);
      made.push((await rt.client.uploadFile(path, { purpose: 'task_input' })).id);
    }
    return made;
  }

  describe('Files', () => {
    it('loads pages of pageSize and "Load more" appends the next one until the last', async () => {
      await upload(5);
      const h = harness(rt.client, 2);
      const files = new FilesTreeProvider(h.deps, h.contextKeys);
      let rows = await files.getChildren();
      assert.equal(rows.length, 3);
      assert.ok(rows[2] instanceof LoadMoreNode);
      await files.loadMore(rows[2]);
      rows = await files.getChildren();
      assert.equal(rows.length, 5);
      const last = rows[4];
      assert.ok(last instanceof LoadMoreNode);
      await files.loadMore(last);
      rows = await files.getChildren();
      assert.equal(rows.length, 5);
      assert.ok(rows.every((r) => r instanceof FileNode && r.contextValue === 'file'));
      assert.equal(new Set(ids(rows)).size, 5, 'every row id is unique');
      assert.ok(progressViews.includes('agentRuntime.files'));
      assert.equal(h.keys.get('agentRuntime.filesEmpty'), false);
      files.dispose();
    });

    it('starts over on refresh, and a "Load more" row from before the refresh does nothing', async () => {
      await upload(3);
      const h = harness(rt.client, 1);
      const files = new FilesTreeProvider(h.deps, h.contextKeys);
      const before = await files.getChildren();
      const staleMore = before[1];
      assert.ok(staleMore instanceof LoadMoreNode);
      files.refresh();
      await files.loadMore(staleMore);
      const after = await files.getChildren();
      assert.equal(after.length, 2, 'still one page');
      assert.notEqual(after[1].id, staleMore.id, 'a new listing never reuses a row id');
      files.dispose();
    });

    it('shows no rows and sets filesEmpty when the workspace has no files', async () => {
      const h = harness(rt.client);
      const files = new FilesTreeProvider(h.deps, h.contextKeys);
      assert.deepEqual(await files.getChildren(), []);
      assert.equal(h.keys.get('agentRuntime.filesEmpty'), true);
      assert.equal(h.keys.get('agentRuntime.unreachable'), false);
      files.dispose();
    });

    it('without a file list, shows the files uploaded from here and forgets those the server lost', async () => {
      const [a, b] = await upload(2);
      const h = harness(clientWith(rt.client, { listFiles: notSupported }), 2);
      h.local = [a, 'file_gone', b];
      const files = new FilesTreeProvider(h.deps, h.contextKeys);
      const tv = fakeTreeView(true);
      files.attach(tv.view);
      let rows = await files.getChildren();
      assert.ok(files.showingLocalFiles);
      assert.ok(tv.raw.message, 'the view says why it shows local files');
      assert.deepEqual(h.removed, ['file_gone']);
      assert.deepEqual(ids(rows).slice(0, 1), [`file:${a}`], 'page 1 held a and the lost file');
      const more = rows.at(-1);
      assert.ok(more instanceof LoadMoreNode);
      await files.loadMore(more);
      rows = await files.getChildren();
      assert.deepEqual(ids(rows), [`file:${a}`, `file:${b}`]);
      files.dispose();
    });

    it('leaves the view empty and sets unreachable when the service cannot be reached', async () => {
      const down = rt.clientWith({ baseUrl: 'http://127.0.0.1:1', maxRetries: 0 });
      const h = harness(down);
      const files = new FilesTreeProvider(h.deps, h.contextKeys);
      assert.deepEqual(await files.getChildren(), []);
      assert.equal(h.keys.get('agentRuntime.unreachable'), true);
      assert.equal(h.keys.get('agentRuntime.filesEmpty'), false);
      files.dispose();
    });

    it('shows a rejected key as an error row with Sign In and a Retry row, asking to sign in once', async () => {
      const h = harness(rt.clientWith({ getApiKey: async () => 'wrong-key' }));
      const files = new FilesTreeProvider(h.deps, h.contextKeys);
      const rows = await files.getChildren();
      assert.equal(rows.length, 2);
      const [message, retry] = rows;
      assert.ok(message instanceof MessageNode);
      assert.equal(message.contextValue, 'message');
      assert.match(String(message.label), /sign in again/);
      assert.ok(!String(message.label).includes('wrong-key'), 'the key never shows');
      assert.deepEqual((message.command as { command: string }).command, 'agentRuntime.signIn');
      assert.ok(retry instanceof LoadMoreNode);
      assert.equal(h.authErrors.length, 1);
      assert.ok(isApiError(h.authErrors[0], 'authentication'));
      files.dispose();
    });

    it('returns no rows and sends nothing while signed out', async () => {
      let calls = 0;
      const h = harness(clientWith(rt.client, { listFiles: async () => (calls++, notSupported()) }));
      h.signedIn.value = false;
      const files = new FilesTreeProvider(h.deps, h.contextKeys);
      assert.deepEqual(await files.getChildren(), []);
      assert.equal(calls, 0);
      files.dispose();
    });

    it('takes a deleted file off the view without reloading', async () => {
      await upload(2);
      const h = harness(rt.client, 10);
      const files = new FilesTreeProvider(h.deps, h.contextKeys);
      const rows = await files.getChildren();
      const first = rows[0];
      assert.ok(first instanceof FileNode);
      files.removeFile(first.entityId);
      assert.deepEqual(ids(await files.getChildren()), [rows[1].id]);
      files.dispose();
    });

    it('refreshing a row of a file the server deleted takes it off the view', async () => {
      const [a, b] = await upload(2);
      const h = harness(rt.client, 10);
      const files = new FilesTreeProvider(h.deps, h.contextKeys);
      const rows = await files.getChildren();
      const row = rows.find((r) => r.id === `file:${a}`);
      assert.ok(row instanceof FileNode);
      await rt.client.deleteFile(a);
      await files.refreshNode(row);
      assert.deepEqual(ids(await files.getChildren()), [`file:${b}`]);
      files.dispose();
    });
  });

  describe('Tasks', () => {
    /** A tree over its own run store; both poll on the given clock (or a real timer). */
    function tasksTree(
      h: Harness,
      options: { schedule?: Schedule; pollDelays?: { firstMs: number; maxMs: number }; runsList?: boolean } = {},
    ) {
      const runs = new RunStore({
        fetchRun: (id, signal) => h.deps.getClient().getRun(id, { signal }),
        listRuns: options.runsList ? (params, signal) => h.deps.getClient().listRuns(params, { signal }) : undefined,
        log: h.deps.log,
        schedule: options.schedule,
        delays: options.pollDelays,
      });
      const tasks = new TasksTreeProvider(h.deps, runs, {
        contextKeys: h.contextKeys,
        schedule: options.schedule,
        pollDelays: options.pollDelays,
      });
      return { runs, tasks, dispose: () => (tasks.dispose(), runs.dispose()) };
    }

    it('waits for the sign-in state before its first answer (no "Sign in" welcome while the key is still being read), then says when it first had rows', async () => {
      await rt.client.createTask({ objective: 'Ready first' });
      const h = harness(rt.client, 10);
      h.signedIn.value = false; // not known yet: the key is still being read
      let markReady = (): void => undefined;
      const firstRows: string[] = [];
      h.deps = {
        ...h.deps,
        ready: new Promise<void>((resolve) => (markReady = resolve)),
        onFirstRows: (view, rows) => firstRows.push(`${view}:${rows}`),
      };
      const { tasks, dispose } = tasksTree(h);
      const answer = tasks.getChildren();
      h.signedIn.value = true;
      markReady();
      const rows = await answer;
      assert.ok(
        rows.length > 0 && rows[0] instanceof TaskNode,
        'answered for the signed-in state, not with the welcome view',
      );
      assert.deepEqual(
        firstRows,
        [`tasks:${rows.filter((r) => r instanceof TaskNode).length}`],
        'the activation timing heard of the rows',
      );
      dispose();
    });

    it('opens a task to its runs and a finished run to its artifacts, with parents for reveal', async () => {
      const [fileId] = await upload(1);
      const task = await rt.client.createTask({
        objective: 'Report on the doc',
        attachments: [{ type: 'document', fileId }],
      });
      const h = harness(rt.client, 10);
      const { runs, tasks, dispose } = tasksTree(h, { pollDelays: { firstMs: 10, maxMs: 50 } });
      const finished = nextEvent(runs.onDidChange, (c) => c.finished);
      runs.follow(task.run_id ?? '', task.id);
      await finished;
      const [taskNode] = await tasks.getChildren();
      assert.ok(taskNode instanceof TaskNode);
      assert.equal(taskNode.id, `task:${task.id}`);
      const [runNode] = await tasks.getChildren(taskNode);
      assert.ok(runNode instanceof RunNode);
      assert.equal(runNode.id, `run:${task.id}:${task.run_id}`);
      assert.equal(runNode.contextValue, 'run review fork');
      assert.equal(runNode.objective, 'Report on the doc');
      assert.equal(resolveRun(runNode)?.objective, 'Report on the doc', 'the steering questions take it from the row');
      assert.equal(runNode.label, 'Run 1', 'a run reads as its number, not its id');
      assert.match(String(runNode.tooltip), new RegExp(task.run_id ?? 'missing'), 'the id stays in the tooltip');
      const artifacts = await tasks.getChildren(runNode);
      assert.ok(
        artifacts.length > 0 && artifacts.every((a) => a instanceof ArtifactNode && a.contextValue === 'artifact'),
      );
      assert.equal(tasks.getParent(artifacts[0]), runNode);
      assert.equal(tasks.getParent(runNode), taskNode);
      assert.equal(tasks.getParent(taskNode), undefined);
      dispose();
    });

    it("falls back to the task's run_id when the server cannot list runs", async () => {
      const runId = await rt.runtime.createSyntheticRun({ events: 1 });
      const h = harness(clientWith(rt.client, { listRuns: notSupported }), 10);
      const { tasks, dispose } = tasksTree(h);
      const [taskNode] = await tasks.getChildren();
      assert.ok(taskNode instanceof TaskNode);
      const runs = await tasks.getChildren(taskNode);
      assert.deepEqual(
        runs.map((r) => (r as RunNode).runId),
        [runId],
      );
      dispose();
    });

    it('polls unfinished rows only while visible and refreshes just the rows that changed', async () => {
      const runId = await rt.runtime.createSyntheticRun({ events: 1, terminal: null });
      const clock = new ManualSchedule();
      const h = harness(rt.client, 10);
      const { runs, tasks, dispose } = tasksTree(h, { schedule: clock.schedule });
      tasks.setVisible(true);
      const [taskNode] = await tasks.getChildren();
      assert.ok(taskNode instanceof TaskNode && taskNode.unfinished);
      const [runNode] = await tasks.getChildren(taskNode);
      assert.ok(runNode instanceof RunNode);
      // Today's flags first, then whatever rows the run-action table adds for a running run.
      assert.match(String(runNode.contextValue), /^run active cancel fork\b/);
      assert.equal(runNode.contextValue, runContextValue(runFactsOf('running')));
      tasks.setVisible(false);
      assert.equal(clock.armed.length, 0, 'hidden: no polling of tasks or runs');
      assert.ok(!runs.polling);
      tasks.setVisible(true);
      assert.ok(runs.polling, 'a visible unfinished run is polled by the store');
      rt.runtime.endRun(runId, 'completed');
      const runRow = nextEvent(tasks.onDidChangeTreeData, (c) => Array.isArray(c) && c.includes(runNode));
      while (clock.armed.length > 0) {
        clock.fire();
      }
      const changed = await runRow;
      assert.deepEqual(changed, [runNode], 'only the run row that changed is redrawn');
      assert.equal(runNode.contextValue, 'run review fork');
      assert.equal(runNode.description?.toString().startsWith('completed'), true);
      dispose();
    });

    it('says when a polled task starts or stops waiting for approval, and not for other changes (Needs You reloads then)', async () => {
      const waiting = await rt.runtime.createSyntheticRun({
        events: 1,
        terminal: 'completed',
        approval: { tool: 'write_file' },
      });
      const going = await rt.runtime.createSyntheticRun({ events: 1, terminal: null });
      const clock = new ManualSchedule();
      const h = harness(rt.client, 10);
      const { tasks, dispose } = tasksTree(h, { schedule: clock.schedule });
      let told = 0;
      const sub = tasks.onDidChangeTaskWaiting(() => told++);
      tasks.setVisible(true);
      const rows = (await tasks.getChildren()).filter((n): n is TaskNode => n instanceof TaskNode);
      assert.equal(rows.length, 2);
      assert.ok(rows.every((n) => n.unfinished));
      rt.runtime.endRun(going, 'completed');
      for (let i = 0; i < 200 && rows.some((n) => n.task.run_id === going && n.unfinished); i++) {
        while (clock.armed.length > 0) {
          clock.fire();
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(told, 0, 'running -> completed is not a change in waiting');
      const [approval] = rt.runtime.listApprovals({ runId: waiting, status: 'pending' });
      rt.runtime.decideApproval(approval.id, 'approve');
      for (let i = 0; i < 200 && rows.some((n) => n.unfinished); i++) {
        while (clock.armed.length > 0) {
          clock.fire();
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.ok(
        rows.every((n) => !n.unfinished),
        'both tasks ended',
      );
      assert.equal(told, 1, 'stopping to wait was told once');
      sub.dispose();
      dispose();
    });

    it('updates a run row from a stream without a poll, and polls nothing the stream covers', async () => {
      const runId = await rt.runtime.createSyntheticRun({ events: 1, terminal: null });
      const clock = new ManualSchedule();
      const h = harness(rt.client, 10);
      const { runs, tasks, dispose } = tasksTree(h, { schedule: clock.schedule });
      tasks.setVisible(true);
      const [taskNode] = await tasks.getChildren();
      const [runNode] = await tasks.getChildren(taskNode);
      assert.ok(runNode instanceof RunNode);
      const streaming = runs.stream(runId);
      assert.ok(!runs.polling, 'a streamed run is not polled');
      const redraw = nextEvent(tasks.onDidChangeTreeData, (c) => Array.isArray(c) && c.includes(runNode));
      runs.noteStreamEvents(runId, 2, 'run.failed');
      await redraw;
      assert.match(
        String(runNode.contextValue),
        /^run resume review fork\b/,
        'the terminal event ended the row at once (a failed run offers Resume)',
      );
      assert.equal(runNode.contextValue, runContextValue(runFactsOf('failed')));
      assert.match(String(runNode.description), /^failed/);
      streaming.dispose();
      dispose();
    });

    it("shows a streamed run's live cost against its cap in its row, one redraw for a flood", async () => {
      const runId = await rt.runtime.createSyntheticRun({ events: 1, terminal: null });
      const clock = new ManualSchedule();
      const h = harness(rt.client, 10);
      const { runs, tasks, dispose } = tasksTree(h, { schedule: clock.schedule });
      tasks.setVisible(true);
      const [taskNode] = await tasks.getChildren();
      const [runNode] = await tasks.getChildren(taskNode);
      assert.ok(runNode instanceof RunNode);
      const streaming = runs.stream(runId);
      let redraws = 0;
      const counting = tasks.onDidChangeTreeData((c) => void (Array.isArray(c) && c.includes(runNode) && redraws++));
      const cap = { amount: '0.05', currency: 'USD' };
      for (let i = 1; i <= 1000; i++) {
        runs.noteStreamSpend(runId, { cost: { amount: (i * 0.00003).toFixed(5), currency: 'USD' }, cap });
      }
      while (clock.armed.length > 0) {
        clock.fire();
      }
      assert.equal(redraws, 1, 'one redraw for the whole flood');
      assert.match(String(runNode.description), /0\.03000 of 0\.05 USD, 60 %$/);
      counting.dispose();
      streaming.dispose();
      dispose();
    });

    it('announces once when a followed run ends, even while the view is hidden', async () => {
      const runId = await rt.runtime.createSyntheticRun({ events: 1, terminal: null, taskObjective: 'Watch me' });
      const clock = new ManualSchedule();
      const h = harness(rt.client, 10);
      const { runs, tasks, dispose } = tasksTree(h, { schedule: clock.schedule });
      const seen: RunChange[] = [];
      runs.onDidChange((c) => void (c.finished && seen.push(c)));
      tasks.setVisible(false);
      runs.follow(runId);
      assert.equal(runs.activeFollowed, 1);
      rt.runtime.endRun(runId, 'failed');
      const finished = nextEvent(runs.onDidChange, (c) => c.finished);
      clock.fire();
      const event = await finished;
      assert.equal(event.facts.runId, runId);
      assert.equal(event.facts.status, 'failed');
      assert.ok(event.facts.followed);
      assert.equal(runs.activeFollowed, 0);
      assert.equal(clock.armed.length, 0, 'nothing left to watch');
      assert.equal(seen.length, 1);
      dispose();
    });

    it('reveals a new task selected and expanded, putting it first when the first page lacks it', async () => {
      const older = await rt.client.createTask({ objective: 'older' });
      await rt.client.createTask({ objective: 'newer' });
      const h = harness(rt.client, 1);
      const { tasks, dispose } = tasksTree(h);
      const tv = fakeTreeView(true);
      tasks.attach(tv.view);
      const node = await revealTask(tasks, () => rt.client, older.id);
      assert.ok(node);
      assert.equal(tv.reveals[0].node, node);
      assert.deepEqual(tv.reveals[0].options, { select: true, focus: false, expand: true });
      const rows = await tasks.getChildren();
      assert.equal(rows[0], node);
      assert.equal(rows.filter((r) => r.id === node.id).length, 1);
      dispose();
    });

    it('a slow reveal does not take the selection from a reveal asked for after it', async () => {
      const first = await rt.client.createTask({ objective: 'revealed in the background' });
      const second = await rt.client.createTask({ objective: 'gone to' });
      // The background reveal of a task just created waits on its GET until the test releases it.
      let asked = (): void => undefined;
      const askedFirst = new Promise<void>((resolve) => (asked = resolve));
      let release = (): void => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const client = new Proxy(rt.client, {
        get(target, key) {
          if (key === 'getTask') {
            return async (id: string, options?: object) => {
              if (id === first.id) {
                asked();
                await gate;
              }
              return target.getTask(id, options);
            };
          }
          const value = Reflect.get(target, key, target) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const h = harness(client, 1);
      const { tasks, dispose } = tasksTree(h);
      const tv = fakeTreeView(true);
      tasks.attach(tv.view);
      const background = revealTask(tasks, () => client, first.id);
      await askedFirst;
      const goneTo = await revealTask(tasks, () => client, second.id);
      release();
      await background;
      assert.deepEqual(
        tv.reveals.map((r) => (r.node as TaskNode).task.id),
        [goneTo?.task.id],
        'the older reveal selected its row after the newer one',
      );
      dispose();
    });

    it('refreshing a task row re-reads it and reloads its runs when next shown', async () => {
      const runId = await rt.runtime.createSyntheticRun({ events: 1, terminal: null });
      const h = harness(rt.client, 10);
      const { tasks, dispose } = tasksTree(h, { schedule: new ManualSchedule().schedule });
      const [taskNode] = await tasks.getChildren();
      assert.ok(taskNode instanceof TaskNode);
      const [before] = await tasks.getChildren(taskNode);
      rt.runtime.endRun(runId, 'cancelled');
      const changed = nextEvent(tasks.onDidChangeTreeData);
      await tasks.refreshNode(taskNode);
      assert.equal(await changed, taskNode);
      assert.equal(taskNode.task.status, 'cancelled');
      const [after] = await tasks.getChildren(taskNode);
      assert.ok(after instanceof RunNode);
      assert.notEqual(after, before, 'the runs were fetched again');
      assert.equal(after.id, before.id, 'with the same row id');
      assert.equal(after.run.status, 'cancelled');
      dispose();
    });

    /** A client that counts its calls by name. */
    function counting(overrides: Partial<ViewApiClient> = {}) {
      const calls = new Map<string, number>();
      const base = clientWith(rt.client, overrides);
      const client = Object.fromEntries(
        Object.entries(base).map(([name, call]) => [
          name,
          (...args: unknown[]) => (
            calls.set(name, (calls.get(name) ?? 0) + 1),
            (call as (...a: unknown[]) => unknown)(...args)
          ),
        ]),
      ) as unknown as ViewApiClient;
      return { client, calls, reset: () => calls.clear() };
    }

    /** Fires every armed poll timer and waits until each poll has ended (its timer armed again). */
    async function pollOnce(clock: ManualSchedule): Promise<void> {
      const pollers = clock.armed.length;
      while (clock.armed.length > 0) {
        clock.fire();
      }
      for (let i = 0; i < 1_000 && clock.armed.length < pollers; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(clock.armed.length, pollers, 'every poll ended');
    }

    it('stays current without Refresh: a task created elsewhere comes in first, a status change shows, one list read a look', async () => {
      const live: string[] = [];
      for (let i = 0; i < 30; i++) {
        live.push(await rt.runtime.createSyntheticRun({ events: 1, terminal: null, taskObjective: `Live ${i}` }));
      }
      const clock = new ManualSchedule();
      const counted = counting();
      const h = harness(counted.client, 40);
      const { tasks, dispose } = tasksTree(h, { schedule: clock.schedule });
      tasks.setVisible(true);
      const rows = (await tasks.getChildren()).filter((n): n is TaskNode => n instanceof TaskNode);
      assert.equal(rows.length, 30);
      assert.ok(rows.every((n) => n.unfinished));
      await pollOnce(clock); // the first look: the first page
      counted.reset();
      const made = await rt.client.createTask({ objective: 'Made in another window' });
      rt.runtime.endRun(live[3], 'completed');
      const redraw = nextEvent(tasks.onDidChangeTreeData, (c) => c === undefined);
      await pollOnce(clock);
      await redraw;
      const after = await tasks.getChildren();
      assert.equal(after[0].id, `task:${made.id}`, 'the new task is the first row, no Refresh');
      const ended = after.find((n) => n instanceof TaskNode && n.task.run_id === live[3]);
      assert.ok(ended instanceof TaskNode && !ended.unfinished, 'the status change shows');
      for (let i = 0; i < 4; i++) {
        await pollOnce(clock);
      }
      assert.equal(counted.calls.get('listTasks'), 5, 'one tasks list read a look');
      assert.equal(counted.calls.get('getTask') ?? 0, 0, 'no request per task, though 30 are live');
      dispose();
    });

    it('stays current against a server that ignores updated_after', async () => {
      await rt.runtime.createSyntheticRun({ events: 1, terminal: null, taskObjective: 'Older' });
      const clock = new ManualSchedule();
      const counted = counting({
        listTasks: (p, o) => rt.client.listTasks({ ...p, updated_after: undefined }, o),
      });
      const h = harness(counted.client, 10);
      const { tasks, dispose } = tasksTree(h, { schedule: clock.schedule });
      tasks.setVisible(true);
      await tasks.getChildren();
      await pollOnce(clock);
      await pollOnce(clock);
      const made = await rt.client.createTask({ objective: 'Made elsewhere' });
      await pollOnce(clock);
      const after = await tasks.getChildren();
      assert.deepEqual(
        after.map((n) => n.id),
        [`task:${made.id}`, after[1].id],
        'the new task first, once',
      );
      assert.equal(counted.calls.get('getTask') ?? 0, 0, 'every row was on the first page');
      dispose();
    });

    it('keeps the shown runs current with one runs list read a look, not a request per run', async () => {
      for (let i = 0; i < 12; i++) {
        await rt.runtime.createSyntheticRun({ events: 1, terminal: null, taskObjective: `Run ${i}` });
      }
      const clock = new ManualSchedule();
      const counted = counting();
      const h = harness(counted.client, 20);
      const { runs, tasks, dispose } = tasksTree(h, { schedule: clock.schedule, runsList: true });
      tasks.setVisible(true);
      const rows = (await tasks.getChildren()).filter((n): n is TaskNode => n instanceof TaskNode);
      const runRows: RunNode[] = [];
      for (const row of rows) {
        runRows.push(...(await tasks.getChildren(row)).filter((n): n is RunNode => n instanceof RunNode));
      }
      assert.equal(runRows.length, 12);
      assert.ok(runs.polling);
      counted.reset();
      const target = runRows[5];
      rt.runtime.endRun(target.runId, 'failed');
      for (let i = 0; i < 3; i++) {
        await pollOnce(clock);
      }
      assert.match(String(target.description), /^failed/, 'the run row shows its end');
      assert.equal(counted.calls.get('getRun') ?? 0, 0, 'no request per run');
      assert.equal(counted.calls.get('listRuns'), 3, 'one runs list read a look');
      dispose();
    });

    it('shows an unknown status verbatim with a neutral icon and keeps polling it', async () => {
      const odd: TaskRecord = { id: 'task_odd', status: 'thinking_hard', objective: 'Odd' };
      const h = harness(
        clientWith(rt.client, {
          listTasks: async () => ({ object: 'list', data: [odd], has_more: false, next_cursor: null }),
          listRuns: async () => ({ object: 'list', data: [] as RunRecord[], has_more: false, next_cursor: null }),
        }),
      );
      const { tasks, dispose } = tasksTree(h, { schedule: new ManualSchedule().schedule });
      const [row] = await tasks.getChildren();
      assert.ok(row instanceof TaskNode);
      assert.match(String(row.description), /^thinking_hard/);
      assert.equal((row.iconPath as { id: string }).id, 'question');
      assert.ok(row.unfinished);
      const runs = await tasks.getChildren(row);
      assert.ok(runs[0] instanceof MessageNode, 'an empty level says so');
      dispose();
    });
  });

  describe('drop on a view', () => {
    it('uploads each dropped URI once and ignores drops without any', async () => {
      const uploads: string[][] = [];
      const controller = new UploadDropController((uris) => void uploads.push(uris.map(String)), new CapturingLogger());
      const transfer = (text: string) =>
        ({
          get: (mime: string) => (mime === 'text/uri-list' ? { asString: async () => text } : undefined),
          forEach: () => undefined,
        }) as unknown as import('vscode').DataTransfer;
      const token = { isCancellationRequested: false } as import('vscode').CancellationToken;
      await controller.handleDrop(undefined, transfer('file:///a.txt\r\nfile:///b.txt\r\nfile:///a.txt'), token);
      await controller.handleDrop(undefined, transfer('# nothing\r\n'), token);
      assert.deepEqual(uploads, [['file:///a.txt', 'file:///b.txt']]);
      assert.equal((await droppedUris(transfer(''))).length, 0);
    });
  });
});
