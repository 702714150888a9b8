// The README's pictures of steering, in the light and the dark theme: a run waits for
// approval; the "Needs You" list names it; the run panel shows its approval card beside the
// notification. Approving from the card then lets the run finish (the pictures are of a real
// flow, not a staged page).
import { type Scenario, type ScenarioContext } from '../types';
import { UI } from '../ui';
import { getRun, refreshView, TERMINAL, until } from './api';
import { docsShot, PICTURE_SETTINGS } from './docsImages';
import { runPanelFrame, waitForRow } from './runPanel';

async function approvalPictures(ctx: ScenarioContext, theme: string): Promise<void> {
  const objective = 'Write the release notes';
  await ctx.workbench.openContainer(UI.container);
  const runId = await ctx.runtime.createSyntheticRun({
    events: 3,
    terminal: 'completed',
    taskObjective: objective,
    approval: { tool: 'write_file', arguments: { path: 'RELEASE-NOTES.md', bytes: 2048 } },
  });
  await ctx.workbench.treeRow(UI.steering.needsYouView, 'write_file');
  await docsShot(ctx, `needs-you-${theme}`);
  await refreshView(ctx, 'tasks');
  const row = await ctx.workbench.treeRow(UI.tasksView, objective);
  await ctx.workbench.contextMenu(row, UI.menu.watchRun);
  const frame = await runPanelFrame(ctx.workbench);
  await frame.locator('#approval-card:not([hidden])').waitFor({ timeout: 30_000 });
  await ctx.workbench.waitForNotification(UI.steering.waitsNotification);
  await docsShot(ctx, `approval-card-${theme}`);
  await frame.locator('#approval-card button', { hasText: 'Approve' }).first().click();
  // The card's Approve shows the whole call in a dialog first.
  await ctx.workbench.dialogText(UI.steering.approveDialog);
  await ctx.workbench.clickDialogButton(UI.steering.approve);
  await until('the run to end', async () =>
    TERMINAL.has((await getRun(ctx.runtime, runId)).status) ? true : undefined,
  );
  const log = ctx.runtime.eventLog(runId);
  await waitForRow(frame, log[log.length - 1].sequence);
}

function themed(theme: 'light' | 'dark', colorTheme: string): Scenario {
  return {
    id: `steer-pictures-${theme}`,
    title: `Steering pictures in the ${colorTheme} theme: Needs You and the approval card`,
    runtime: { eventDelayMs: 50 },
    settings: { ...PICTURE_SETTINGS, 'workbench.colorTheme': colorTheme },
    run: (ctx) => approvalPictures(ctx, theme),
  };
}

export const STEERING_PICTURE_SCENARIOS: Scenario[] = [
  themed('light', 'Default Light Modern'),
  themed('dark', 'Default Dark Modern'),
];
