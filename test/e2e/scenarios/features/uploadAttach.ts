// Select two workspace files in the Explorer, right-click, Upload and Attach to New Task, type
// the objective: the server has one task attaching both files, and the sidebar shows the task,
// then its run, then the run's artifacts.
import * as assert from 'node:assert';
import { escapeRegExp } from '../../harness/workbench';
import { type Scenario } from '../types';
import { UI } from '../ui';
import { getRun, listArtifacts, listFiles, listTasks, refreshView, TERMINAL, until } from './api';

const OBJECTIVE = 'Summarise the quarterly report and the notes';

export const uploadAndAttach: Scenario = {
  id: 'upload-and-attach',
  title: 'explorer "Upload and Attach to New Task..." on two files: one task with both, its run, then its artifacts',
  files: { 'report.md': '# Quarterly report\n\nRevenue grew.\n', 'notes.md': '# Notes\n\nAsk about hiring.\n' },
  runtime: { eventDelayMs: 20 },
  // See Workbench.selectExplorerRows: an editor opening must not re-select its file under a Ctrl+click.
  settings: { 'explorer.autoReveal': false },
  async run(ctx) {
    const { workbench, runtime, shot } = ctx;
    const [, second] = await workbench.selectExplorerRows(['notes.md', 'report.md']);
    await workbench.contextMenu(second, UI.menu.uploadAndAttach);
    await workbench.answerInput(UI.objectivePrompt, OBJECTIVE);
    await workbench.answerInput(UI.capPrompt, '');

    const task = await until('the task on the server', async () =>
      (await listTasks(runtime)).find((t) => t.objective === OBJECTIVE),
    );
    assert.strictEqual(
      (await listTasks(runtime)).filter((t) => t.objective === OBJECTIVE).length,
      1,
      'exactly one task',
    );
    const files = await listFiles(runtime);
    const ids = ['notes.md', 'report.md'].map((name) => files.find((f) => f.filename === name)?.id);
    assert.ok(ids.every(Boolean), `not both files were uploaded: ${files.map((f) => f.filename).join(', ')}`);
    const attached = (task.attachments ?? []).map((a) => a.fileId ?? a.file_id).sort();
    assert.deepStrictEqual(attached, [...ids].sort(), 'the task does not carry both uploaded files');

    await workbench.openContainer(UI.container);
    await workbench.treeRow(UI.tasksView, OBJECTIVE);
    await shot('task-in-sidebar');
    assert.ok(task.run_id, 'the server gave the task no run');
    const runId = task.run_id;
    const ended = await until('the run to end', async () => {
      const run = await getRun(runtime, runId);
      return TERMINAL.has(run.status) ? run.status : undefined;
    });
    const [artifact] = await listArtifacts(runtime, runId);
    assert.ok(artifact, 'the run produced no artifact');
    // The view learns of the end by its poll and redraws the task's row; VS Code then drops the
    // handles of that row's children until it asks for them again, and a right-click on the run
    // row in that gap runs the menu's command with no row ("Choose a run in the Tasks view
    // first.", seen in CI under load). So: see the end arrive by the poll, then refresh once (with
    // nothing unfinished left, no poll redraws a row after that) and act on the fresh rows.
    // A row's text runs label and description together ("…the notescompleted · 7:02 PM").
    await workbench.treeRow(UI.tasksView, new RegExp(`${escapeRegExp(OBJECTIVE)}.*${ended}`, 'i'));
    await refreshView(ctx, 'tasks');
    const taskRow = await workbench.treeRow(UI.tasksView, OBJECTIVE);
    if ((await taskRow.getAttribute('aria-expanded')) === 'false') {
      await taskRow.click();
    }
    const runRow = await workbench.treeRow(UI.tasksView, new RegExp(`${UI.firstRunRow.source}.*${ended}`, 'i'));
    await workbench.contextMenu(runRow, UI.menu.showArtifacts);
    await workbench.treeRow(UI.tasksView, artifact.name);
    await shot('task-run-artifacts');
  },
};
