// A rejected key (401) asks the user to sign in again once, however many requests fail with it.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { extensionApi, signInForTests } from './support';

describe('a rejected key', () => {
  it('prompts once to sign in again when several requests fail with 401', async () => {
    const api = await extensionApi();
    await signInForTests();
    // A key that is stored but no longer valid, as after a rotation on the server.
    await api.credentials.store(api.service.serviceUrl, 'revoked-key');
    await api.service.update();
    const before = api.reauth.promptCount;
    await Promise.all([
      vscode.commands.executeCommand('agentRuntime.createTask', { objective: 'rejected too' }),
      vscode.commands.executeCommand('agentRuntime.createTask', { objective: 'rejected' }),
      vscode.commands.executeCommand('agentRuntime.createTask', { objective: 'rejected again' }),
    ]);
    // Every command above has finished (and failed with 401) by now.
    assert.strictEqual(api.reauth.promptCount, before + 1);
    await signInForTests();
  });
});
