// A server without budgets (the reference runtime's missingEndpoints 'budgets'): the task comes back
// without the cap sent, the extension says so once per service, measures the run against the
// person's cap from its usage.updated events, and at the cap asks whether to cancel the run (it
// cannot pause it). The answer is given through the test run's handle (trusted automation).
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { TaskRecord } from '../../src/api/types';
import { extensionApi, setWorkspaceSetting, suiteWithService, testEnv, waitFor } from './support';

async function setFaults(faults: unknown): Promise<void> {
  const { baseUrl, adminKey } = testEnv();
  const res = await fetch(`${baseUrl}/__admin/faults`, {
    method: faults === undefined ? 'DELETE' : 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    ...(faults === undefined ? {} : { body: JSON.stringify(faults) }),
  });
  assert.ok(res.ok, `faults: ${res.status}`);
}

describe('budgets: a server without budgets', () => {
  const client = suiteWithService();
  before(async () => {
    await setFaults({ missingEndpoints: ['budgets'] });
  });
  after(async () => {
    await setFaults(undefined);
    await setWorkspaceSetting('budget.perRun', undefined);
    (await extensionApi()).budgets.answerAtIgnoredCapInTests = 'let';
  });

  it('says so once, measures the run against the cap, and Let It Run lets it complete', async function () {
    this.timeout(60_000);
    await setWorkspaceSetting('budget.perRun', '0.02');
    const api = await extensionApi();
    api.budgets.answerAtIgnoredCapInTests = 'let';
    const asked = api.budgets.askedInTests.length;
    const created = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.createTask', {
      objective: 'Capped on a server without budgets',
    });
    assert.ok(created?.run_id, 'a task with its run');
    assert.strictEqual(created.budget, undefined, 'the server did not keep the cap');
    const runId = created.run_id;
    const notices = () => api.budgets.askedInTests.slice(asked).filter((q) => q.kind === 'noBudgets');
    assert.strictEqual(notices().length, 1, 'the person is told');
    assert.match(notices()[0].lines[0], /does not keep spending caps: .*cap of 0\.02 USD/);
    // The meter's cap: the run panel reads the run through this (RunStore.withLocalCap).
    assert.deepStrictEqual(api.runs.withLocalCap(await client.getRun(runId)).budget, {
      amount: '0.02',
      currency: 'USD',
    });

    const question = await waitFor('the question at the cap', () =>
      api.budgets.askedInTests.slice(asked).find((q) => q.kind === 'budgetless'),
    );
    const text = question.lines.join('\n');
    assert.match(text, /Task: Capped on a server without budgets/);
    assert.match(text, /Spent 0\.0[2-9] USD of its cap of 0\.02 USD\./);
    assert.match(text, new RegExp(`Run: ${runId}`));
    assert.match(text, /was not paused/);
    await waitFor('the run to complete', async () => (await client.getRun(runId)).status === 'completed', 30_000);

    // A second task on the same service: not told again.
    const second = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.createTask', {
      objective: 'Second on a server without budgets',
    });
    const secondRun = second?.run_id;
    assert.ok(secondRun);
    assert.strictEqual(notices().length, 1, 'said once per service, not per task');
    await waitFor(
      'the second question',
      () => api.budgets.askedInTests.slice(asked).filter((q) => q.kind === 'budgetless').length === 2,
    );
    await waitFor('the second run to end', async () => (await client.getRun(secondRun)).status === 'completed', 30_000);
  });

  it('Cancel the Run cancels it at the cap', async function () {
    this.timeout(60_000);
    // One document costs 0.05 USD to read; the run then waits for an approval, still going.
    await setWorkspaceSetting('budget.perRun', '0.05');
    const api = await extensionApi();
    api.budgets.answerAtIgnoredCapInTests = 'cancel';
    const asked = api.budgets.askedInTests.length;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'no workspace folder');
    const file = vscode.Uri.joinPath(folder, 'budgetless.md');
    await vscode.workspace.fs.writeFile(file, Buffer.from('# Notes\n\nSome words to count.\n'));
    const created = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.uploadAndCreateTask', file, [file], {
      objective: 'Read it, and ask before writing any file',
    });
    assert.ok(created?.run_id);
    const runId = created.run_id;
    const question = await waitFor('the question at the cap', () =>
      api.budgets.askedInTests.slice(asked).find((q) => q.kind === 'budgetless'),
    );
    assert.match(question.lines.join('\n'), /Spent 0\.0[5-9] USD of its cap of 0\.05 USD\./);
    await waitFor('the run to be cancelled', async () => (await client.getRun(runId)).status === 'cancelled', 30_000);
    assert.strictEqual(
      api.budgets.askedInTests.slice(asked).filter((q) => q.kind === 'noBudgets').length,
      0,
      'the service was named once already',
    );
  });
});
