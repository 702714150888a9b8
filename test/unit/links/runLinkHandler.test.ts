// A run link whose panel cannot open (runpanel.js missing: a broken install) is not lost inside
// VS Code's URI handler: the user is told, and the log says why.
import * as assert from 'node:assert';
import type * as vscode from 'vscode';
import { registerRunLinkHandler } from '../../../src/links/runLinkHandler';
import * as stub from '../views/vscodeStub';

type UriHandler = { handleUri(uri: { authority: string; path: string; fragment: string }): void };

describe('the run link handler', () => {
  let handler: UriHandler | undefined;
  const shown: string[] = [];
  const logged: string[] = [];
  const log = {
    info: () => undefined,
    warn: () => undefined,
    error: (line: string) => void logged.push(line),
  } as unknown as vscode.LogOutputChannel;
  const target = stub.window as Record<string, unknown>;
  const patched = ['registerUriHandler', 'showErrorMessage'];
  let had: Record<string, unknown> = {};

  before(() => {
    had = Object.fromEntries(patched.filter((k) => k in target).map((k) => [k, target[k]]));
    Object.assign(target, {
      registerUriHandler: (h: UriHandler) => {
        handler = h;
        return { dispose: () => (handler = undefined) };
      },
      showErrorMessage: async (message: string) => void shown.push(message),
    });
  });
  after(() => {
    for (const k of patched) {
      delete target[k];
    }
    Object.assign(target, had);
  });

  it('tells the user and logs why when the run panel cannot open', () => {
    const incomplete = Object.assign(
      new Error('The Agent Runtime extension is incomplete: dist/runpanel.js is missing. Reinstall the extension.'),
      { code: 'agent_runtime_incomplete' },
    );
    const disposable = registerRunLinkHandler(() => {
      throw incomplete;
    }, log);
    try {
      assert.doesNotThrow(() =>
        handler?.handleUri({ authority: 'agent-runtime.agent-runtime', path: '/run/run_1', fragment: '' }),
      );
      assert.strictEqual(shown.length, 1, 'one error notification');
      assert.match(shown[0], /Reinstall the extension/);
      assert.strictEqual(logged.length, 1, 'one error line in the log');
      assert.match(logged[0], /runpanel\.js/);
    } finally {
      disposable.dispose();
    }
  });
});
