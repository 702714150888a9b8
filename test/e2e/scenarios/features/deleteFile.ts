// Delete an uploaded file from the Files view (with the confirmation).
import * as assert from 'node:assert';
import { type Scenario } from '../types';
import { UI } from '../ui';
import { fileStatus, refreshView, until, uploadFile } from './api';

export const deleteFile: Scenario = {
  id: 'delete-file',
  title: 'delete a file from the Files view; it is gone from the view and the server',
  async run({ workbench, runtime, runtimeLog, shot }) {
    const file = await uploadFile(runtime, 'to-delete.txt', 'short-lived\n');
    await workbench.openContainer(UI.container);
    await refreshView({ workbench, runtimeLog }, 'files');
    const row = await workbench.treeRow(UI.filesView, 'to-delete.txt');
    await shot('before-delete');
    await workbench.contextMenu(row, UI.menu.deleteFile);
    await workbench.clickDialogButton('Delete');
    await workbench
      .treeRows(UI.filesView, 'to-delete.txt')
      .first()
      .waitFor({ state: 'detached', timeout: workbench.timeoutMs });
    await until('the server to forget the file', async () =>
      (await fileStatus(runtime, file.id)) === 404 ? true : undefined,
    );
    assert.strictEqual(await fileStatus(runtime, file.id), 404);
    await shot('after-delete');
  },
};
