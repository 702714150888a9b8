// Benchmark "current without Refresh": the requests a window makes to keep 30 and 300 live runs
// current, with the real poll timers, against the reference runtime over HTTP, while the
// service is busy (every 2 s one run ends and another starts, as in a team's account).
// - "a request per run": the RunStore polling each shown run on its own (its path without a
//   runs list, as every poll was before the change feed).
// - "one list a look": the Tasks view's poll (TaskPolling) and the RunStore, each reading one
//   list a look through the change feed (`updated_after`).
// Run: `npm run bench -- staying-current` (about 3 min). STAYING_CURRENT_WINDOW_S (40) sets the
// measured window per case.
import type { ApiClient } from '../../src/api/client';
import { ApiClient as Client } from '../../src/api/client';
import type { TaskRecord } from '../../src/api/types';
import { RunStore } from '../../src/runs/runStore';
import type { TaskNode } from '../../src/views/nodes';
import { TaskPolling } from '../../src/views/taskPolling';
import type { ViewApiClient, ViewDeps } from '../../src/views/viewDeps';
import { startRuntime } from '../runtime';
import { CapturingLogger } from '../unit/api/fixtures';

const WINDOW_S = Number(process.env.STAYING_CURRENT_WINDOW_S ?? 40);

/** A task row as TaskPolling reads it (the real one is a vscode.TreeItem). */
function fakeRow(task: TaskRecord): TaskNode {
  const row = {
    task,
    entityId: task.id,
    children: undefined,
    get unfinished() {
      return !['completed', 'failed', 'cancelled'].includes(String(row.task.status));
    },
    update(next: TaskRecord) {
      const changed = JSON.stringify(next) !== JSON.stringify(row.task);
      row.task = next;
      return changed;
    },
    forgetChildren: () => undefined,
  };
  return row as unknown as TaskNode;
}

async function measure(live: number, feed: boolean): Promise<{ perSecond: number; byCall: string }> {
  const runtime = await startRuntime({ eventDelayMs: 60_000 });
  const client: ApiClient = new Client({
    baseUrl: runtime.baseUrl,
    getApiKey: async () => runtime.apiKey,
    logger: new CapturingLogger(),
  });
  const calls = new Map<string, number>();
  const count = (name: string): void => void calls.set(name, (calls.get(name) ?? 0) + 1);
  const counted = {
    listTasks: (p: Parameters<ApiClient['listTasks']>[0], o?: Parameters<ApiClient['listTasks']>[1]) => (
      count('listTasks'),
      client.listTasks(p, o)
    ),
    getTask: (id: string, o?: Parameters<ApiClient['getTask']>[1]) => (count('getTask'), client.getTask(id, o)),
    listRuns: (p: Parameters<ApiClient['listRuns']>[0], o?: Parameters<ApiClient['listRuns']>[1]) => (
      count('listRuns'),
      client.listRuns(p, o)
    ),
    getRun: (id: string, o?: Parameters<ApiClient['getRun']>[1]) => (count('getRun'), client.getRun(id, o)),
  };
  const runIds: string[] = [];
  for (let i = 0; i < live; i++) {
    runIds.push(await runtime.createSyntheticRun({ events: 1, terminal: null, taskObjective: `Live ${i}` }));
  }
  const store = new RunStore({
    fetchRun: (id, signal) => counted.getRun(id, { signal }),
    listRuns: feed ? (params, signal) => counted.listRuns(params, { signal }) : undefined,
    log: new CapturingLogger(),
  });
  const shows = runIds.map((id) => store.show(id));
  const rows = (await client.listTasks({ limit: 100 })).data.map(fakeRow);
  const deps = {
    getClient: () => counted as unknown as ViewApiClient,
    isSignedIn: () => true,
    onAuthError: () => undefined,
    log: new CapturingLogger(),
  } as unknown as ViewDeps;
  const tasks = feed
    ? new TaskPolling(deps, {
        tasks: () => rows,
        visible: () => true,
        projectId: () => undefined,
        onNew: (task) => void rows.unshift(fakeRow(task)),
        onChanged: () => undefined,
      })
    : undefined;
  tasks?.kick();
  const busy = setInterval(() => {
    const ended = runIds.shift();
    if (ended) {
      runtime.endRun(ended, 'completed');
    }
    void runtime.createSyntheticRun({ events: 1, terminal: null }).then((id) => {
      runIds.push(id);
      shows.push(store.show(id));
    });
  }, 2_000);
  // The first looks come at 2 s and 4 s: measure the steady state after them.
  await new Promise((r) => setTimeout(r, 8_000));
  calls.clear();
  await new Promise((r) => setTimeout(r, WINDOW_S * 1_000));
  const total = [...calls.values()].reduce((a, b) => a + b, 0);
  const byCall = [...calls.entries()].map(([k, v]) => `${k} ${v}`).join(', ');
  clearInterval(busy);
  tasks?.dispose();
  for (const s of shows) {
    s.dispose();
  }
  store.dispose();
  await client.dispose();
  await runtime.close();
  return { perSecond: total / WINDOW_S, byCall };
}

void (async () => {
  console.log(`window ${WINDOW_S} s per case, after 8 s of warm-up; every 2 s one run ends and one starts`);
  console.log('| live runs | how | requests/s | calls in the window |');
  console.log('|---|---|---|---|');
  for (const live of [30, 300]) {
    for (const feed of [false, true]) {
      const { perSecond, byCall } = await measure(live, feed);
      const how = feed ? 'one list a look (tasks view + run store)' : 'a request per run (run store only)';
      console.log(`| ${live} | ${how} | ${perSecond.toFixed(2)} | ${byCall} |`);
    }
  }
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
