// The run panel. Events arrive live; a dropped stream shows "reconnecting" and goes on
// with no duplicated or missing row; a window reload mid-run restores the panel, which completes.
// The runs are the runtime's synthetic live runs, so the scenario decides when they end.
import * as assert from 'node:assert';
import { type Scenario, type ScenarioContext } from '../types';
import { UI } from '../ui';
import { refreshView } from './api';
import { assertSameSequences, renderedSequences, runPanelFrame, waitForRow, watchForReconnecting } from './runPanel';

/** A live synthetic run on the server, opened from the Tasks view with "Watch Run". */
async function startAndWatch(
  ctx: ScenarioContext,
  objective: string,
  run: { events: number; terminal: 'completed' | null },
): Promise<string> {
  const { workbench, runtime } = ctx;
  const runId = await runtime.createSyntheticRun({
    events: run.events,
    terminal: run.terminal,
    live: true,
    taskObjective: objective,
  });
  await workbench.openContainer(UI.container);
  await refreshView(ctx, 'tasks');
  const row = await workbench.treeRow(UI.tasksView, objective);
  await workbench.contextMenu(row, UI.menu.watchRun);
  return runId;
}

/** Appends one event on the server and waits for the panel to show it: proof the panel is live. */
async function appendAndSee(ctx: ScenarioContext, runId: string): Promise<void> {
  const sequence = ctx.runtime.appendEvent(runId, 'observation.recorded', {
    step_id: 'step_1',
    summary: 'appended by the e2e scenario',
  });
  await waitForRow(await runPanelFrame(ctx.workbench), sequence);
}

/** Ends the run on the server, waits for the panel to show the terminal row, compares with the log. */
async function endAndCompare(ctx: ScenarioContext, runId: string): Promise<void> {
  if (!ctx.runtime.eventLog(runId).some((e) => /^run\./.test(e.event))) {
    ctx.runtime.endRun(runId, 'completed');
  }
  const log = ctx.runtime.eventLog(runId);
  const frame = await runPanelFrame(ctx.workbench);
  await waitForRow(frame, log[log.length - 1].sequence);
  await ctx.shot('run-complete');
  assertSameSequences(await renderedSequences(frame), log);
}

export const watchRunLive: Scenario = {
  id: 'watch-run-live',
  title: 'Watch Run: events arrive live in the webview, exactly the server log',
  runtime: { eventDelayMs: 50 },
  async run(ctx) {
    const runId = await startAndWatch(ctx, 'Watch this run live', { events: 12, terminal: null });
    await waitForRow(await runPanelFrame(ctx.workbench), 12);
    await ctx.shot('run-live');
    await appendAndSee(ctx, runId);
    await endAndCompare(ctx, runId);
  },
};

export const streamDropReconnect: Scenario = {
  id: 'stream-drop-reconnect',
  title: 'the runtime drops the stream: the panel shows reconnecting, then goes on with no duplicated or missing row',
  runtime: { eventDelayMs: 100, faults: { dropStreamAfterEvents: 3 } },
  async run(ctx) {
    const runId = await startAndWatch(ctx, 'Survive dropped streams', { events: 20, terminal: null });
    const frame = await runPanelFrame(ctx.workbench);
    const sawReconnecting = await watchForReconnecting(frame);
    await waitForRow(frame, 20);
    await appendAndSee(ctx, runId);
    await endAndCompare(ctx, runId);
    assert.strictEqual(await sawReconnecting(), true, 'the panel never showed that it was reconnecting');
  },
};

export const reloadMidRun: Scenario = {
  id: 'reload-mid-run',
  title: 'reload the window mid-run: the panel is restored and completes',
  runtime: { eventDelayMs: 50 },
  async run(ctx) {
    const runId = await startAndWatch(ctx, 'Outlive a reload', { events: 10, terminal: null });
    await waitForRow(await runPanelFrame(ctx.workbench), 10);
    await ctx.shot('before-reload');
    await ctx.workbench.reload();
    // The serializer brings the panel back without the user asking.
    await runPanelFrame(ctx.workbench, 60_000);
    await ctx.shot('restored');
    await appendAndSee(ctx, runId);
    await endAndCompare(ctx, runId);
  },
};
