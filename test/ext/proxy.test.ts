// The extension behind a real forward proxy (squid) set in the USER settings (`http.proxy`):
// sign in, browse the tasks, upload and attach, and watch the run all work, and squid's access
// log shows the CONNECT tunnels to the service. The service is the reference runtime behind an
// HTTPS front whose certificate comes from a private CA made here and trusted through
// NODE_EXTRA_CA_CERTS (the transport reads that file when it builds a client, so setting it in
// this extension host's environment before the settings change is enough). Its host name,
// agent-runtime.test, is known only to squid's hosts file: this process cannot resolve it, so
// every request that succeeds went through the proxy, and the proxy looked the name up.
import * as assert from 'node:assert';
import { lookup } from 'node:dns/promises';
import * as vscode from 'vscode';
import type { TaskRecord } from '../../src/api/types';
import type { TreeNode } from '../../src/views/nodes';
import { makePrivateCa, type PrivateCa, startTlsFront, type TlsFront } from '../unit/api/proxyTlsKit';
import { type SquidHandle, startSquid } from '../unit/api/squidKit';
import { directClient, extensionApi, testEnv, waitFor } from './support';

const SERVICE_HOST = 'agent-runtime.test';
type Provider = { getChildren(node?: TreeNode): Promise<TreeNode[]> | TreeNode[] | undefined | null };

describe('behind a proxy set in the user settings (squid)', function () {
  // openssl and squid take seconds to start.
  this.timeout(120_000);
  let ca: PrivateCa | undefined;
  let front: TlsFront | undefined;
  let squid: SquidHandle | undefined;
  const savedCaEnv = process.env.NODE_EXTRA_CA_CERTS;
  let savedBaseUrl: string | undefined;

  before(async () => {
    await extensionApi();
    ca = await makePrivateCa('Agent Runtime Ext Test Private CA');
    const runtimePort = Number(new URL(testEnv().baseUrl).port);
    front = await startTlsFront(runtimePort, await ca.issue(SERVICE_HOST, [SERVICE_HOST]));
    squid = await startSquid({ hosts: { [SERVICE_HOST]: '127.0.0.1' } });
    savedBaseUrl = vscode.workspace.getConfiguration('agentRuntime').inspect<string>('baseUrl')?.workspaceValue;
  });

  after(async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('http').update('proxy', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace
      .getConfiguration('agentRuntime')
      .update('baseUrl', savedBaseUrl, vscode.ConfigurationTarget.Workspace);
    if (savedCaEnv === undefined) {
      delete process.env.NODE_EXTRA_CA_CERTS;
    } else {
      process.env.NODE_EXTRA_CA_CERTS = savedCaEnv;
    }
    await waitFor('the original service address', () => api.service.serviceUrl === testEnv().baseUrl);
    await squid?.close();
    await front?.close();
    await ca?.remove();
  });

  it('signs in, lists tasks, uploads and attaches, and watches a run through squid', async () => {
    assert.ok(ca && front && squid);
    // The claim below rests on this: only squid knows the service's name.
    await assert.rejects(
      lookup(SERVICE_HOST),
      `${SERVICE_HOST} resolves on this machine; the test would not prove the proxy was used`,
    );
    const api = await extensionApi();
    const serviceUrl = `https://${SERVICE_HOST}:${front.port}`;

    process.env.NODE_EXTRA_CA_CERTS = ca.certFile;
    await vscode.workspace.getConfiguration('http').update('proxy', squid.url, vscode.ConfigurationTarget.Global);
    assert.strictEqual(vscode.workspace.getConfiguration('http').inspect<string>('proxy')?.globalValue, squid.url);
    await vscode.workspace
      .getConfiguration('agentRuntime')
      .update('baseUrl', serviceUrl, vscode.ConfigurationTarget.Workspace);
    await waitFor('the extension to use the proxied service address', () => api.service.serviceUrl === serviceUrl);

    // Sign in: the key is checked against the service before it is stored.
    const signedIn = await vscode.commands.executeCommand<boolean>('agentRuntime.signIn', { apiKey: testEnv().apiKey });
    assert.strictEqual(signedIn, true, 'sign in through the proxy failed');

    // Browse: a task made directly on the runtime shows in the Tasks view, listed through the proxy.
    const direct = directClient();
    let seeded: TaskRecord;
    try {
      seeded = await direct.createTask({ objective: `Seen through the proxy ${Date.now()}` });
    } finally {
      await direct.dispose();
    }
    const rows = await waitFor('the seeded task in the Tasks view', async () => {
      api.sidebar.tasks.refresh();
      const found = (await children(api.sidebar.tasks)).filter(
        (r) => (r as { entityId?: string }).entityId === seeded.id,
      );
      return found.length > 0 ? found : undefined;
    });
    assert.strictEqual(rows.length, 1);

    // Upload and attach: the workspace file reaches the service, and the task gets it.
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'no workspace folder');
    const file = vscode.Uri.joinPath(folder, 'proxied-upload.md');
    await vscode.workspace.fs.writeFile(file, Buffer.from('# Through squid\n\nUploaded behind a proxy.\n'));
    const task = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.uploadAndCreateTask', file, [file], {
      objective: `Proxied ${Date.now()}`,
    });
    assert.ok(task && task.id.startsWith('task_'), `no task returned: ${JSON.stringify(task)}`);
    assert.strictEqual(task.attachments?.length, 1);
    const runId = typeof task.run_id === 'string' ? task.run_id : undefined;
    assert.ok(runId, 'the task started no run');

    // Watch the run: the panel's event stream delivers events through the tunnel.
    api.runPanels.open(runId, { objective: task.objective });
    await waitFor('events of the watched run', () => (api.runs.get(runId)?.lastSequence ?? 0) > 0, 30_000);

    // Squid logs a tunnel when it closes: close the panel and drop the proxy, which replaces the client.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('http').update('proxy', undefined, vscode.ConfigurationTarget.Global);
    const line = await squid.waitForLine(
      (l) => l.method === 'CONNECT' && l.url === `${SERVICE_HOST}:${front?.port}`,
      'the CONNECT tunnel to the service',
    );
    assert.strictEqual(line.result, 'TCP_TUNNEL/200');
    assert.ok(front.handshakes() > 0);
    // Every tunnel is in the log once it closed (one handshake at the front each), so the check
    // below sees the headers of them all, not only of the sign-in check's early one.
    const lines = await waitFor('a line for every tunnel to the service', async () => {
      const all = await squid?.settledLog();
      const tunnels = all?.filter((l) => l.method === 'CONNECT' && l.url === `${SERVICE_HOST}:${front?.port}`) ?? [];
      return tunnels.length >= (front?.handshakes() ?? 0) && all;
    });
    // The API key travels inside the tunnel only: squid never saw it.
    for (const l of lines) {
      assert.ok(!l.raw.includes(testEnv().apiKey), l.raw);
    }
  });
});

async function children(provider: Provider, node?: TreeNode): Promise<TreeNode[]> {
  return (await provider.getChildren(node)) ?? [];
}
