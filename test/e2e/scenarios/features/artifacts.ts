// A finished run's artifacts from the Tasks view: one opened in an editor, one saved into the
// workspace through the save dialog.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Scenario, type ScenarioContext } from '../types';
import { UI } from '../ui';
import { type ArtifactRecord, createTask, getRun, listArtifacts, refreshView, TERMINAL, until } from './api';

/** A finished run's artifact, shown in the Tasks view (task -> run -> Show Artifacts): its row and ids. */
async function finishedArtifactRow(ctx: ScenarioContext, objective: string, pick: (a: ArtifactRecord) => boolean) {
  const { workbench, runtime } = ctx;
  const task = await createTask(runtime, objective);
  assert.ok(task.run_id);
  const runId = task.run_id;
  await until('the run to complete', async () =>
    TERMINAL.has((await getRun(runtime, runId)).status) ? true : undefined,
  );
  const artifact = (await listArtifacts(runtime, runId)).find(pick);
  assert.ok(artifact, 'the run produced no such artifact');
  await workbench.openContainer(UI.container);
  await refreshView(ctx, 'tasks');
  const taskRow = await workbench.treeRow(UI.tasksView, objective);
  if ((await taskRow.getAttribute('aria-expanded')) === 'false') {
    await taskRow.click();
  }
  const runRow = await workbench.treeRow(UI.tasksView, UI.firstRunRow);
  await workbench.contextMenu(runRow, UI.menu.showArtifacts);
  return { runId, artifact, row: await workbench.treeRow(UI.tasksView, artifact.name) };
}

export const openArtifact: Scenario = {
  id: 'open-artifact',
  title: 'open an artifact of a finished run in the editor',
  runtime: { eventDelayMs: 0 },
  async run(ctx) {
    const { workbench, shot } = ctx;
    const { artifact, row } = await finishedArtifactRow(ctx, 'Write a report to open', () => true);
    await workbench.contextMenu(row, UI.menu.openArtifact);
    await workbench.waitForEditorTab(artifact.name);
    await shot('artifact-open');
  },
};

export const saveArtifact: Scenario = {
  id: 'save-artifact',
  title: 'save an artifact of a finished run into the workspace',
  runtime: { eventDelayMs: 0 },
  async run(ctx) {
    const { workbench, workspace, shot } = ctx;
    const { runId, artifact, row } = await finishedArtifactRow(ctx, 'Write a summary to save', (a) =>
      a.name.endsWith('.json'),
    );
    await workbench.contextMenu(row, UI.menu.saveArtifact);
    const target = path.join(workspace, artifact.name);
    await workbench.confirmSaveDialog(/Save Artifact As/i, artifact.name);
    await workbench.waitForNotification(new RegExp(`Saved ${artifact.name.replace(/[.]/g, '\\.')}`));
    await shot('artifact-saved');
    const saved = JSON.parse(fs.readFileSync(target, 'utf8')) as { run_id?: string };
    assert.strictEqual(saved.run_id, runId, "the saved file is the run's summary");
    const leftovers = fs.readdirSync(workspace).filter((f) => f.endsWith('.part'));
    assert.deepStrictEqual(leftovers, [], 'no temporary file is left beside it');
  },
};
