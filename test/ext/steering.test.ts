// Steering inside a real VS Code, against the reference runtime, through the commands with
// arguments (as automation calls them): cancel, approve, deny, resume, fork; the "Needs you"
// list follows the decisions; the run panel's card refuses an approval of another run.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { RunRecord } from '../../src/api/types';
import { admin, directClient, extensionApi, signInForTests, testEnv, waitFor } from './support';

async function adminRun(body: Record<string, unknown>): Promise<string> {
  const { baseUrl, adminKey } = testEnv();
  const res = await fetch(`${baseUrl}/__admin/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.strictEqual(res.status, 201, `admin run: ${res.status}`);
  return ((await res.json()) as { run_id: string }).run_id;
}

async function pendingApprovalOf(runId: string): Promise<string> {
  const client = directClient();
  try {
    return await waitFor(
      'the approval to be asked',
      async () => (await client.listApprovals({ status: 'pending', run_id: runId })).data[0]?.id,
    );
  } finally {
    await client.dispose();
  }
}

describe('steering a run (steer)', () => {
  before(async () => {
    await extensionApi();
    await signInForTests();
  });

  it('cancels a live run with agentRuntime.cancelRun { runId, confirm: false }', async () => {
    const runId = await adminRun({ events: 2, terminal: null, live: true });
    const run = await vscode.commands.executeCommand<RunRecord>('agentRuntime.cancelRun', { runId, confirm: false });
    assert.strictEqual(run?.status, 'cancelled');
    const api = await extensionApi();
    await waitFor('the store to know', () => api.runs.get(runId)?.status === 'cancelled');
  });

  it('approves a pending tool call and the run goes on; the Needs you list drops it', async () => {
    const api = await extensionApi();
    const runId = await adminRun({ events: 2, terminal: 'completed', approval: { tool: 'write_file' } });
    const approvalId = await pendingApprovalOf(runId);
    await api.steering.pending.refresh();
    assert.ok(api.steering.pending.find(approvalId), 'listed in Needs you');
    const decided = await vscode.commands.executeCommand<{ status?: string }>('agentRuntime.approveToolCall', {
      approvalId,
      note: 'fine',
    });
    assert.strictEqual(decided?.status, 'approved');
    assert.strictEqual(api.steering.pending.find(approvalId), undefined);
    const client = directClient();
    try {
      await waitFor('the run to complete', async () => (await client.getRun(runId)).status === 'completed');
    } finally {
      await client.dispose();
    }
  });

  it('denies with agentRuntime.decideApproval { approvalId, decision, note }; a second decision shows the outcome', async () => {
    const runId = await adminRun({ events: 2, terminal: 'completed', approval: { tool: 'write_file' } });
    const approvalId = await pendingApprovalOf(runId);
    const denied = await vscode.commands.executeCommand<{ status?: string }>('agentRuntime.decideApproval', {
      approvalId,
      decision: 'deny',
      note: 'not now',
    });
    assert.strictEqual(denied?.status, 'denied');
    const again = await vscode.commands.executeCommand<{ status?: string }>('agentRuntime.approveToolCall', {
      approvalId,
      note: undefined,
    });
    assert.strictEqual(again?.status, 'denied', 'the 409 answers with the current record');
  });

  it("the run panel's card refuses an approval id its stream names for another run: nothing asked, nothing decided", async () => {
    type Show = (...args: unknown[]) => Thenable<unknown>;
    const windowApi = vscode.window as unknown as { showWarningMessage: Show };
    const original = windowApi.showWarningMessage;
    const modals: string[] = [];
    const warnings: string[] = [];
    const api = await extensionApi();
    const other = await adminRun({
      events: 2,
      terminal: 'completed',
      approval: { tool: 'write_file', arguments: { path: 'a.txt' } },
    });
    const approvalId = await pendingApprovalOf(other);
    const mine = await adminRun({ events: 1, terminal: null, live: true });
    type PanelLike = {
      panel: vscode.WebviewPanel;
      onMessage(message: unknown): void;
      session: { approvalCard?: { approvalId: string } };
    };
    let panel: PanelLike | undefined;
    try {
      // The live run's stream names the other run's approval, with the same tool and arguments.
      await admin(`/runs/${mine}/events`, {
        event: 'approval.requested',
        data: {
          approval_id: approvalId,
          step_id: 'step_1',
          tool: 'write_file',
          arguments: { path: 'a.txt' },
          reason: 'Writes a file.',
        },
      });
      await vscode.commands.executeCommand('agentRuntime.watchRun', mine);
      const panels = (api.runPanels as unknown as { panels: Map<string, PanelLike> }).panels;
      panel = await waitFor('the run panel', () => panels.get(mine));
      const shown = panel;
      await waitFor('the card', () => shown.session.approvalCard?.approvalId === approvalId);
      windowApi.showWarningMessage = (message, ...rest) => {
        const modal = (rest[0] as vscode.MessageOptions | undefined)?.modal === true;
        (modal ? modals : warnings).push(String(message));
        return modal ? Promise.resolve(undefined) : original(message, ...rest);
      };
      assert.strictEqual(
        windowApi.showWarningMessage === original,
        false,
        'the notifications could not be watched (the API object is read-only)',
      );
      shown.onMessage({ type: 'decide', approvalId, decision: 'approve' });
      await waitFor('the refusal', () => warnings.some((w) => /another run/.test(w)));
      assert.deepStrictEqual(modals, [], "the card asked to approve another run's call");
      const client = directClient();
      try {
        assert.strictEqual((await client.getApproval(approvalId)).status, 'pending');
        await client.decideApproval(approvalId, { decision: 'deny', note: 'test over' });
      } finally {
        await client.dispose();
      }
    } finally {
      windowApi.showWarningMessage = original;
      panel?.panel.dispose();
      await admin(`/runs/${mine}/end`, { status: 'cancelled' }).catch(() => undefined);
    }
  });

  it('resumes a cancelled run and forks a finished one with instructions; both follow their origin', async () => {
    const client = directClient();
    try {
      const task = await client.createTask({ objective: 'Summarise; ask before writing any file' });
      const runId = task.run_id!;
      await waitFor('the run to wait', async () => (await client.getRun(runId)).status === 'awaiting_approval');
      await vscode.commands.executeCommand('agentRuntime.cancelRun', { runId, confirm: false });
      const resumed = await vscode.commands.executeCommand<RunRecord>('agentRuntime.resumeRun', {
        runId,
        instructions: '',
      });
      assert.strictEqual(resumed?.resumed_from, runId);
      const source = await adminRun({ events: 6, terminal: 'completed' });
      const forked = await vscode.commands.executeCommand<RunRecord>('agentRuntime.forkRun', {
        runId: source,
        sequence: 3,
        instructions: 'Now also count words.',
      });
      assert.strictEqual(forked?.forked_from?.run_id, source);
      assert.strictEqual(forked?.forked_from?.sequence, 3);
      const api = await extensionApi();
      assert.ok(api.runs.get(forked.id)?.followed, 'the new run is followed');
    } finally {
      await client.dispose();
    }
  });
});
