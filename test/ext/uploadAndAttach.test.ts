// Upload and Attach to New Task: every selected file is uploaded and exactly one task is created
// with one `document` attachment per file.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { type TaskRecord } from '../../src/api/types';
import { directClient, extensionApi, signInForTests } from './support';

describe('upload and attach to a new task', () => {
  before(async () => {
    await extensionApi();
    await signInForTests();
  });

  it('uploads two workspace files and creates exactly one task attaching both', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'no workspace folder');
    const a = vscode.Uri.joinPath(folder, 'upload-a.md');
    const b = vscode.Uri.joinPath(folder, 'upload-b.txt');
    await vscode.workspace.fs.writeFile(a, Buffer.from('# Alpha\n\nFirst document.\n'));
    await vscode.workspace.fs.writeFile(b, Buffer.from('second document\n'));
    const client = directClient();
    try {
      const before = await countTasks(client);
      const objective = `Summarise both files ${Date.now()}`;
      const task = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.uploadAndCreateTask', a, [a, b], {
        objective,
      });
      assert.ok(task && task.id.startsWith('task_'), `no task returned: ${JSON.stringify(task)}`);
      assert.strictEqual(await countTasks(client), before + 1);
      const stored = await client.getTask(task.id);
      assert.strictEqual(stored.objective, objective);
      const attachments = stored.attachments ?? [];
      assert.strictEqual(attachments.length, 2);
      const names = await Promise.all(
        attachments.map(async (att) => {
          assert.strictEqual(att.type, 'document');
          return (await client.getFile(att.fileId)).filename;
        }),
      );
      assert.deepStrictEqual(names.sort(), ['upload-a.md', 'upload-b.txt']);
    } finally {
      await client.dispose();
    }
  });
});

async function countTasks(client: ReturnType<typeof directClient>): Promise<number> {
  let n = 0;
  let after: string | undefined;
  for (;;) {
    const page = await client.listTasks({ limit: 100, after });
    n += page.data.length;
    if (!page.has_more || !page.next_cursor) {
      return n;
    }
    after = page.next_cursor;
  }
}
