// Planned: the run panel. Events arrive live; a dropped stream shows "reconnecting" and goes on
// with no duplicated or missing row; a window reload mid-run restores the panel, which completes.
import * as assert from 'assert';
import { Scenario, ScenarioContext } from '../types';
import { UI } from '../ui';
import { createTask, getRun, isTerminalEvent, TERMINAL, until } from './api';
import { assertSameSequences, renderedSequences, runPanelFrame, waitForRow, watchForReconnecting } from './runPanel';

/** Creates a task on the server and opens its run from the Tasks view ("Watch Run"). */
async function startAndWatch(ctx: ScenarioContext, objective: string): Promise<string> {
  const { workbench, runtime } = ctx;
  const task = await createTask(runtime, objective);
  assert.ok(task.run_id, 'the server gave the task no run');
  await workbench.openContainer(UI.container);
  await workbench.runCommand(UI.commands.refreshTasks);
  const row = await workbench.treeRow(UI.tasksView, objective);
  await workbench.contextMenu(row, UI.menu.watchRun);
  return task.run_id;
}

/** Waits for the run to end on the server and for the panel to show its last row; compares. */
async function finishAndCompare(ctx: ScenarioContext, runId: string): Promise<void> {
  await until('the run to end on the server', async () => (TERMINAL.has((await getRun(ctx.runtime, runId)).status) ? true : undefined), 120_000);
  const log = ctx.runtime.eventLog(runId);
  const frame = await runPanelFrame(ctx.workbench);
  await waitForRow(frame, log[log.length - 1].sequence);
  await ctx.shot('run-complete');
  assertSameSequences(await renderedSequences(frame), log);
}

export const watchRunLive: Scenario = {
  id: 'watch-run-live',
  title: 'Watch Run: events arrive live in the webview, exactly the server log',
  planned: true,
  runtime: { eventDelayMs: 300 },
  async run(ctx) {
    const runId = await startAndWatch(ctx, 'Watch this run live');
    const frame = await runPanelFrame(ctx.workbench);
    // Live: the first row is on screen while the server is still producing events.
    assert.ok(!ctx.runtime.eventLog(runId).some((e) => isTerminalEvent(e.event)), 'the run had already ended when the first row showed');
    await ctx.shot('run-live');
    const first = (await renderedSequences(frame)).length;
    await until('more rows to arrive', async () => ((await renderedSequences(frame)).length > first ? true : undefined));
    await finishAndCompare(ctx, runId);
  },
};

export const streamDropReconnect: Scenario = {
  id: 'stream-drop-reconnect',
  title: 'the runtime drops the stream: the panel shows reconnecting, then goes on with no duplicated or missing row',
  planned: true,
  runtime: { eventDelayMs: 200, faults: { dropStreamAfterEvents: 3 } },
  async run(ctx) {
    const runId = await startAndWatch(ctx, 'Survive dropped streams');
    const frame = await runPanelFrame(ctx.workbench);
    const sawReconnecting = await watchForReconnecting(frame);
    await finishAndCompare(ctx, runId);
    assert.strictEqual(await sawReconnecting(), true, 'the panel never showed that it was reconnecting');
  },
};

export const reloadMidRun: Scenario = {
  id: 'reload-mid-run',
  title: 'reload the window mid-run: the panel is restored and completes',
  planned: true,
  runtime: { eventDelayMs: 300 },
  async run(ctx) {
    const runId = await startAndWatch(ctx, 'Outlive a reload');
    await runPanelFrame(ctx.workbench);
    await ctx.shot('before-reload');
    await ctx.workbench.reload();
    // The serializer brings the panel back without the user asking.
    await runPanelFrame(ctx.workbench);
    await ctx.shot('restored');
    await finishAndCompare(ctx, runId);
  },
};
