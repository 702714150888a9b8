// Signing in through the input box from the Files view's welcome content; the empty welcome follows.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Scenario } from '../types';
import { UI } from '../ui';

export const signIn: Scenario = {
  id: 'sign-in',
  title: 'sign in through the password input box; the views load and the key is stored nowhere on disk',
  auth: 'none',
  async run({ workbench, runtime, session, shot }) {
    await workbench.openContainer(UI.container);
    const files = await workbench.expandView(UI.filesView);
    const signInButton = files.locator('.welcome-view-content .monaco-button', { hasText: 'Sign In' }).first();
    await signInButton.waitFor({ timeout: workbench.timeoutMs });
    await shot('signed-out');
    await signInButton.click();
    const { password } = await workbench.answerInput(UI.apiKeyPrompt, runtime.apiKey);
    assert.strictEqual(password, true, 'the API key input box must hide what is typed');
    // Signed in with no files yet: the Files view shows its empty welcome content.
    await files.locator('.welcome-view-content', { hasText: 'No files yet' }).waitFor({ timeout: workbench.timeoutMs });
    await shot('signed-in');
    for (const file of [
      path.join(session.run.userDataDir, 'User', 'settings.json'),
      path.join(session.run.workspace, '.vscode', 'settings.json'),
    ]) {
      if (fs.existsSync(file)) {
        assert.ok(!fs.readFileSync(file, 'utf8').includes(runtime.apiKey), `the key was written to ${file}`);
      }
    }
  },
};
