// Steering in code-server: cancel a live run from the panel; approve a pending tool
// call from the notification (its dialog shows the whole call first) and see the run go on; deny one from the "Needs You" list and see
// the skip recorded in the timeline; fork from a step with instructions and watch the new run.
import * as assert from 'node:assert';
import { type Scenario, type ScenarioContext } from '../types';
import { UI } from '../ui';
import { runPanelFrame, waitForRow, watchFromTasks } from './runPanel';

async function waitForEvent(ctx: ScenarioContext, runId: string, event: string, timeoutMs = 60_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hit = ctx.runtime.eventLog(runId).find((e) => e.event === event);
    if (hit) {
      return hit.sequence;
    }
    if (Date.now() > deadline) {
      throw new Error(`${event} never reached the log of ${runId}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export const steerCancel: Scenario = {
  id: 'steer-cancel',
  title: 'Steering: cancel a live run from the run panel (confirmed), the panel shows the end',
  runtime: { eventDelayMs: 50 },
  async run(ctx) {
    const objective = 'Cancel me from the panel';
    const runId = await ctx.runtime.createSyntheticRun({
      events: 6,
      terminal: null,
      live: true,
      taskObjective: objective,
    });
    await watchFromTasks(ctx, objective);
    const frame = await runPanelFrame(ctx.workbench);
    await waitForRow(frame, 6);
    await frame.locator('#cancel-run').click();
    await ctx.workbench.clickDialogButton(UI.steering.cancelConfirm);
    const end = await waitForEvent(ctx, runId, 'run.cancelled');
    await waitForRow(frame, end);
    await ctx.shot('cancelled');
  },
};

export const steerApproveFromNotification: Scenario = {
  id: 'steer-approve-notification',
  title: 'Steering: a run starts waiting, Approve on the notification, the run goes on',
  runtime: { eventDelayMs: 50 },
  async run(ctx) {
    const objective = 'Approve my write';
    // The extension is running before the run asks: the notification is the "started waiting" one.
    await ctx.workbench.openContainer(UI.container);
    const runId = await ctx.runtime.createSyntheticRun({
      events: 3,
      terminal: 'completed',
      taskObjective: objective,
      approval: { tool: 'write_file', arguments: { path: 'report.md' } },
    });
    await watchFromTasks(ctx, objective);
    await ctx.workbench.waitForNotification(UI.steering.waitsNotification);
    await ctx.shot('notification');
    await ctx.workbench.clickNotificationButton(UI.steering.waitsNotification, UI.steering.approve);
    // Approve shows the whole call first; the note is one choice there.
    const { detail } = await ctx.workbench.dialogText(UI.steering.approveDialog);
    assert.ok(detail.includes('"path": "report.md"'), `the dialog does not show the arguments: ${detail}`);
    await ctx.workbench.clickDialogButton(UI.steering.approveWithNote);
    await ctx.workbench.answerInput(UI.steering.notePrompt, 'looks fine');
    const end = await waitForEvent(ctx, runId, 'run.completed');
    await waitForRow(await runPanelFrame(ctx.workbench), end);
    assert.ok(ctx.runtime.listApprovals({ runId })[0]?.status === 'approved');
  },
};

export const steerDenyFromNeedsYou: Scenario = {
  id: 'steer-deny-needs-you',
  title: 'Steering: Deny in the Needs You list, the skip is recorded in the timeline',
  runtime: { eventDelayMs: 50 },
  async run(ctx) {
    const objective = 'Deny my write';
    const runId = await ctx.runtime.createSyntheticRun({
      events: 3,
      terminal: 'completed',
      taskObjective: objective,
      approval: { tool: 'write_file', arguments: { path: 'notes.txt' } },
    });
    await ctx.workbench.openContainer(UI.container);
    const row = await ctx.workbench.treeRow(UI.steering.needsYouView, 'write_file');
    await ctx.shot('needs-you');
    await ctx.workbench.contextMenu(row, UI.steering.deny);
    await ctx.workbench.answerInput(UI.steering.notePrompt, 'not this file');
    await waitForEvent(ctx, runId, 'approval.resolved');
    const end = await waitForEvent(ctx, runId, 'run.completed');
    await watchFromTasks(ctx, objective);
    const frame = await runPanelFrame(ctx.workbench);
    await waitForRow(frame, end);
    const text = await frame.locator(UI.runPanelRow).allTextContents();
    assert.ok(
      text.some((t) => /Skipped/i.test(t)),
      'the timeline shows the skipped call',
    );
  },
};

export const steerFork: Scenario = {
  id: 'steer-fork',
  title: 'Steering: Fork from here with instructions, the new run opens and streams',
  runtime: { eventDelayMs: 20 },
  async run(ctx) {
    const objective = 'Fork me';
    await ctx.runtime.createSyntheticRun({ events: 8, terminal: 'completed', taskObjective: objective });
    await watchFromTasks(ctx, objective);
    const frame = await runPanelFrame(ctx.workbench);
    await waitForRow(frame, 9);
    await frame.locator(`${UI.runPanelRow}[data-sequence="4"]`).click();
    await frame.locator('#fork-from-here').click();
    await ctx.workbench.answerInput(UI.steering.forkPrompt, 'Now also count words.');
    await ctx.workbench.answerInput(UI.capPrompt, '');
    // The new run opens in a second panel, whose first rows are the copied events 1..4.
    const deadline = Date.now() + 60_000;
    while ((await ctx.workbench.editorTabs()).filter((t) => /^Run/.test(t)).length < 2) {
      if (Date.now() > deadline) {
        throw new Error(`no second run panel; tabs: ${(await ctx.workbench.editorTabs()).join(', ')}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    await waitForRow(await runPanelFrame(ctx.workbench), 5);
    await ctx.shot('forked');
  },
};

export const STEERING_SCENARIOS: Scenario[] = [
  steerCancel,
  steerApproveFromNotification,
  steerDenyFromNeedsYou,
  steerFork,
];
