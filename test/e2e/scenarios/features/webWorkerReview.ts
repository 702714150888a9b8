// Review Changes and projects in the web build, in code-server's web worker extension host: Review
// Changes on a finished run loads and reads the run's outputs in the worker and says the run changed
// no file uploaded from this window (the browser's review finds only those); New Task in Project
// in a workspace not opened from a GitHub repository says what it needs and sends nothing. The
// negative control: the run's outputs were fetched by a web worker of the page without Node, with
// the browser's CORS preflight.
import * as assert from 'node:assert';
import { type Scenario } from '../types';
import { UI } from '../ui';
import { listTasks, refreshView } from './api';
import { signInInBrowser, WEB_SETTINGS, workersThatFetched } from './webWorker';

export const webWorkerReview: Scenario = {
  id: 'web-worker-review',
  title: 'the web build: Review Changes runs in the worker; New Task in Project says what it needs',
  auth: 'none',
  settings: WEB_SETTINGS,
  runtime: { eventDelayMs: 0 },
  async run(ctx) {
    const { workbench, page, runtime, runtimeLog, shot } = ctx;
    await signInInBrowser(ctx);

    const objective = 'Review this run from the browser';
    const runId = await runtime.createSyntheticRun({ events: 3, terminal: 'completed', taskObjective: objective });
    await workbench.openContainer(UI.container);
    await refreshView(ctx, 'tasks');
    const taskRow = await workbench.treeRow(UI.tasksView, objective);
    if ((await taskRow.getAttribute('aria-expanded')) === 'false') {
      await taskRow.click();
    }
    const runRow = await workbench.treeRow(UI.tasksView, /Run 1(?!\d)/);
    await workbench.contextMenu(runRow, UI.menu.reviewChanges);
    await workbench.waitForNotification(/did not produce a new version of any file uploaded from this machine/);
    await shot('review-in-the-browser');
    // The negative control: the run's outputs were read by a web worker of the page, one without Node.
    const hosts = await workersThatFetched(page, `${runtime.baseUrl}/v1/runs/${runId}/artifacts`);
    assert.deepStrictEqual(hosts, ['undefined'], 'the workers that read the outputs, by their typeof process');
    assert.ok(
      runtimeLog.some((line) => new RegExp(`^OPTIONS /v1/runs/${runId}/artifacts\\S* 204 `).test(line)),
      `no CORS preflight for the run's outputs:\n${runtimeLog.filter((l) => l.includes(runId)).join('\n')}`,
    );

    // Projects: this workspace is a folder of code-server's disk, not a GitHub Repositories one.
    const tasksBefore = (await listTasks(runtime)).length;
    await workbench.runCommand(UI.commands.newTaskInProject);
    await workbench.waitForNotification(/need a workspace opened from a GitHub repository/);
    await shot('projects-need-github');
    assert.strictEqual((await listTasks(runtime)).length, tasksBefore, 'New Task in Project sent a task');
    assert.ok(
      !runtimeLog.some((line) => /^GET \/v1\/projects/.test(line)),
      'New Task in Project asked the service for projects without a repository to match',
    );
  },
};
