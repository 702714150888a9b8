// Spend under control in code-server: a task created with a 0.05 USD cap; its run panel's meter
// moves as the run spends; the service pauses the run at the cap, Needs You lists it, and
// Raise the Cap... (the whole truth, then a typed amount) lets it complete. A second run is
// stopped at its cap with Stop the Run. The shot at the pause is the README's picture of
// "Spend and budgets". Every wait is on a condition (the server's status, a row, a dialog).
import * as assert from 'node:assert';
import { type Frame } from 'playwright-core';
import { type RuntimeHandle } from '../../../runtime';
import { type Scenario } from '../types';
import { UI } from '../ui';
import { getRun, listTasks, TERMINAL, until } from './api';
import { docsShot, PICTURE_SETTINGS } from './docsImages';
import { runPanelFrame } from './runPanel';

const OBJECTIVE = 'Summarise the quarterly report';
const STOPPED = 'Count the words again';

// The browser side is plain JavaScript text: the tests compile without DOM types.
const WATCH_METER = `(() => {
  const seen = (window.__meterTexts = window.__meterTexts || []);
  const note = () => {
    const text = document.querySelector('#spend-meter .spend-text');
    const value = text ? text.textContent : '';
    if (value && seen[seen.length - 1] !== value) seen.push(value);
  };
  note();
  new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

/** Every text the meter showed since the watch began, in order (each change once). */
async function meterTexts(frame: Frame): Promise<string[]> {
  return frame.evaluate<string[]>('window.__meterTexts || []');
}

const statusOf = async (runtime: RuntimeHandle, runId: string): Promise<string> =>
  (await getRun(runtime, runId)).status;

export const spendCap: Scenario = {
  id: 'spend-cap',
  title: 'Spend: a 0.05 USD cap, the meter moving, the pause in Needs You, Raise the Cap, and Stop the Run',
  files: { 'report.md': '# Quarterly report\n\nRevenue grew.\n\n## Costs\n\nThey fell.\n' },
  // Paced so that the meter is seen to move while the panel is open.
  runtime: { eventDelayMs: 150 },
  settings: { ...PICTURE_SETTINGS, 'explorer.autoReveal': false },
  async run(ctx) {
    const { workbench, runtime } = ctx;
    const row = await workbench.explorerRow('report.md');
    await workbench.contextMenu(row, UI.menu.uploadAndAttach);
    await workbench.answerInput(UI.objectivePrompt, OBJECTIVE);
    await workbench.answerInput(UI.capPrompt, '0.05');
    await workbench.clickNotificationButton(UI.spend.created, UI.menu.watchRun);
    const frame = await runPanelFrame(workbench);
    await frame.locator('#spend-meter:not([hidden])').waitFor({ timeout: 60_000 });
    await frame.evaluate(WATCH_METER);

    // The pause: the server says so, Needs You lists the run, the meter is full.
    const runId = await until('the run to wait at its cap', async () => {
      const task = (await listTasks(runtime)).find((t) => t.objective === OBJECTIVE);
      return task?.run_id && (await statusOf(runtime, task.run_id)) === 'awaiting_budget' ? task.run_id : undefined;
    });
    await workbench.openContainer(UI.container);
    const atCap = await workbench.treeRow(UI.steering.needsYouView, UI.spend.atCapRow(OBJECTIVE));
    await until('the meter at the cap', async () =>
      (await meterTexts(frame)).some((text) => /of 0\.05 USD, 1\d\d %/.test(text)) ? true : undefined,
    );
    await workbench.waitForNotification(UI.spend.atCapNotification);
    await docsShot(ctx, 'spend-cap');

    // Raise the Cap...: the whole truth first, then the typed amount.
    await workbench.contextMenu(atCap, UI.spend.raiseCap);
    const { detail } = await workbench.dialogText(UI.spend.atCapDialog);
    assert.match(detail, /Spent 0\.0[5-9] USD of its cap of 0\.05 USD\./, detail);
    await workbench.clickDialogButton(UI.spend.raiseCap);
    await workbench.answerInput(UI.spend.raisePrompt, '1.00');
    await until('the run to complete', async () =>
      (await statusOf(runtime, runId)) === 'completed' ? true : undefined,
    );
    await until('the meter to move past the pause', async () => {
      const texts = await meterTexts(frame);
      return texts.some((text) => /of 1\.00 USD/.test(text)) ? texts : undefined;
    });
    assert.ok(new Set(await meterTexts(frame)).size >= 2, 'the meter moved');

    // A second run, stopped at its cap: started here, so the window follows it and Needs You
    // reloads when its status changes (no wait for a poll).
    await workbench.runCommand(UI.commands.createTask);
    await workbench.answerInput(UI.objectivePrompt, STOPPED);
    await workbench.answerInput(UI.capPrompt, '0.02');
    const stoppedId = await until('the second run at its cap', async () => {
      const task = (await listTasks(runtime)).find((t) => t.objective === STOPPED);
      return task?.run_id && (await statusOf(runtime, task.run_id)) === 'awaiting_budget' ? task.run_id : undefined;
    });
    const stoppedRow = await workbench.treeRow(UI.steering.needsYouView, UI.spend.atCapRow(STOPPED));
    await workbench.contextMenu(stoppedRow, UI.spend.stopRun);
    await workbench.dialogText(UI.spend.atCapDialog);
    await workbench.clickDialogButton(UI.spend.stopRun);
    await until('the second run to be cancelled', async () => {
      const status = await statusOf(runtime, stoppedId);
      return TERMINAL.has(status) ? status : undefined;
    }).then((status) => assert.strictEqual(status, 'cancelled'));
    await ctx.shot('stopped');
  },
};
