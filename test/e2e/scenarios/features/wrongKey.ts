// A wrong API key (handed over in the environment) prompts the user once, however many
// requests fail, and signing in with the right key recovers.
import * as assert from 'node:assert';
import { type Scenario } from '../types';
import { UI } from '../ui';
import { until } from './api';

const SIGN_IN_AGAIN = /sign in|API key/i;
const unauthorised = (log: string[]): number => log.filter((line) => /^\S+ \/v1\/\S* 401 /.test(line)).length;

export const wrongKeyPromptsOnce: Scenario = {
  id: 'wrong-key-prompts-once',
  title: 'a wrong API key prompts once, then signing in recovers',
  auth: { wrongKey: 'definitely-not-the-key' },
  async run({ workbench, runtime, runtimeLog, shot }) {
    await workbench.openContainer(UI.container);
    await workbench.waitForNotification(SIGN_IN_AGAIN);
    await shot('prompted');
    // More failing requests must not add prompts: wait until the server has refused them.
    const before = unauthorised(runtimeLog);
    await workbench.runCommand(UI.commands.refreshFiles);
    await workbench.runCommand(UI.commands.refreshTasks);
    await until('the refreshes to be refused', async () => (unauthorised(runtimeLog) >= before + 2 ? true : undefined));
    assert.strictEqual(await workbench.notificationToasts(SIGN_IN_AGAIN).count(), 1, 'prompted more than once');
    assert.strictEqual(await workbench.quickInput.isVisible(), false, 'an input box opened by itself');

    await workbench.clickNotificationButton(SIGN_IN_AGAIN, 'Sign In');
    await workbench.answerInput(UI.apiKeyPrompt, runtime.apiKey);
    const files = await workbench.expandView(UI.filesView);
    await files.locator('.welcome-view-content', { hasText: 'No files yet' }).waitFor({ timeout: workbench.timeoutMs });
    await shot('recovered');
  },
};
