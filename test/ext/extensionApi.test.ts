// The API for other extensions, used by another extension: test/ext/fixtures/apiConsumer (installed
// into the test window's extensions folder by the runner) gets it with
// vscode.extensions.getExtension('agent-runtime.agent-runtime').activate(), typed by the shipped
// declaration file, and watches runs through it: each event exactly once, in order. The rest of
// the API is driven through the same object the fixture got.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { AgentRuntimeApprovalRequest, AgentRuntimeRunState } from '../../src/extensionApi/agentRuntimeApi';
import type { ApiConsumer } from './fixtures/apiConsumer/extension';
import { admin, directClient, extensionApi, signInForTests, testEnv, waitFor } from './support';

const CONSUMER_ID = 'agent-runtime-tests.api-consumer';

async function consumer(): Promise<ApiConsumer> {
  const extension = vscode.extensions.getExtension<ApiConsumer>(CONSUMER_ID);
  assert.ok(extension, `${CONSUMER_ID} is not installed in the test window (test/e2e/extHostSetup.ts installs it)`);
  return extension.activate();
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('the API for other extensions', () => {
  before(async () => {
    await extensionApi();
    await signInForTests();
  });

  it('another extension gets apiVersion 1 and watches a live run: each event once, in order', async function () {
    this.timeout(60_000);
    const fixture = await consumer();
    assert.strictEqual(fixture.apiVersion, 1);
    const { run_id: runId } = (await admin('/runs', { events: 40, live: true, terminal: 'completed' })) as {
      run_id: string;
    };
    const seen = await fixture.watch(runId);
    assert.deepStrictEqual(
      seen.map((e) => e.sequence),
      range(1, 41),
    );
    assert.strictEqual(seen.at(-1)?.event, 'run.completed');
    const rest = await fixture.watch(runId, 30);
    assert.deepStrictEqual(
      rest.map((e) => e.sequence),
      range(31, 41),
    );
  });

  it('offers no way to decide an approval, cancel, resume or fork', async () => {
    const { api } = await consumer();
    assert.deepStrictEqual(
      Object.keys(api)
        .filter(
          (k) =>
            ![
              'service',
              'credentials',
              'reauth',
              'sidebar',
              'runs',
              'runPanels',
              'steering',
              'agents',
              'memory',
              'agentAccess',
              'reviewTalk',
              'budgets',
            ].includes(k),
        )
        .sort(),
      [
        'apiVersion',
        'createTask',
        'getRun',
        'listArtifacts',
        'onApprovalRequested',
        'onDidChangeRunState',
        'openRunPanel',
        'watchRunEvents',
      ],
    );
  });

  it('reads a run in short and lists its artifacts; a bad id is an error with a code', async () => {
    const { api } = await consumer();
    const { run_id: runId } = (await admin('/runs', { events: 5, terminal: 'failed', cost: '0.75' })) as {
      run_id: string;
    };
    const run = await api.getRun(runId);
    assert.strictEqual(run.status, 'failed');
    assert.strictEqual(run.cost, '0.75 USD');
    assert.strictEqual(run.lastSequence, 6);
    assert.deepStrictEqual(await api.listArtifacts(runId), []);
    await assert.rejects(api.getRun('run_doesnotexist'), (err: { code?: string }) => err.code === 'not_found');
    await assert.rejects(
      async () => api.getRun('../files'),
      (err: { code?: string }) => err.code === 'invalid_argument',
    );
  });

  it('creates a task only after the person saw the objective, the file and the service', async function () {
    this.timeout(120_000);
    const { api } = await consumer();
    const handles = await extensionApi();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const asked = handles.agents.taskRequests.askedInTests.length;
    const states: AgentRuntimeRunState[] = [];
    const listening = api.onDidChangeRunState((state) => states.push(state));
    try {
      const objective = `Look at the sample (API ${Date.now()})`;
      const task = await api.createTask({ objective, files: [vscode.Uri.joinPath(folder, 'data', 'sample.csv')] });
      assert.ok(task?.runId, 'a task with a run');
      const question = handles.agents.taskRequests.askedInTests[asked];
      assert.ok(question?.message.includes('Another extension asks'), question?.message);
      assert.ok(question.message.includes(testEnv().baseUrl));
      assert.ok(question.detail.includes(`Objective: ${objective}`), question.detail.join('\n'));
      assert.ok(question.detail.includes('data/sample.csv'), question.detail.join('\n'));
      const client = directClient();
      try {
        const stored = await client.getTask(task.taskId);
        const names = await Promise.all(
          (stored.attachments ?? []).map(async (a) => (await client.getFile(a.fileId)).filename),
        );
        assert.deepStrictEqual(names, ['sample.csv']);
      } finally {
        await client.dispose();
      }
      // The run was started here, so the run store follows it to its end and says so.
      await waitFor(
        'the run state to reach its end',
        () => states.some((s) => s.runId === task.runId && s.terminal),
        60_000,
      );
      const artifacts = await api.listArtifacts(task.runId);
      assert.ok(artifacts.length > 0 && artifacts.every((a) => a.runId === task.runId));
    } finally {
      listening.dispose();
    }
  });

  it('tells of an approval waiting for a person, read only', async function () {
    this.timeout(60_000);
    const { api } = await consumer();
    const handles = await extensionApi();
    await handles.steering.pending.refresh();
    const asked: AgentRuntimeApprovalRequest[] = [];
    const listening = api.onApprovalRequested((a) => asked.push(a));
    try {
      const { run_id: runId } = (await admin('/runs', {
        events: 2,
        terminal: 'completed',
        approval: { tool: 'write_file', reason: 'needs to write' },
      })) as { run_id: string };
      const seen = await waitFor('the approval to be told', async () => {
        await handles.steering.pending.refresh();
        return asked.find((a) => a.runId === runId);
      });
      assert.strictEqual(seen.tool, 'write_file');
      assert.strictEqual(seen.reason, 'needs to write');
      assert.ok(Object.isFrozen(seen));
      const client = directClient();
      try {
        assert.strictEqual((await client.getApproval(seen.approvalId)).status, 'pending');
        await client.cancelRun(runId);
      } finally {
        await client.dispose();
      }
    } finally {
      listening.dispose();
    }
  });
});
