// The sidebar inside a real VS Code, against the reference runtime: pages of pageSize rows, a
// "Load more" row that appends the next page, refresh that starts over, and the task -> run ->
// artifact hierarchy.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import type { TreeNode } from '../../src/views/nodes';
import { extensionApi, suiteWithService, waitFor } from './support';

type Provider = { getChildren(node?: TreeNode): Promise<TreeNode[]> | TreeNode[] | undefined | null };

async function children(provider: Provider, node?: TreeNode): Promise<TreeNode[]> {
  return (await provider.getChildren(node)) ?? [];
}

const kindOf = (n: TreeNode) => n.contextValue ?? '';

describe('sidebar views', () => {
  const client = suiteWithService({ pageSize: 2 });

  it('loads tasks two at a time and "Load more" appends the next page until all are shown', async () => {
    const api = await extensionApi();
    for (let i = 0; i < 5; i++) {
      await client.createTask({ objective: `paging task ${i}` });
    }
    const serverIds: string[] = [];
    for (let after: string | undefined; ;) {
      const page = await client.listTasks({ limit: 100, after });
      serverIds.push(...page.data.map((t) => t.id));
      if (!page.has_more || !page.next_cursor) {
        break;
      }
      after = page.next_cursor;
    }
    api.sidebar.tasks.refresh();
    let rows = await children(api.sidebar.tasks);
    assert.deepStrictEqual(rows.map(kindOf), ['task', 'task', 'loadMore']);
    for (let guard = 0; rows.some((r) => kindOf(r) === 'loadMore') && guard < 100; guard++) {
      const more = rows.find((r) => kindOf(r) === 'loadMore');
      await vscode.commands.executeCommand('agentRuntime.loadMore', more);
      rows = await children(api.sidebar.tasks);
    }
    const shown = rows.map((r) => (r as { entityId?: string }).entityId);
    assert.deepStrictEqual(shown, serverIds, 'the view shows every task once, in the server order');
    assert.strictEqual(new Set(rows.map((r) => r.id)).size, rows.length, 'row ids are unique');
  });

  it('starts over from the first page on refresh: same ids for the same items, a new one for "Load more"', async () => {
    const api = await extensionApi();
    api.sidebar.tasks.refresh();
    const first = await children(api.sidebar.tasks);
    api.sidebar.tasks.refresh();
    const again = await children(api.sidebar.tasks);
    assert.strictEqual(again.length, 3);
    assert.deepStrictEqual(
      again.slice(0, 2).map((r) => r.id),
      first.slice(0, 2).map((r) => r.id),
    );
    // A "Load more" row from before the refresh must never collide with the new one.
    assert.notStrictEqual(again[2].id, first[2].id);
  });

  it('opens a finished task to its run, and the run to its artifacts', async () => {
    const api = await extensionApi();
    const file = await client.getFile((await uploadText(client)).id);
    const task = await client.createTask({
      objective: 'hierarchy',
      attachments: [{ type: 'document', fileId: file.id }],
    });
    await waitFor(
      'the run to finish',
      async () => {
        const t = await client.getTask(task.id);
        return t.status === 'completed' || t.status === 'failed';
      },
      20_000,
    );
    api.sidebar.tasks.refresh();
    const taskRow = (await children(api.sidebar.tasks)).find((r) => (r as { entityId?: string }).entityId === task.id);
    assert.ok(taskRow, 'the new task is on the first page');
    const runRows = await children(api.sidebar.tasks, taskRow);
    assert.ok(runRows.length >= 1 && kindOf(runRows[0]).startsWith('run'), `runs: ${runRows.map(kindOf)}`);
    const artifactRows = await children(api.sidebar.tasks, runRows[0]);
    const artifacts = artifactRows.filter((r) => kindOf(r) === 'artifact');
    assert.ok(artifacts.length >= 1, `artifacts: ${artifactRows.map((r) => r.label)}`);
  });

  it('lists uploaded files with a "Load more" row when there are more than a page', async () => {
    const api = await extensionApi();
    for (let i = 0; i < 3; i++) {
      await uploadText(client);
    }
    api.sidebar.files.refresh();
    const rows = await children(api.sidebar.files);
    assert.deepStrictEqual(rows.map(kindOf), ['file', 'file', 'loadMore']);
  });
});

async function uploadText(client: ApiClient) {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(folder);
  const uri = vscode.Uri.joinPath(folder, `sidebar-${Date.now()}-${Math.round(Math.random() * 1e6)}.md`);
  await vscode.workspace.fs.writeFile(uri, Buffer.from('# Heading\n\nSome words for the agent.\n'));
  return client.uploadFile(uri.fsPath, { purpose: 'task_input' });
}
