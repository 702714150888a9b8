// Planned: right-click a workspace file, Upload and Attach to New Task, type the objective; the
// task appears in the sidebar with its run, and the server has the file attached.
import * as assert from 'assert';
import { Scenario } from '../types';
import { UI } from '../ui';
import { listFiles, listTasks, until } from './api';

const OBJECTIVE = 'Summarise the quarterly report';

export const uploadAndAttach: Scenario = {
  id: 'upload-and-attach',
  title: 'explorer "Upload and Attach to New Task...": the task appears in the sidebar with its run',
  files: { 'report.md': '# Quarterly report\n\nRevenue grew.\n' },
  async run({ workbench, runtime, shot }) {
    const row = await workbench.explorerRow('report.md');
    await workbench.contextMenu(row, UI.menu.uploadAndAttach);
    await workbench.answerInput(UI.objectivePrompt, OBJECTIVE);

    const task = await until('the task on the server', async () => (await listTasks(runtime)).find((t) => t.objective === OBJECTIVE));
    const file = (await listFiles(runtime)).find((f) => f.filename === 'report.md');
    assert.ok(file, 'report.md was not uploaded');
    const attached = (task.attachments ?? []).map((a) => a.fileId ?? a.file_id);
    assert.deepStrictEqual(attached, [file.id], 'the task does not carry the uploaded file');

    await workbench.openContainer(UI.container);
    const taskRow = await workbench.treeRow(UI.tasksView, OBJECTIVE);
    await shot('task-in-sidebar');
    if ((await taskRow.getAttribute('aria-expanded')) === 'false') await taskRow.click();
    assert.ok(task.run_id, 'the server gave the task no run');
    await workbench.treeRow(UI.tasksView, /run|queued|running|completed/i);
    await shot('task-with-run');
  },
};
