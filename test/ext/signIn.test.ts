// Sign In checks the key against the service, stores it in SecretStorage, and Sign Out forgets it.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { extensionApi, signInForTests, testEnv } from './support';

describe('sign in and sign out', () => {
  it('points at the runtime from the workspace settings', async () => {
    const api = await extensionApi();
    assert.strictEqual(api.service.serviceUrl, testEnv().baseUrl);
  });

  it('stores an accepted key in SecretStorage and reports signed in', async () => {
    const api = await extensionApi();
    await signInForTests();
    assert.strictEqual(api.service.isSignedIn, true);
    assert.strictEqual(api.service.credentialSource, 'secretStorage');
  });

  it('refuses a key the server rejects and stores nothing', async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('agentRuntime.signOut');
    assert.strictEqual(api.service.isSignedIn, false);
    const ok = await vscode.commands.executeCommand<boolean>('agentRuntime.signIn', { apiKey: 'not-the-key' });
    assert.strictEqual(ok, false);
    assert.strictEqual(api.service.isSignedIn, false);
    await signInForTests();
    assert.strictEqual(api.service.isSignedIn, true);
  });

  it('signs out, forgetting the stored key', async () => {
    const api = await extensionApi();
    await signInForTests();
    await vscode.commands.executeCommand('agentRuntime.signOut');
    assert.strictEqual(api.service.isSignedIn, false);
    await signInForTests(); // leave the next suites signed in
  });
});
