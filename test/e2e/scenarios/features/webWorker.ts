// The web build (package.json "browser") in code-server's web worker extension host, as in VS Code
// for the Web: sign in through the input box, browse a task the service already has, and see that
// it really ran in the worker: the extension's log says `typeof process` is undefined there, and
// the requests reached the service as a browser sends them (CORS preflights, which Node's client
// never sends). A command the web build leaves out answers with its sentence.
import * as assert from 'node:assert';
import { extensionId } from '../../harness/paths';
import { type Scenario } from '../types';
import { UI } from '../ui';
import { createTask, refreshView, until } from './api';

const OBJECTIVE = 'Summarise the quarterly numbers in the browser';

export const webWorker: Scenario = {
  id: 'web-worker',
  title: 'the web build in the web worker host: sign in, browse tasks, no Node there, CORS preflights',
  auth: 'none',
  settings: { 'remote.extensionKind': { [extensionId()]: ['web'] } },
  async run({ workbench, page, runtime, runtimeLog, shot }) {
    await createTask(runtime, OBJECTIVE);
    await workbench.openContainer(UI.container);
    const files = await workbench.expandView(UI.filesView);
    const signInButton = files.locator('.welcome-view-content .monaco-button', { hasText: 'Sign In' }).first();
    await signInButton.waitFor({ timeout: workbench.timeoutMs });
    await signInButton.click();
    await workbench.answerInput(UI.apiKeyPrompt, runtime.apiKey);
    await files.locator('.welcome-view-content', { hasText: 'No files yet' }).waitFor({ timeout: workbench.timeoutMs });

    await refreshView({ workbench, runtimeLog }, 'tasks');
    await workbench.treeRow(UI.tasksView, OBJECTIVE);
    await shot('tasks-in-the-browser');

    // The negative control: the web build, in a worker without Node (the Node build logs no such line).
    await workbench.runCommand(UI.commands.showLog);
    // The activation line is soon scrolled away by request lines: the Output view's filter keeps it.
    const filter = page.locator('.part.panel input[placeholder^="Filter"]').first();
    await filter.fill('VS Code for the Web');
    // (The line wraps in the Output view: the words may be split across its rows.)
    const log = await workbench.waitForOutput(/activated\s*for\s*VS\s*Code/);
    assert.match(log, /typeof\s*process\s*is\s*undefined/, log);
    // A browser asks before an authorised request to another origin; Node's client never does.
    await until('a CORS preflight from the browser', async () =>
      runtimeLog.some((line) => /^OPTIONS \/v1\/tasks\S* 204 /.test(line)) ? true : undefined,
    );

    await workbench.runCommand(UI.commands.uploadAndCreateTask);
    await workbench.waitForNotification(/not available in VS Code for the Web/);
    await shot('left-out-command');
  },
};
