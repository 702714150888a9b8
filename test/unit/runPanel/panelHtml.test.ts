// The panel's HTML: a CSP that allows no network and only the nonce'd script.
import * as assert from 'node:assert';
import { isRunId } from '../../../src/runEvents/ids';
import { RunModel } from '../../../src/runEvents/runModel';
import { contentSecurityPolicy, panelHtml } from '../../../src/runPanel/panelHtml';
import { parsePersistedState } from '../../../src/runPanel/persistedState';
import { parseWebviewMessage } from '../../../src/runPanel/protocol';
import { recordedRun } from '../webview/fixtures';

describe('run panel HTML and messages', () => {
  it('allows nothing by default, scripts only by nonce, styles, fonts and images only from the extension', () => {
    const csp = contentSecurityPolicy('vscode-webview://abc', 'N0nce');
    assert.strictEqual(
      csp,
      "default-src 'none'; script-src 'nonce-N0nce'; style-src vscode-webview://abc; font-src vscode-webview://abc; img-src vscode-webview://abc",
    );
    assert.ok(!/unsafe|https?:|\*/.test(csp));
  });

  const parts = {
    cspSource: 'vscode-webview://abc',
    scriptUri: 's.js',
    styleUri: 'p.css',
    codiconUri: 'c.css',
    title: 'Run <run_1>',
  };
  const nonceOf = (html: string) => /<script nonce="([^"]+)" src="s\.js">/.exec(html)?.[1];

  it('loads exactly one script, carrying the nonce the CSP names', () => {
    const html = panelHtml(parts);
    const nonce = nonceOf(html);
    assert.ok(nonce, 'the script has a nonce');
    assert.deepStrictEqual(html.match(/<script[^>]*>/g), [`<script nonce="${nonce}" src="s.js">`]);
    assert.ok(html.includes(`nonce-${nonce}`), 'the CSP allows that nonce');
    assert.ok(html.includes('<title>Run &lt;run_1&gt;</title>'));
  });

  it('makes a fresh unguessable nonce for every page', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => nonceOf(panelHtml(parts))));
    assert.strictEqual(nonces.size, 50, 'no nonce repeats');
    for (const nonce of nonces) {
      assert.ok(nonce && Buffer.from(nonce, 'base64').length >= 16, `at least 128 bits: ${nonce}`);
    }
  });

  it('accepts run ids with the run_ prefix only', () => {
    assert.ok(isRunId('run_abc-1_2'));
    for (const bad of ['', 'task_1', 'run_', 'run_a/b', 'run_a b', ' run_a', 42]) {
      assert.ok(!isRunId(bad), String(bad));
    }
  });

  it('refuses malformed webview messages', () => {
    assert.deepStrictEqual(parseWebviewMessage({ type: 'openArtifact', artifactId: 'art_1' }), {
      type: 'openArtifact',
      artifactId: 'art_1',
    });
    assert.strictEqual(parseWebviewMessage({ type: 'openArtifact' }), undefined);
    assert.strictEqual(parseWebviewMessage({ type: 'eval', code: '1' }), undefined);
    assert.strictEqual(parseWebviewMessage(null), undefined);
  });

  it('restores saved state with its snapshot and drops one that disagrees with lastSequence', () => {
    const model = new RunModel('run_1');
    model.apply(recordedRun({ steps: 2, terminal: null }));
    const snapshot = JSON.parse(JSON.stringify(model.snapshot()));
    const good = parsePersistedState({ runId: 'run_1', lastSequence: model.lastSequence, snapshot });
    assert.strictEqual(good?.snapshot?.recent.length, model.totalEvents);
    const mismatched = parsePersistedState({ runId: 'run_1', lastSequence: 3, snapshot });
    assert.deepStrictEqual(mismatched, { runId: 'run_1', lastSequence: 3, objective: undefined });
    assert.strictEqual(parsePersistedState({ runId: 'nope', lastSequence: 1 }), undefined);
    assert.strictEqual(parsePersistedState(undefined), undefined);
    const outOfOrder = { ...snapshot, recent: [...snapshot.recent].reverse() };
    assert.strictEqual(
      parsePersistedState({ runId: 'run_1', lastSequence: model.lastSequence, snapshot: outOfOrder })?.snapshot,
      undefined,
    );
  });
});
