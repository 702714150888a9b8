// A run at its spending cap: it shows in Needs You beside the approvals; Raise the Cap raises it
// (the run goes on and completes), Stop the Run cancels it; a cap raised meanwhile elsewhere is
// told, not raised again, and a 409 re-reads the run. The person's questions are answered through
// the test run's arguments (trusted automation), and what they would have seen is checked.
import * as assert from 'node:assert';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunRecord } from '../../src/api/types';
import { admin, extensionApi, suiteWithService, waitFor } from './support';

const CAP = { amount: '0.02', currency: 'USD' };

describe('budgets: a run at its cap waits for a person', () => {
  const client = suiteWithService();

  /** A task of the built-in agent capped at CAP; resolves once its run waits at the cap. */
  async function runAtCap(objective: string): Promise<string> {
    const task = await client.createTask({ objective, budget: CAP });
    const runId = task.run_id as string;
    await waitFor('the run to wait at its cap', async () => (await client.getRun(runId)).status === 'awaiting_budget');
    return runId;
  }

  /** The row as the bundled extension made it (its classes are not this module's). */
  type AtCapRow = vscode.TreeItem & { run: RunRecord };

  async function needsYouRow(runId: string): Promise<AtCapRow> {
    const api = await extensionApi();
    return waitFor('the run in Needs You', async () => {
      await api.steering.atCap.refresh();
      const rows: vscode.TreeItem[] = api.steering.view.getChildren();
      return rows.find((row) => row.contextValue === 'runAtCap' && (row as AtCapRow).run?.id === runId) as
        AtCapRow | undefined;
    });
  }

  it('shows in Needs You with what it spent; Raise the Cap lets it complete', async function () {
    this.timeout(60_000);
    const runId = await runAtCap('Capped and raised');
    const row = await needsYouRow(runId);
    assert.match(String(row.description), /spent 0\.0[2-9] USD of its cap of 0\.02 USD/);
    assert.strictEqual(row.contextValue, 'runAtCap');
    const api = await extensionApi();
    assert.ok((api.steering.view.view.badge?.value ?? 0) >= 1, 'the badge counts it');

    const asked = api.budgets.askedInTests.length;
    const raised = await vscode.commands.executeCommand<RunRecord>('agentRuntime.raiseCap', {
      runId,
      amount: '1.00',
    });
    assert.deepStrictEqual(raised?.budget, { amount: '1.00', currency: 'USD' });
    const shown = api.budgets.askedInTests.slice(asked).find((q) => q.kind === 'atCap');
    assert.ok(shown, 'the person was shown the run at its cap');
    const text = shown.lines.join('\n');
    assert.match(text, /Task: Capped and raised/);
    assert.match(text, /Spent 0\.0[2-9] USD of its cap of 0\.02 USD\./);
    assert.match(text, /Since it started, steps: 1, tool calls: \d+\./);
    assert.match(text, /Step step_1 · /);
    await waitFor('the run to complete', async () => (await client.getRun(runId)).status === 'completed', 30_000);
    await waitFor('the row to go', async () => {
      await api.steering.atCap.refresh();
      return !api.steering.atCap.find(runId);
    });
  });

  it('Stop the Run cancels it', async function () {
    this.timeout(60_000);
    const runId = await runAtCap('Capped and stopped');
    await needsYouRow(runId);
    const stopped = await vscode.commands.executeCommand<RunRecord>('agentRuntime.stopRunAtCap', {
      runId,
      confirm: false,
    });
    assert.strictEqual(stopped?.status, 'cancelled');
    assert.strictEqual((await client.getRun(runId)).status, 'cancelled');
  });

  it('a cap raised in another window while the person typed is told and not raised again', async function () {
    this.timeout(60_000);
    // An attachment makes the run cost more than its first raise: it goes on, and pauses again.
    const file = await client.uploadBytes(new TextEncoder().encode('# Notes\n\nSome words to count.\n'), {
      filename: `cap-${Date.now()}.md`,
      purpose: 'task_input',
    });
    const task = await client.createTask({
      objective: 'Raised elsewhere',
      attachments: [{ type: 'document', fileId: file.id }],
      budget: CAP,
    });
    const runId = task.run_id as string;
    await waitFor('the run to wait at its cap', async () => (await client.getRun(runId)).status === 'awaiting_budget');
    await needsYouRow(runId);
    type Show = (...args: unknown[]) => Thenable<unknown>;
    const windowApi = vscode.window as unknown as { showWarningMessage: Show; showInputBox: Show };
    const originalWarn = windowApi.showWarningMessage;
    const originalInput = windowApi.showInputBox;
    let typedIn = false;
    try {
      // The person answers the dialog; while they type, another window raises the cap.
      windowApi.showWarningMessage = (message, ...rest) => {
        const options = rest[0] as vscode.MessageOptions | undefined;
        return options?.modal === true ? Promise.resolve('Raise the Cap...') : originalWarn(message, ...rest);
      };
      windowApi.showInputBox = async () => {
        typedIn = true;
        await client.raiseBudget(runId, { amount: '0.05', currency: 'USD' }, `another-window-${runId}`);
        await waitFor('the run to pause again', async () => (await client.getRun(runId)).status === 'awaiting_budget');
        return '5.00';
      };
      if (windowApi.showInputBox === originalInput) {
        this.skip(); // a read-only API object: nothing to answer with
      }
      const answer = await vscode.commands.executeCommand<RunRecord>('agentRuntime.raiseCap', { runId });
      assert.ok(typedIn, 'the person was asked for the amount');
      assert.deepStrictEqual(answer?.budget, { amount: '0.05', currency: 'USD' }, 'told what the server now says');
      assert.deepStrictEqual(
        (await client.getRun(runId)).budget,
        { amount: '0.05', currency: 'USD' },
        'not raised again',
      );
    } finally {
      windowApi.showWarningMessage = originalWarn;
      windowApi.showInputBox = originalInput;
      await client.cancelRun(runId).catch(() => undefined);
    }
  });

  it('an amount not above the cost is refused before anything is sent', async function () {
    this.timeout(60_000);
    const runId = await runAtCap('Raised too little');
    await needsYouRow(runId);
    await vscode.commands.executeCommand('agentRuntime.raiseCap', { runId, amount: '0.01' });
    const now = await client.getRun(runId);
    assert.strictEqual(now.status, 'awaiting_budget');
    assert.deepStrictEqual(now.budget, CAP);
    await client.cancelRun(runId).catch(() => undefined);
  });

  it('a 409 from the server re-reads the run and raises nothing', async function () {
    this.timeout(60_000);
    const runId = await runAtCap('Refused by the server');
    await needsYouRow(runId);
    await admin('/faults', { budgetTooLowNext: { count: 1 } });
    try {
      const answer = await vscode.commands.executeCommand<RunRecord>('agentRuntime.raiseCap', {
        runId,
        amount: '1.00',
      });
      assert.strictEqual(answer?.id, runId, 'the run as re-read after the 409');
      assert.strictEqual(answer?.status, 'awaiting_budget');
      assert.deepStrictEqual((await client.getRun(runId)).budget, CAP);
    } finally {
      await admin('/faults', {});
      await client.cancelRun(runId).catch(() => undefined);
    }
  });
});

describe('budgets: the document of what a run at its cap spent on', () => {
  it('is titled for a person and opens as plain text, not JSON', async () => {
    // Its own scheme: the extension's provider of the real one stays alone on it.
    const { WholeCallDocuments } = await import('../../src/steering/approvalReview');
    const documents = new WholeCallDocuments('agent-runtime-spend-test');
    try {
      const doc = await documents.showTitled(
        'Spend of Summarise a/b since the last decision',
        'Task: Summarise a/b\n#3 Tool call read_file\n    {"file_id": "file_1"}',
        'plaintext',
      );
      assert.strictEqual(doc.languageId, 'plaintext');
      assert.strictEqual(path.posix.basename(doc.uri.path), 'Spend of Summarise a-b since the last decision');
      assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), doc.uri.toString());
      assert.match(doc.getText(), /#3 Tool call read_file/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      documents.dispose();
    }
  });
});
