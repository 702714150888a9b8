// A sidebar command run without a row (the Command Palette, a keybinding) acts on the row selected
// in the real tree view.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { TreeNode } from '../../src/views/nodes';
import { directClient, extensionApi, signInForTests, waitFor } from './support';

describe('a sidebar command without a row (selection)', () => {
  before(async () => {
    await extensionApi();
    await signInForTests();
  });

  it('Copy ID from the palette copies the id of the file row selected in the Files view', async () => {
    const api = await extensionApi();
    const client = directClient();
    try {
      const file = await client.uploadBytes(new TextEncoder().encode('selected\n'), {
        filename: `selected-${Date.now()}.txt`,
        purpose: 'task_input',
      });
      api.sidebar.files.refresh();
      const isFile = (n: TreeNode): boolean => (n as { entityId?: string }).entityId === file.id;
      // The view's own reload after refresh() can replace the row objects (and drop the handle a
      // reveal made meanwhile: seen once in CI), so each try takes the current row, reveals it,
      // and the check is by id.
      await waitFor('the file row selected', async () => {
        const row = ((await api.sidebar.filesFilter.getChildren()) ?? []).find(isFile);
        if (!row) {
          return false;
        }
        if (!api.sidebar.filesView.selection.some(isFile)) {
          await api.sidebar.filesView.reveal(row, { select: true, focus: true }).then(undefined, () => undefined);
        }
        return api.sidebar.filesView.selection.some(isFile);
      });
      const copied = await vscode.commands.executeCommand<string[]>('agentRuntime.copyId');
      assert.deepStrictEqual(copied, [file.id]);
      assert.strictEqual(await vscode.env.clipboard.readText(), file.id);
    } finally {
      await client.dispose();
    }
  });
});
