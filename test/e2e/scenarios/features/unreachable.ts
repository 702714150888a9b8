// A service that cannot be reached: each view shows its "cannot be reached" welcome with Retry
// and Open Settings, and the status bar says offline; nothing is shown as an error toast.
import { type Scenario } from '../types';
import { UI } from '../ui';

export const unreachableWelcome: Scenario = {
  id: 'unreachable-welcome',
  title:
    'an unreachable service shows the "cannot be reached" welcome (Retry, Open Settings) and an offline status bar',
  auth: 'env',
  // Port 9 (discard) on loopback: nothing listens, so every request is refused at once.
  settings: { 'agentRuntime.baseUrl': 'http://127.0.0.1:9' },
  async run({ workbench, page, shot }) {
    await workbench.openContainer(UI.container);
    for (const name of [UI.filesView, UI.tasksView]) {
      const view = await workbench.expandView(name);
      const welcome = view.locator('.welcome-view-content', { hasText: 'cannot be reached' });
      await welcome.waitFor({ timeout: workbench.timeoutMs });
      for (const button of ['Retry', 'Open Settings']) {
        await welcome.locator('.monaco-button', { hasText: button }).first().waitFor({ timeout: workbench.timeoutMs });
      }
    }
    await page.locator('.statusbar-item', { hasText: 'offline' }).first().waitFor({ timeout: workbench.timeoutMs });
    await shot('unreachable');
  },
};
