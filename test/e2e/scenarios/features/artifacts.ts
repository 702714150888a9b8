// Planned: open a finished run's artifact in an editor from the Tasks view.
import * as assert from 'assert';
import { Scenario } from '../types';
import { UI } from '../ui';
import { createTask, getRun, listArtifacts, TERMINAL, until } from './api';

export const openArtifact: Scenario = {
  id: 'open-artifact',
  title: 'open an artifact of a finished run in the editor',
  runtime: { eventDelayMs: 0 },
  async run({ workbench, runtime, shot }) {
    const objective = 'Write a report to open';
    const task = await createTask(runtime, objective);
    assert.ok(task.run_id);
    const runId = task.run_id;
    await until('the run to complete', async () => (TERMINAL.has((await getRun(runtime, runId)).status) ? true : undefined));
    const [artifact] = await listArtifacts(runtime, runId);
    assert.ok(artifact, 'the run produced no artifact');

    await workbench.openContainer(UI.container);
    await workbench.runCommand(UI.commands.refreshTasks);
    const taskRow = await workbench.treeRow(UI.tasksView, objective);
    if ((await taskRow.getAttribute('aria-expanded')) === 'false') await taskRow.click();
    const runRow = await workbench.treeRow(UI.tasksView, runId);
    await workbench.contextMenu(runRow, UI.menu.showArtifacts);
    const artifactRow = await workbench.treeRow(UI.tasksView, artifact.name);
    await workbench.contextMenu(artifactRow, UI.menu.openArtifact);
    await workbench.waitForEditorTab(artifact.name);
    await shot('artifact-open');
  },
};
