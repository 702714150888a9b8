// Scenarios the current extension supports: it is installed and activates in the workbench,
// its activity-bar container shows its two views, and its log command opens the log.
import * as assert from 'node:assert';
import { type Scenario } from './types';
import { UI } from './ui';

const workbenchLoads: Scenario = {
  id: 'workbench-loads',
  title: 'the workbench loads with the extension installed and activated',
  async run({ workbench, shot }) {
    await workbench.activityItem(UI.container).waitFor({ timeout: workbench.timeoutMs });
    await shot('workbench');
    // Opening a view of the extension activates it (onView); the running-extensions editor proves it.
    await workbench.openContainer(UI.container);
    await workbench.runCommand('Developer: Show Running Extensions');
    const row = await workbench.runningExtensionRow('Agent Runtime');
    assert.match(await row.innerText(), /Agent Runtime/);
    await shot('running-extensions');
  },
};

const containerAndViews: Scenario = {
  id: 'activity-bar-container',
  title:
    'the "Agent Runtime" activity-bar container shows its views: Needs You, Files, Tasks, Memory, Tools, Connectors, Webhooks',
  async run({ workbench, shot }) {
    await workbench.openContainer(UI.container);
    assert.strictEqual((await workbench.sidebarTitle()).toLowerCase(), UI.container.toLowerCase());
    // Needs You shows once the extension has set agentRuntime.signedIn (it is signed in through
    // the environment here): wait for every view before reading their order.
    const views = [UI.steering.needsYouView, UI.filesView, UI.tasksView, ...UI.agentViews];
    for (const name of views) {
      await workbench.view(name).waitFor({ timeout: workbench.timeoutMs });
    }
    assert.deepStrictEqual(await workbench.viewNames(), views);
    await shot('container');
  },
};

const showLog: Scenario = {
  id: 'show-log',
  title: 'the "Agent Runtime: Show Log" command opens the log',
  async run({ workbench, shot }) {
    await workbench.runCommand(UI.commands.showLog);
    // The editor renders spaces as no-break spaces: match them with \s.
    const text = await workbench.waitForOutput(/Agent\sRuntime\s\S+\sactivated/);
    assert.match(text, /Agent Runtime \d+\.\d+\.\d+ activated/);
    await shot('log');
  },
};

export const CURRENT_SCENARIOS: Scenario[] = [workbenchLoads, containerAndViews, showLog];
