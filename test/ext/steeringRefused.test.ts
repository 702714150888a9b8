// Every refused steering action is answered: against a runtime that does not offer steering, a
// Cancel from the run panel and a second one from the command both tell the user so (the second
// used to be silent). Notifications are watched by wrapping vscode.window.showWarningMessage when
// this file loads: the extension's `notify` takes the function when it activates, which is later
// (the first suite's extensionApi()), and its modal confirmation reads it at each call.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { EXTENSION_ID, extensionApi, signInForTests, testEnv, waitFor } from './support';

const warnings: string[] = [];
/** While set, the run panel's "Cancel this run?" modal is answered with this item. */
let answerModal: string | undefined;
const activeBeforeWatching = vscode.extensions.getExtension(EXTENSION_ID)?.isActive ?? false;
let watching = false;
try {
  const original = vscode.window.showWarningMessage;
  const wrapped = (message: string, ...rest: unknown[]): Thenable<unknown> => {
    const options = rest[0];
    const modal = typeof options === 'object' && options !== null && (options as vscode.MessageOptions).modal === true;
    if (modal && answerModal !== undefined) return Promise.resolve(answerModal);
    if (!modal) warnings.push(message);
    return (original as (...args: unknown[]) => Thenable<unknown>)(message, ...rest);
  };
  (vscode.window as { showWarningMessage: unknown }).showWarningMessage = wrapped;
  watching = vscode.window.showWarningMessage === (wrapped as unknown);
} catch {
  // A read-only API object: the test below says why it cannot check.
}

async function admin(path: string, body: unknown): Promise<unknown> {
  const { baseUrl, adminKey } = testEnv();
  const res = await fetch(`${baseUrl}/__admin${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.ok(res.ok, `admin ${path}: ${res.status}`);
  return res.json().catch(() => undefined);
}

describe('a runtime that does not offer steering (steer refused)', () => {
  before(async () => {
    await extensionApi();
    await signInForTests();
  });
  afterEach(async () => {
    answerModal = undefined;
    await admin('/faults', {});
  });

  it('answers a Cancel from the run panel and a second Cancel from the command, both with a message', async () => {
    assert.ok(watching && !activeBeforeWatching, 'the notifications could not be watched (the extension was active before this file loaded, or the API is read-only)');
    const api = await extensionApi();
    const { run_id: runId } = (await admin('/runs', { events: 2, terminal: null, live: true })) as { run_id: string };
    await admin('/faults', { noSteering: true });
    await vscode.commands.executeCommand('agentRuntime.watchRun', runId);
    const panels = (api.runPanels as unknown as { panels: Map<string, { onMessage(message: unknown): void }> }).panels;
    const panel = await waitFor('the run panel', () => panels.get(runId));
    const refused = /does not offer cancelling runs/;
    const before = warnings.filter((w) => refused.test(w)).length;

    // The panel's Cancel button: the webview's message, then the command's confirmation.
    answerModal = 'Cancel Run';
    panel.onMessage({ type: 'cancel' });
    await waitFor('the first refusal to be told', () => warnings.filter((w) => refused.test(w)).length === before + 1);

    // Asked again (a keybinding, automation): told again, not silently dropped.
    const again = await vscode.commands.executeCommand('agentRuntime.cancelRun', { runId, confirm: false });
    assert.strictEqual(again, undefined);
    await waitFor('the second refusal to be told', () => warnings.filter((w) => refused.test(w)).length === before + 2);
  });
});
