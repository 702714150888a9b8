// Every path that starts a run sends the cap (agentRuntime.budget.perRun): Create Task, Upload and
// Attach, the tool / chat / extension requests, resume and fork; past the monthly limit a tool is
// refused and only a person may start anyway.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { RunRecord, TaskRecord } from '../../src/api/types';
import { directClient, extensionApi, setWorkspaceSetting, signInForTests, waitFor } from './support';

const CAP = { amount: '3.00', currency: 'USD' };

describe('budgets: every task-creating path sends the cap', () => {
  const client = directClient();
  before(async () => {
    await extensionApi();
    await signInForTests();
    await setWorkspaceSetting('budget.perRun', '3.00');
  });
  after(async () => {
    await setWorkspaceSetting('budget.perRun', undefined);
    await vscode.workspace
      .getConfiguration('agentRuntime')
      .update('budget.monthly', undefined, vscode.ConfigurationTarget.Global);
    await client.dispose();
  });

  async function budgetOf(task: TaskRecord | undefined): Promise<unknown> {
    assert.ok(task?.id, `no task: ${JSON.stringify(task)}`);
    return (await client.getTask(task.id)).budget;
  }

  it('Create Task and Upload and Attach send it, and the person was shown the cap', async () => {
    const api = await extensionApi();
    const asked = api.budgets.askedInTests.length;
    const created = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.createTask', {
      objective: 'Capped from the palette',
    });
    assert.deepStrictEqual(await budgetOf(created), CAP);
    const shown = api.budgets.askedInTests[asked];
    assert.strictEqual(shown?.kind, 'cap');
    assert.ok(shown.lines.includes('Cap for this run: 3.00 USD'), shown.lines.join('\n'));

    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'no workspace folder');
    const file = vscode.Uri.joinPath(folder, 'budget-a.md');
    await vscode.workspace.fs.writeFile(file, Buffer.from('# Capped\n'));
    const uploaded = await vscode.commands.executeCommand<TaskRecord>(
      'agentRuntime.uploadAndCreateTask',
      file,
      [file],
      {
        objective: 'Capped upload',
      },
    );
    assert.deepStrictEqual(await budgetOf(uploaded), CAP);
  });

  it('a tool, the chat and another extension send it without being asked about it', async () => {
    const api = await extensionApi();
    const requests = api.agents.taskRequests;
    const asked = api.budgets.askedInTests.length;
    assert.deepStrictEqual(await budgetOf(await requests.startConfirmed('Capped by a tool', [], 'tool')), CAP);
    assert.deepStrictEqual(await budgetOf(await requests.startAsked('Capped by chat', [], 'chat')), CAP);
    assert.deepStrictEqual(await budgetOf(await requests.startAsked('Capped by an extension', [], 'extension')), CAP);
    assert.strictEqual(api.budgets.askedInTests.length, asked, 'nobody but a person is asked about the cap');
  });

  it('resume and fork send it', async () => {
    const task = await client.createTask({ objective: 'To resume; ask before writing any file' });
    const runId = task.run_id as string;
    await waitFor('the run to wait', async () => (await client.getRun(runId)).status === 'awaiting_approval');
    await vscode.commands.executeCommand('agentRuntime.cancelRun', { runId, confirm: false });
    const resumed = await vscode.commands.executeCommand<RunRecord>('agentRuntime.resumeRun', {
      runId,
      instructions: '',
    });
    assert.deepStrictEqual(resumed?.budget, CAP);
    const forked = await vscode.commands.executeCommand<RunRecord>('agentRuntime.forkRun', {
      runId,
      sequence: 1,
      instructions: '',
    });
    assert.deepStrictEqual(forked?.budget, CAP);
    for (const id of [resumed?.id, forked?.id]) {
      await client.cancelRun(id).catch(() => undefined);
    }
  });

  it('past the monthly limit a tool is refused and nothing is created; a person may start anyway', async () => {
    await vscode.workspace
      .getConfiguration('agentRuntime')
      .update('budget.monthly', '0.01', vscode.ConfigurationTarget.Global);
    const api = await extensionApi();
    const before = (await client.listTasks({ limit: 1 })).data[0]?.id;
    const refused = await api.agents.taskRequests.startConfirmed('Over the limit', [], 'tool');
    assert.strictEqual(refused, undefined);
    assert.strictEqual((await client.listTasks({ limit: 1 })).data[0]?.id, before, 'no task was created');
    const asked = api.budgets.askedInTests.length;
    const started = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.createTask', {
      objective: 'Over the limit, started by a person',
    });
    assert.deepStrictEqual(await budgetOf(started), CAP);
    const question = api.budgets.askedInTests.slice(asked).find((q) => q.kind === 'monthly');
    assert.match(question?.lines[0] ?? '', /could pass your monthly limit of 0\.01 USD by /);
  });
});
