// The Tools, Connectors and Webhooks views inside a real VS Code, against the reference runtime:
// they list the runtime's records; a tool opens as its description (by id, and by name as the
// run panel's approval card and the Needs You row ask); revoking a grant waits for the modal and
// removes exactly that grant; a webhook is created with https only, its secret shown once in the
// modal with Copy and kept nowhere else; Send Test Delivery says what the receiver did; a service
// without one of the resources hides that view's rows with a message while the others still list.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { ConnectorGrant, ConnectorRecord } from '../../src/api/resourceTypes';
import type { PagedNode } from '../../src/views/pagedTree';
import { admin, extensionApi, suiteWithService, testEnv } from './support';

type Shown = { message: string; options: vscode.MessageOptions | undefined; items: string[] };
type WindowStubs = Record<string, unknown>;

/**
 * Replaces some of vscode.window's functions for one test (the way projects.test.ts does), and
 * puts them back afterwards. `answer` picks the button of a message; undefined is Cancel.
 */
async function withWindow<T>(stubs: WindowStubs, body: () => PromiseLike<T>): Promise<T> {
  const win = vscode.window as unknown as Record<string, unknown>;
  const originals = Object.fromEntries(Object.keys(stubs).map((k) => [k, win[k]]));
  Object.assign(win, stubs);
  try {
    return await body();
  } finally {
    Object.assign(win, originals);
  }
}

/** A show*Message stub that records what was shown and answers with `answer(items)`. */
function messages(shown: Shown[], answer: (items: string[], message: string) => string | undefined) {
  return (message: string, ...rest: unknown[]) => {
    const options =
      typeof rest[0] === 'object' && rest[0] !== null ? (rest.shift() as vscode.MessageOptions) : undefined;
    const items = rest.filter((r): r is string => typeof r === 'string');
    shown.push({ message, options, items });
    return Promise.resolve(answer(items, message));
  };
}

async function clearFaults(): Promise<void> {
  const { baseUrl, adminKey } = testEnv();
  await fetch(`${baseUrl}/__admin/faults`, { method: 'DELETE', headers: { authorization: `Bearer ${adminKey}` } });
}

describe('tools, connectors and webhooks views', () => {
  const client = suiteWithService();

  it('the Tools view lists the registry; a tool opens as its description, by id and by name', async () => {
    const { agentAccess } = await extensionApi();
    const tools = agentAccess.tools;
    tools.refresh();
    const rows = await tools.getChildren();
    const registry = (await client.listTools({ limit: 100 })).data;
    assert.ok(registry.length > 0);
    assert.deepStrictEqual(
      tools.entries.map((t) => t.id).sort(),
      registry.map((t) => t.id).sort(),
      'the view lists what the runtime lists',
    );
    const writeFile = registry.find((t) => t.name === 'write_file');
    assert.ok(writeFile, 'the runtime has write_file');
    const row = rows.find((r) => r.kind === 'record' && r.record.id === writeFile.id);
    assert.ok(row);
    const item = tools.getTreeItem(row);
    assert.strictEqual(item.command?.command, 'agentRuntime.openTool');

    await vscode.commands.executeCommand('agentRuntime.openTool', { id: writeFile.id });
    const byId = vscode.window.activeTextEditor?.document;
    assert.strictEqual(byId?.uri.scheme, 'agent-runtime-tools');
    assert.match(byId.getText(), /write_file/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // As the approval card and the Needs You row ask: by the tool's name, or an approval row.
    await vscode.commands.executeCommand('agentRuntime.openTool', { name: 'write_file' });
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), byId.uri.toString());
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('agentRuntime.openTool', {
      kind: 'approval',
      id: 'approval:apr_x',
      approval: { id: 'apr_x', tool: 'write_file' },
    });
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), byId.uri.toString());
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // A name the registry does not hold opens nothing and says so.
    const shown: Shown[] = [];
    await withWindow({ showWarningMessage: messages(shown, () => undefined) }, () =>
      vscode.commands.executeCommand('agentRuntime.openTool', { name: 'no_such_tool' }),
    );
    assert.strictEqual(vscode.window.activeTextEditor, undefined);
    assert.ok(
      shown.some((s) => /no tool named no_such_tool/.test(s.message)),
      JSON.stringify(shown),
    );
  });

  it('the Connectors view lists connectors and grants; Revoke Grant waits for the modal and removes only that grant', async () => {
    const { agentAccess } = await extensionApi();
    const connectors = agentAccess.connectors;
    connectors.refresh();
    const rows = await connectors.getChildren();
    const listed = (await client.listConnectors({ limit: 100 })).data;
    assert.deepStrictEqual(connectors.entries.map((c) => c.id).sort(), listed.map((c) => c.id).sort());
    const github = rows.find((r) => r.kind === 'record' && r.record.kind === 'github') as
      Extract<PagedNode<ConnectorRecord, ConnectorGrant>, { kind: 'record' }> | undefined;
    assert.ok(github, 'the runtime has a GitHub connector');
    const grants = await connectors.getChildren(github);
    assert.strictEqual(grants.length, github.record.grants.length);
    const node = grants.find((g) => g.kind === 'child' && g.child.scope === 'issues:write');
    assert.ok(node && node.kind === 'child');
    const grantId = node.child.id;

    // Cancel in the modal: nothing is sent.
    const shown: Shown[] = [];
    await withWindow({ showWarningMessage: messages(shown, () => undefined) }, () =>
      vscode.commands.executeCommand('agentRuntime.revokeGrant', node),
    );
    assert.strictEqual(shown.length, 1);
    assert.strictEqual(shown[0].options?.modal, true);
    assert.match(shown[0].options?.detail ?? '', /issues:write/, 'the modal names the grant that goes');
    assert.match(shown[0].options?.detail ?? '', /GitHub/);
    assert.ok((await client.getConnector(github.record.id)).grants.some((g) => g.id === grantId));

    // Confirmed: exactly that grant goes.
    const updated = await withWindow({ showWarningMessage: messages(shown, (items) => items[0]) }, () =>
      vscode.commands.executeCommand<ConnectorRecord>('agentRuntime.revokeGrant', node),
    );
    assert.strictEqual(shown.length, 2);
    assert.strictEqual(shown[1].items[0], 'Revoke Grant');
    const after = await client.getConnector(github.record.id);
    assert.deepStrictEqual(
      after.grants.map((g) => g.id).sort(),
      github.record.grants
        .filter((g) => g.id !== grantId)
        .map((g) => g.id)
        .sort(),
    );
    assert.strictEqual(after.status, github.record.status, 'the connector itself stays');
    assert.deepStrictEqual(updated?.grants.map((g) => g.id).sort(), after.grants.map((g) => g.id).sort());
    assert.deepStrictEqual(
      connectors.entries
        .find((c) => c.id === github.record.id)
        ?.grants.map((g) => g.id)
        .sort(),
      after.grants.map((g) => g.id).sort(),
      'the view follows',
    );
  });

  it('creates a webhook with https only; the secret is shown once with Copy and kept nowhere else; a test delivery is reported', async () => {
    const { agentAccess } = await extensionApi();
    const webhooks = agentAccess.webhooks;
    webhooks.refresh();
    await webhooks.getChildren();
    const url = `https://receiver.invalid/hooks/${Date.now()}`;
    let validate: ((value: string) => unknown) | undefined;
    const shown: Shown[] = [];
    const created = await withWindow(
      {
        showInputBox: (options: vscode.InputBoxOptions) => {
          validate = options.validateInput;
          return Promise.resolve(url);
        },
        showQuickPick: (items: readonly (vscode.QuickPickItem & { picked?: boolean })[]) =>
          Promise.resolve(items.filter((i) => i.picked)),
        showInformationMessage: messages(shown, (items) => items.find((i) => i === 'Copy Secret')),
      },
      () => vscode.commands.executeCommand<{ id: string; url: string; events: string[] }>('agentRuntime.createWebhook'),
    );
    assert.ok(created?.id, 'a webhook was created');
    assert.ok(validate, 'the URL box checks what is typed');
    assert.match(String(await validate('http://receiver.invalid/hook')), /https/);
    assert.ok(!(await validate(url)));

    // The secret: in the one modal, copied on request, nowhere else.
    assert.strictEqual(shown.length, 1);
    assert.strictEqual(shown[0].options?.modal, true);
    const secret = shown[0].options?.detail ?? '';
    assert.match(secret, /^whsec_[A-Za-z0-9_-]+$/);
    assert.strictEqual(await vscode.env.clipboard.readText(), secret);
    assert.ok(!JSON.stringify(created).includes(secret), 'the returned record has no secret');
    const rows = await webhooks.getChildren();
    assert.ok(
      webhooks.entries.some((w) => w.id === created.id),
      'the view lists it',
    );
    assert.ok(!JSON.stringify(webhooks.entries).includes(secret));
    assert.ok(!JSON.stringify(rows.map((r) => webhooks.getTreeItem(r))).includes(secret), 'no row shows it');
    const onServer = (await client.listWebhooks({ limit: 100 })).data.find((w) => w.id === created.id);
    assert.strictEqual(onServer?.url, url);
    assert.deepStrictEqual([...(onServer?.events ?? [])].sort(), ['run.completed', 'run.failed']);

    // Not https: refused before anything is sent.
    const errors: Shown[] = [];
    const before = (await client.listWebhooks({ limit: 100 })).data.length;
    const refused = await withWindow({ showWarningMessage: messages(errors, () => undefined) }, () =>
      vscode.commands.executeCommand('agentRuntime.createWebhook', {
        url: 'http://receiver.invalid/hook',
        events: ['run.completed'],
      }),
    );
    assert.strictEqual(refused, undefined);
    assert.ok(
      errors.some((e) => /https/.test(e.message)),
      JSON.stringify(errors),
    );
    assert.strictEqual((await client.listWebhooks({ limit: 100 })).data.length, before, 'nothing was created');

    // Send Test Delivery: the receiver does not exist, and the sentence says what happened.
    const told: Shown[] = [];
    const sentence = await withWindow(
      {
        showWarningMessage: messages(told, () => undefined),
        showInformationMessage: messages(told, () => undefined),
      },
      () => vscode.commands.executeCommand<string>('agentRuntime.testWebhook', { id: created.id }),
    );
    assert.match(String(sentence), /^Test delivery failed after \d+ ms: /);
    assert.ok(told.some((m) => m.message === sentence));

    // Delete after asking.
    const asked: Shown[] = [];
    const deleted = await withWindow({ showWarningMessage: messages(asked, (items) => items[0]) }, () =>
      vscode.commands.executeCommand<boolean>('agentRuntime.deleteWebhook', { id: created.id }),
    );
    assert.strictEqual(deleted, true);
    assert.strictEqual(asked[0]?.options?.modal, true);
    assert.ok(!(await client.listWebhooks({ limit: 100 })).data.some((w) => w.id === created.id));
    assert.ok(!webhooks.entries.some((w) => w.id === created.id));
  });

  for (const resource of ['tools', 'connectors', 'webhooks'] as const) {
    it(`a service without ${resource}: that view shows a message instead of rows, the others still list`, async () => {
      const { agentAccess } = await extensionApi();
      const trees = { tools: agentAccess.tools, connectors: agentAccess.connectors, webhooks: agentAccess.webhooks };
      await admin('/faults', { missingEndpoints: [resource] });
      try {
        for (const tree of Object.values(trees)) {
          tree.refresh();
        }
        assert.deepStrictEqual(await trees[resource].getChildren(), []);
        const view = trees[resource].view as vscode.TreeView<unknown>;
        assert.match(String(view.message), new RegExp(`does not offer ${resource}`));
        const other = resource === 'tools' ? trees.connectors : trees.tools;
        assert.ok((await other.getChildren()).length > 0, 'another view still lists');
        assert.strictEqual((other.view as vscode.TreeView<unknown>).message, undefined);
      } finally {
        await clearFaults();
        for (const tree of Object.values(trees)) {
          tree.refresh();
        }
      }
      assert.ok((await trees[resource].getChildren()).length > 0 || resource === 'webhooks');
    });
  }
});
