// A run panel opens while the agentRuntime.baseUrl setting is unusable (plain http to another
// host), and says why in its connection line instead of failing to open.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { ConnectionView } from '../../src/runPanel/protocol';
import { extensionApi, signInForTests, testEnv, waitFor } from './support';

describe('a run panel with an unusable base URL', () => {
  before(async () => {
    await extensionApi();
    await signInForTests();
  });
  after(async () => {
    const api = await extensionApi();
    await vscode.workspace
      .getConfiguration('agentRuntime')
      .update('baseUrl', testEnv().baseUrl, vscode.ConfigurationTarget.Workspace);
    await waitFor(
      'the runtime address in use again',
      () => api.service.serviceUrl === testEnv().baseUrl.replace(/\/+$/, ''),
    );
  });

  it('opens and shows a clear message about the address', async () => {
    const api = await extensionApi();
    await vscode.workspace
      .getConfiguration('agentRuntime')
      .update('baseUrl', 'http://agents.example.com', vscode.ConfigurationTarget.Workspace);
    await waitFor('the unusable address to be taken', () => api.service.serviceUrl === 'http://agents.example.com');
    assert.throws(() => api.service.client, /plain http/, 'the settings problem is what the client reports');

    await vscode.commands.executeCommand('agentRuntime.watchRun', 'run_unusable_base_url');
    const panels = (
      api.runPanels as unknown as {
        panels: Map<string, { panel: vscode.WebviewPanel; session: { connectionState: ConnectionView } }>;
      }
    ).panels;
    const panel = await waitFor('the run panel to open', () => panels.get('run_unusable_base_url'));
    // Closed whatever the asserts say: a panel left open would follow the next suites around.
    try {
      const failed = await waitFor('the panel to say why', () => {
        const state = panel.session.connectionState;
        return state.state === 'failed' ? state : undefined;
      });
      assert.match(
        failed.message,
        /plain http:\/\/ to agents\.example\.com/,
        `the message names the address problem: ${failed.message}`,
      );
      assert.strictEqual(panels.get('run_unusable_base_url'), panel, 'the panel stays open');
    } finally {
      panel.panel.dispose();
    }
  });
});
