// The trees of one server resource (Memory, Tools, Connectors, Webhooks: src/views/pagedTree.ts)
// inside a real VS Code, against the reference runtime: pages of pageSize rows and a "Load more"
// row whose command appends the next page until every record is shown once; a record created or
// deleted here shows without a reload; a service without the resource says so on the message line.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { PagedNode, PagedTree } from '../../src/views/pagedTree';
import { admin, extensionApi, suiteWithService } from './support';

type AnyTree = PagedTree<{ id: string }, unknown>;

/** Clicks "Load more" until the view shows no such row; returns the ids of the records shown. */
async function loadAll(tree: AnyTree, loadMoreCommand: string): Promise<string[]> {
  let rows: PagedNode<{ id: string }, unknown>[] = await tree.getChildren();
  for (let clicks = 0; rows.some((r) => r.kind === 'more') && clicks < 100; clicks++) {
    await vscode.commands.executeCommand(loadMoreCommand);
    rows = await tree.getChildren();
  }
  assert.ok(!rows.some((r) => r.kind === 'more'), 'the list ends');
  return rows.flatMap((r) => (r.kind === 'record' ? [r.record.id] : []));
}

async function clearFaults(): Promise<void> {
  await fetch(`${process.env.AGENT_RUNTIME_TEST_BASE_URL}/__admin/faults`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${process.env.AGENT_RUNTIME_TEST_ADMIN_KEY}` },
  });
}

describe('resource trees (Memory, Tools, Connectors, Webhooks)', () => {
  const client = suiteWithService({ pageSize: 2 });

  it('Tools: two rows and "Load more", which appends pages until every tool is shown once', async () => {
    const api = await extensionApi();
    const serverIds: string[] = [];
    for await (const tool of client.iterateTools({ limit: 100 })) {
      serverIds.push(tool.id);
    }
    assert.ok(serverIds.length > 2, 'the runtime seeds more tools than one page holds');
    const tree = api.agentAccess.tools as unknown as AnyTree;
    tree.refresh();
    const first = await tree.getChildren();
    assert.deepStrictEqual(
      first.map((r) => r.kind),
      ['record', 'record', 'more'],
    );
    assert.deepStrictEqual(await loadAll(tree, 'agentRuntime.loadMoreTools'), serverIds);
  });

  it('Memory: "Load more" pages the Memory view the same way', async () => {
    const api = await extensionApi();
    for (let i = 0; i < 3; i++) {
      await client.createMemory({ content: `paging memory ${i}\n`, tags: ['paging'] });
    }
    const serverIds: string[] = [];
    for await (const record of client.iterateMemory({ limit: 100 })) {
      serverIds.push(record.id);
    }
    const tree = api.memory.tree as unknown as AnyTree;
    tree.refresh();
    assert.deepStrictEqual(await loadAll(tree, 'agentRuntime.loadMoreMemory'), serverIds);
  });

  it('Webhooks: a webhook created here shows first without a reload, and a deleted one goes', async () => {
    const api = await extensionApi();
    const tree = api.agentAccess.webhooks;
    tree.refresh();
    await tree.getChildren();
    const created = await vscode.commands.executeCommand<{ id: string }>('agentRuntime.createWebhook', {
      url: 'https://example.com/hooks/tree-test',
      events: ['run.completed'],
    });
    assert.ok(created?.id);
    assert.strictEqual(tree.entries[0]?.id, created.id, 'the new webhook is the first row');
    assert.strictEqual(
      await vscode.commands.executeCommand('agentRuntime.deleteWebhook', { id: created.id, confirm: false }),
      true,
    );
    assert.ok(!tree.entries.some((w) => w.id === created.id));
  });

  it('a service without tools, connectors or webhooks: each view says what it does not offer', async () => {
    const api = await extensionApi();
    const trees = [api.agentAccess.tools, api.agentAccess.connectors, api.agentAccess.webhooks] as unknown as AnyTree[];
    await admin('/faults', { missingEndpoints: ['tools', 'connectors', 'webhooks'] });
    try {
      for (const [tree, what] of trees.map((tree, i) => [tree, ['tools', 'connectors', 'webhooks'][i]] as const)) {
        tree.refresh();
        assert.deepStrictEqual(await tree.getChildren(), []);
        assert.match(String(tree.view?.message), new RegExp(`does not offer ${what}`));
      }
    } finally {
      await clearFaults();
      trees.forEach((tree) => tree.refresh());
    }
  });
});
