// Every refused steering action is answered: against a runtime that does not offer steering, a
// Cancel from the run panel and a second one from the command both tell the user so (the second
// used to be silent). Notifications are watched by wrapping vscode.window.showWarningMessage for
// this suite only (notify looks it up at each call). The refusal is remembered per service for
// the extension host's life, so this suite talks to the same runtime through an alias address
// (localhost instead of 127.0.0.1: a service of its own) and switches back afterwards.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { admin, extensionApi, signInForTests, testEnv, waitFor } from './support';

const warnings: string[] = [];
/** While set, the run panel's "Cancel this run?" modal is answered with this item. */
let answerModal: string | undefined;

type Show = (...args: unknown[]) => Thenable<unknown>;
const windowApi = vscode.window as unknown as { showWarningMessage: Show };

const aliasUrl = (): string => testEnv().baseUrl.replace('//127.0.0.1:', '//localhost:').replace(/\/+$/, '');

async function useBaseUrl(url: string): Promise<void> {
  const api = await extensionApi();
  await vscode.workspace.getConfiguration('agentRuntime').update('baseUrl', url, vscode.ConfigurationTarget.Workspace);
  await waitFor(`the address ${url} in use`, () => api.service.serviceUrl === url.replace(/\/+$/, ''));
}

describe('a runtime that does not offer steering (steer refused)', () => {
  let original: Show | undefined;
  let watching = false;
  let runId: string | undefined;
  let panel: { panel: vscode.WebviewPanel; onMessage(message: unknown): void } | undefined;

  before(async () => {
    await extensionApi();
    assert.notStrictEqual(
      aliasUrl(),
      testEnv().baseUrl.replace(/\/+$/, ''),
      'the runtime is not on 127.0.0.1: no alias address to use',
    );
    await useBaseUrl(aliasUrl());
    await signInForTests();
    original = windowApi.showWarningMessage;
    const wrapped: Show = (message, ...rest) => {
      const options = rest[0];
      const modal =
        typeof options === 'object' && options !== null && (options as vscode.MessageOptions).modal === true;
      if (modal && answerModal !== undefined) {
        return Promise.resolve(answerModal);
      }
      if (!modal) {
        warnings.push(String(message));
      }
      return (original as Show)(message, ...rest);
    };
    try {
      windowApi.showWarningMessage = wrapped;
      watching = windowApi.showWarningMessage === wrapped;
    } catch {
      // A read-only API object: the test below says why it cannot check.
    }
  });
  after(async () => {
    if (watching && original) {
      windowApi.showWarningMessage = original;
    }
    await useBaseUrl(testEnv().baseUrl);
  });
  afterEach(async () => {
    answerModal = undefined;
    await admin('/faults', {});
    panel?.panel.dispose();
    panel = undefined;
    // The run ends here whatever the test did; it may have ended already.
    if (runId !== undefined) {
      await fetch(`${testEnv().baseUrl}/__admin/runs/${runId}/end`, {
        method: 'POST',
        headers: { authorization: `Bearer ${testEnv().adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'cancelled' }),
      }).catch(() => undefined);
    }
    runId = undefined;
  });

  it('answers a Cancel from the run panel and a second Cancel from the command, both with a message', async () => {
    assert.ok(watching, 'the notifications could not be watched (the API object is read-only)');
    const api = await extensionApi();
    runId = ((await admin('/runs', { events: 2, terminal: null, live: true })) as { run_id: string }).run_id;
    const id = runId;
    await admin('/faults', { noSteering: true });
    await vscode.commands.executeCommand('agentRuntime.watchRun', id);
    const panels = (
      api.runPanels as unknown as {
        panels: Map<string, { panel: vscode.WebviewPanel; onMessage(message: unknown): void }>;
      }
    ).panels;
    panel = await waitFor('the run panel', () => panels.get(id));
    const refused = /does not offer cancelling runs/;
    const before = warnings.filter((w) => refused.test(w)).length;

    // The panel's Cancel button: the webview's message, then the command's confirmation.
    answerModal = 'Cancel Run';
    panel.onMessage({ type: 'runAction', action: 'cancel' });
    await waitFor('the first refusal to be told', () => warnings.filter((w) => refused.test(w)).length === before + 1);

    // Asked again (a keybinding, automation): told again, not silently dropped.
    const again = await vscode.commands.executeCommand('agentRuntime.cancelRun', { runId: id, confirm: false });
    assert.strictEqual(again, undefined);
    await waitFor('the second refusal to be told', () => warnings.filter((w) => refused.test(w)).length === before + 2);
  });
});
