// The run store inside a real VS Code: a run watched in a panel updates its Tasks row from the
// stream, with no status poll of that run; and nothing is polled while the Tasks view is hidden.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
// Types only: the extension runs from its bundle, so its row classes are not these (no instanceof).
import { runContextValue, runFactsOf } from '../../src/runEvents/runActions';
import type { RunNode, TaskNode, TreeNode } from '../../src/views/nodes';
import { admin, extensionApi, signInForTests, waitFor } from './support';

async function runRow(
  tasks: { getChildren(node?: TreeNode): Promise<TreeNode[]> },
  objective: string,
): Promise<RunNode> {
  return waitFor(`the run row of "${objective}"`, async () => {
    const task = (await tasks.getChildren()).find(
      (n) => n.contextValue === 'task' && (n as TaskNode).task.objective === objective,
    );
    if (!task) {
      return undefined;
    }
    const [run] = await tasks.getChildren(task);
    return run?.contextValue?.startsWith('run') ? (run as RunNode) : undefined;
  });
}

describe('run store', () => {
  before(async () => {
    await extensionApi();
    await signInForTests();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("updates a run row from the panel's stream, without polling the run", async () => {
    const api = await extensionApi();
    const objective = `streamed ${Date.now()}`;
    const { run_id: runId } = (await admin('/runs', {
      events: 3,
      terminal: null,
      live: true,
      taskObjective: objective,
    })) as { run_id: string };
    await vscode.commands.executeCommand('workbench.view.extension.agentRuntime');
    api.sidebar.tasks.refresh();
    const row = await runRow(api.sidebar.tasks, objective);
    // Today's flags first, then whatever rows the run-action table adds for a running run.
    assert.match(String(row.contextValue), /^run active cancel fork\b/);
    assert.strictEqual(row.contextValue, runContextValue(runFactsOf('running')));
    api.runPanels.open(runId);
    await waitFor('the panel to stream the run', () => api.runs.get(runId)?.streamed);
    assert.strictEqual(api.runs.polling, false, 'a streamed run is not polled');
    const redrawn = new Promise<void>((resolve) => {
      const sub = api.sidebar.tasks.onDidChangeTreeData((changed) => {
        if (Array.isArray(changed) && changed.includes(row)) {
          sub.dispose();
          resolve();
        }
      });
    });
    await admin(`/runs/${runId}/end`, { status: 'completed' });
    await redrawn;
    assert.strictEqual(row.contextValue, 'run review fork', 'the row ended from the stream');
    assert.match(String(row.description), /completed/);
    assert.strictEqual(api.runs.polling, false, 'no status poll was needed');
  });

  it('polls nothing while the Tasks view is hidden', async () => {
    const api = await extensionApi();
    const objective = `hidden ${Date.now()}`;
    await admin('/runs', { events: 1, terminal: null, live: true, taskObjective: objective });
    await vscode.commands.executeCommand('workbench.view.extension.agentRuntime');
    api.sidebar.tasks.refresh();
    await runRow(api.sidebar.tasks, objective);
    await waitFor(
      'polling while the view shows an unfinished run',
      () => api.runs.polling || api.sidebar.tasks.polling,
    );
    await vscode.commands.executeCommand('workbench.view.explorer');
    await waitFor('the Tasks view to be hidden', () => !api.sidebar.tasksView.visible);
    assert.strictEqual(api.runs.polling, false, "a hidden view's runs are not polled");
    assert.strictEqual(api.sidebar.tasks.polling, false, "a hidden view's tasks are not polled");
  });
});
