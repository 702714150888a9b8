// "Go to…", the views' filter, Copy Link and run links inside a real VS Code, against the
// reference runtime. (Written with the sidebar part of the run log tools; not yet run by its author: the
// extension-host suite is the lead's to run.)
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { parseRunLinkText } from '../../src/links/runLink';
import type { HostMessage } from '../../src/runPanel/protocol';
import type { TaskNode, TreeNode } from '../../src/views/nodes';
import { directClient, extensionApi, setWorkspaceSetting, signInForTests, waitFor } from './support';

/** The posts of one run panel, seen by wrapping its webview's postMessage (test-only access). */
function watchPosts(api: Awaited<ReturnType<typeof extensionApi>>, runId: string): HostMessage[] {
  const panels = (api.runPanels as unknown as { panels: Map<string, { panel: vscode.WebviewPanel }> }).panels;
  const panel = panels.get(runId);
  assert.ok(panel, `a panel for ${runId}`);
  const posted: HostMessage[] = [];
  const webview = panel.panel.webview;
  const original = webview.postMessage.bind(webview);
  webview.postMessage = (message: unknown) => {
    posted.push(message as HostMessage);
    return original(message);
  };
  return posted;
}

/**
 * A task row of the extension's tree. By shape, not `instanceof TaskNode`: the extension runs from
 * its bundle, so its classes are not the ones this test imports from src/.
 */
function isTaskRow(node: unknown): node is TaskNode {
  return (
    typeof node === 'object' && node !== null && typeof (node as { task?: { id?: unknown } }).task?.id === 'string'
  );
}

describe('Go to, filter and run links', () => {
  before(async () => {
    await extensionApi();
    await signInForTests();
  });

  it('goes to a task by id: the Tasks view selects it without paging to it', async () => {
    const api = await extensionApi();
    const client = directClient();
    try {
      const task = await client.createTask({ objective: 'go-to target' });
      // Put it past the first page: newer tasks come first.
      for (let i = 0; i < 3; i++) {
        await client.createTask({ objective: `go-to filler ${i}` });
      }
      await setWorkspaceSetting('pageSize', 2);
      api.sidebar.tasks.refresh();
      const kind = await vscode.commands.executeCommand('agentRuntime.goTo', task.id);
      assert.strictEqual(kind, 'task');
      await waitFor('the task row selected', () =>
        api.sidebar.tasksView.selection.some((n: TreeNode) => isTaskRow(n) && n.task.id === task.id),
      );
    } finally {
      await setWorkspaceSetting('pageSize', undefined);
      await client.dispose();
    }
  });

  it('says nothing was found for an unknown id and opens nothing', async () => {
    const kind = await vscode.commands.executeCommand('agentRuntime.goTo', 'task_doesnotexist');
    assert.strictEqual(kind, undefined);
  });

  it('refuses a malformed or hostile id before any request', async () => {
    for (const input of [
      '../task_1',
      'task_a%2Fb',
      `task_${'a'.repeat(10_000)}`,
      'vscode://other.extension/run/run_1#2',
    ]) {
      assert.strictEqual(
        await vscode.commands.executeCommand('agentRuntime.goTo', input),
        undefined,
        input.slice(0, 40),
      );
    }
  });

  it('filters the Tasks view across pages, shows it in the description, and clears', async () => {
    const api = await extensionApi();
    const client = directClient();
    try {
      await client.createTask({ objective: 'needle in the stack' });
      for (let i = 0; i < 4; i++) {
        await client.createTask({ objective: `hay ${i}` });
      }
      await setWorkspaceSetting('pageSize', 1);
      api.sidebar.tasks.refresh();
      await vscode.commands.executeCommand('agentRuntime.filterTasks', 'needle');
      const rows = await api.sidebar.tasksFilter.getChildren();
      assert.ok(
        rows.some((r) => isTaskRow(r) && r.task.objective === 'needle in the stack'),
        JSON.stringify(rows.map((r) => (isTaskRow(r) ? r.task.objective : r.constructor.name))),
      );
      assert.ok(rows.filter(isTaskRow).every((r) => r.task.objective?.includes('needle')));
      assert.match(api.sidebar.tasksView.description ?? '', /needle/);
      await vscode.commands.executeCommand('agentRuntime.clearTasksFilter');
      assert.strictEqual(api.sidebar.tasksFilter.query, undefined);
      assert.strictEqual(api.sidebar.tasksView.description, undefined);
    } finally {
      await setWorkspaceSetting('pageSize', undefined);
      await client.dispose();
    }
  });

  it('copies a link to an event that reads back as the same run and sequence', async () => {
    const link = await vscode.commands.executeCommand<string>('agentRuntime.copyRunLink', 'run_abc', 5);
    assert.strictEqual(await vscode.env.clipboard.readText(), link);
    // The scheme is this editor's own (vscode, vscode-insiders, code-oss...); asExternalUri may add a query.
    assert.deepStrictEqual(parseRunLinkText(link), { ok: true, target: { runId: 'run_abc', sequence: 5 } }, link);
    assert.strictEqual(await vscode.commands.executeCommand('agentRuntime.copyRunLink', '../run_abc', 5), undefined);
  });

  it('goes to a run link: opens the run panel and posts reveal for the event after the page is ready', async () => {
    const api = await extensionApi();
    const client = directClient();
    try {
      const task = await client.createTask({ objective: 'linked run' });
      const runId = task.run_id ?? assert.fail('the task names its run');
      api.runPanels.open(runId);
      const posted = watchPosts(api, runId);
      const kind = await vscode.commands.executeCommand(
        'agentRuntime.goTo',
        `${vscode.env.uriScheme}://agent-runtime.agent-runtime/run/${runId}#2`,
      );
      assert.strictEqual(kind, 'run');
      await waitFor('a reveal of event 2', () => posted.some((m) => m.type === 'reveal' && m.sequence === 2));
    } finally {
      await client.dispose();
    }
  });
});
