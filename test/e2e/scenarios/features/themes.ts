// A real run (two documents, the built-in agent, its artifacts) watched to the end in the light,
// dark and high-contrast themes, and once in German (code-server --locale de: the extension's
// manifest and l10n bundle in German): the panel renders with each theme's colours, and the shots
// of it are the README's pictures (copied to docs/images/ when E2E_DOCS_IMAGES=1).
import { type Scenario, type ScenarioContext } from '../types';
import { UI, UI_DE } from '../ui';
import { createTask, getRun, refreshView, TERMINAL, until, uploadFile } from './api';
import { docsShot, PICTURE_SETTINGS } from './docsImages';
import { runPanelFrame, waitForRow } from './runPanel';

const NOTES = `# Design notes

## Goals
Keep uploads streaming and memory flat.

## Open questions
Should artifacts be versioned?
`;
const CHECKLIST = `# Release checklist

## Before
Run every test.

## After
Announce the release.
`;

interface RunLabels {
  tasksView: string;
  refreshTasks: string;
  watchRun: string;
  /** Text the finished panel shows in this language. */
  summary?: string;
}

const ENGLISH: RunLabels = {
  tasksView: UI.tasksView,
  refreshTasks: UI.commands.refreshTasks,
  watchRun: UI.menu.watchRun,
};

async function watchRealRun(ctx: ScenarioContext, shotName: string, labels: RunLabels = ENGLISH): Promise<void> {
  const { workbench, runtime } = ctx;
  const files = [
    await uploadFile(runtime, 'design-notes.md', NOTES),
    await uploadFile(runtime, 'release-checklist.md', CHECKLIST),
  ];
  const objective = 'Summarise the design notes and the release checklist';
  const task = await createTask(
    runtime,
    objective,
    files.map((f) => f.id),
  );
  const runId = task.run_id;
  if (!runId) {
    throw new Error('the task has no run');
  }
  await workbench.openContainer(UI.container);
  await refreshView(ctx, 'tasks', labels.refreshTasks);
  const row = await workbench.treeRow(labels.tasksView, objective);
  await workbench.contextMenu(row, labels.watchRun);
  await until('the run to end', async () => (TERMINAL.has((await getRun(runtime, runId)).status) ? true : undefined));
  const log = runtime.eventLog(runId);
  const frame = await runPanelFrame(workbench);
  await waitForRow(frame, log[log.length - 1].sequence);
  // The summary lists the artifacts once the host has fetched them.
  // (Scoped to the list: timeline rows name report.md too, before the artifacts arrive.)
  await frame.locator('#artifacts li', { hasText: 'report.md' }).first().waitFor({ timeout: 30_000 });
  if (labels.summary) {
    await frame.getByText(labels.summary, { exact: true }).first().waitFor({ timeout: 30_000 });
  }
  await refreshView(ctx, 'tasks', labels.refreshTasks);
  await docsShot(ctx, shotName);
}

function themed(theme: string, colorTheme: string): Scenario {
  return {
    id: `run-panel-${theme}`,
    title: `a real run watched to its artifacts in the ${colorTheme} theme`,
    runtime: { eventDelayMs: 150 },
    settings: { ...PICTURE_SETTINGS, 'workbench.colorTheme': colorTheme },
    run: (ctx) => watchRealRun(ctx, `run-panel-${theme}`),
  };
}

export const runPanelLight = themed('light', 'Default Light Modern');
export const runPanelDark = themed('dark', 'Default Dark Modern');
export const runPanelHighContrast = themed('high-contrast', 'Default High Contrast');

export const runPanelGerman: Scenario = {
  id: 'run-panel-german',
  title: 'a real run watched to its artifacts with the editor in German (the l10n bundle and manifest)',
  runtime: { eventDelayMs: 150 },
  settings: { ...PICTURE_SETTINGS, 'workbench.colorTheme': 'Default Light Modern' },
  locale: 'de',
  run: (ctx) => watchRealRun(ctx, 'run-panel-german', { ...UI_DE }),
};
