// The extension is present in the extension host, activates, registers its commands, and its
// log command runs.
import * as assert from 'node:assert';
import * as vscode from 'vscode';

const EXTENSION_ID = 'agent-runtime.agent-runtime';

interface Manifest {
  contributes?: { commands?: { command: string }[] };
}

describe('smoke: the extension in a real extension host', () => {
  it('is present and activates', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    await extension.activate();
    assert.strictEqual(extension.isActive, true);
  });

  it('registers every command its manifest contributes', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    await extension.activate();
    const contributed = ((extension.packageJSON as Manifest).contributes?.commands ?? []).map((c) => c.command);
    assert.ok(contributed.includes('agentRuntime.showLog'), 'agentRuntime.showLog is not contributed');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepStrictEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('runs agentRuntime.showLog (the "Agent Runtime" output channel)', async () => {
    await vscode.commands.executeCommand('agentRuntime.showLog');
  });

  it('is pointed at the test runtime by the workspace settings', () => {
    const baseUrl = process.env.AGENT_RUNTIME_TEST_BASE_URL;
    assert.ok(baseUrl, 'AGENT_RUNTIME_TEST_BASE_URL is not set by the runner');
    assert.strictEqual(vscode.workspace.getConfiguration('agentRuntime').get('baseUrl'), baseUrl);
  });
});
