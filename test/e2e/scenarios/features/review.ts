// Review Changes: two workspace files uploaded and attached from the Explorer, the
// built-in agent revises them, Review Changes on the run row opens one multi-file diff; one
// hunk applied from the quick pick, undone, then all applied. A file edited after upload gets
// the three-way view, its conflict shown and kept as the user's version.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import type { RuntimeHandle } from '../../../runtime';
import { type Scenario, type ScenarioContext } from '../types';
import { UI } from '../ui';
import { getRun, listTasks, refreshView, TERMINAL, until } from './api';
import { docsShot, PICTURE_SETTINGS } from './docsImages';

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join('\n') + '\n';
const A = lines(14, 'alpha');
const B = lines(13, 'beta');
const C = lines(13, 'gamma');

interface Revision {
  name: string;
  sourceFileId: string;
  text: string;
}

/** The agent's revisions of a run's attachments, read over HTTP (never through the extension). */
async function revisions(runtime: RuntimeHandle, runId: string): Promise<Revision[]> {
  const headers = { authorization: `Bearer ${runtime.apiKey}` };
  const list = (await (await fetch(`${runtime.baseUrl}/v1/runs/${runId}/artifacts?limit=100`, { headers })).json()) as {
    data: { id: string; name: string; file_id?: string; source_file_id?: string }[];
  };
  const out: Revision[] = [];
  for (const a of list.data) {
    if (typeof a.source_file_id !== 'string') {
      continue;
    }
    const res = await fetch(`${runtime.baseUrl}/v1/files/${a.file_id ?? a.id}/content`, { headers });
    out.push({ name: a.name, sourceFileId: a.source_file_id, text: await res.text() });
  }
  return out;
}

/** Explorer: select `names`, Upload and Attach to New Task, wait for the run to end on the server. */
export async function uploadAttachAndFinish(ctx: ScenarioContext, names: string[], objective: string): Promise<string> {
  const { workbench, runtime } = ctx;
  const rows = await workbench.selectExplorerRows(names);
  await workbench.contextMenu(rows[rows.length - 1], UI.menu.uploadAndAttach);
  await workbench.answerInput(UI.objectivePrompt, objective);
  await workbench.answerInput(UI.capPrompt, '');
  const task = await until('the task on the server', async () =>
    (await listTasks(runtime)).find((t) => t.objective === objective),
  );
  assert.ok(task.run_id, 'the server gave the task no run');
  const runId = task.run_id;
  await until('the run to end', async () => (TERMINAL.has((await getRun(runtime, runId)).status) ? true : undefined));
  return runId;
}

/** Tasks view: the task's run row, context menu Review Changes; waits for the multi-file diff. */
export async function reviewFromRunRow(
  ctx: ScenarioContext,
  objective: string,
  runRowLabel: RegExp = /Run 1(?!\d)/,
): Promise<void> {
  const { workbench } = ctx;
  await workbench.openContainer(UI.container);
  await refreshView(ctx, 'tasks');
  const taskRow = await workbench.treeRow(UI.tasksView, objective);
  if ((await taskRow.getAttribute('aria-expanded')) === 'false') {
    await taskRow.click();
  }
  // The task's only run: rows are labelled "Run 1", "Run 2"... once the task's runs are listed.
  const runRow = await workbench.treeRow(UI.tasksView, runRowLabel);
  await workbench.contextMenu(runRow, UI.menu.reviewChanges);
  await workbench.waitForEditorTab(UI.reviewEditorTitle(objective));
}

/** See Workbench.selectExplorerRows: an editor opening must not re-select its file under a Ctrl+click. */
/**
 * A changed file's entry in VS Code's multi-file diff: its name once, no status letter (VS Code
 * marks a pair whose paths differ "R", renamed, with the other side's name struck through), and no
 * id, encoded URI or side in words where the folder goes.
 */
export async function assertShownAsModified(entry: Locator, name: string): Promise<void> {
  const header = entry.locator('.header');
  const text = (await header.innerText()).replace(/\u00a0/g, ' ').trim();
  assert.strictEqual(text.split(name).length - 1, 1, `the header names ${name} once: ${text}`);
  const status = header.locator('.status');
  assert.strictEqual((await status.textContent())?.trim() ?? '', '', `${name} is shown with a status letter: ${text}`);
  assert.ok(!(await status.evaluate((e) => e.classList.contains('renamed'))), `${name} is shown as renamed`);
  assert.strictEqual(
    (await header.locator('.title.original').innerText()).trim(),
    '',
    'another name is struck through',
  );
  assert.doesNotMatch(
    text,
    /%[0-9A-F]{2}|run_|file_|agent's|as sent|revision \d/,
    `the header says more than the file: ${text}`,
  );
}

export const EXPLORER_MULTI_SELECT = { 'explorer.autoReveal': false };

const EDITOR_LINES = '.part.editor .editor-instance .monaco-editor .view-lines';

/** The agent's middle-line mark, to tell one hunk from all of them. */
const marker = (text: string) => text.split('\n').find((l) => l.endsWith(' (reviewed)')) ?? '(reviewed)';

/** Waits until the active text editor's visible lines satisfy `check`. */
export async function editorShows(ctx: ScenarioContext, check: (text: string) => boolean, what: string): Promise<void> {
  const lines = ctx.page.locator(EDITOR_LINES).filter({ visible: true }).first();
  await until(
    what,
    async () => (check((await lines.innerText().catch(() => '')).replace(/\u00a0/g, ' ')) ? true : undefined),
    30_000,
  );
}

/** File: Save All (its palette title differs between VS Code versions). */
export async function saveAll(ctx: ScenarioContext): Promise<void> {
  for (const title of UI.commands.saveAll) {
    if (
      await ctx.workbench.runCommand(title, 8_000).then(
        () => true,
        () => false,
      )
    ) {
      return;
    }
  }
  throw new Error('the Command Palette has no Save All command');
}

const read = (ctx: ScenarioContext, name: string) => fs.readFileSync(path.join(ctx.workspace, name), 'utf8');

async function diskBecomes(
  ctx: ScenarioContext,
  name: string,
  expected: (text: string) => boolean,
  what: string,
): Promise<string> {
  return until(
    what,
    async () => {
      const text = read(ctx, name);
      return expected(text) ? text : undefined;
    },
    30_000,
  );
}

/**
 * The file once it differs from `before` and has stopped changing. VS Code's save is not atomic
 * (truncate, then write): a read in between saw an empty file and the checks failed on it.
 */
async function diskSettles(ctx: ScenarioContext, name: string, before: string, what: string): Promise<string> {
  return until(
    what,
    async () => {
      const first = read(ctx, name);
      if (first === before || first === '') {
        return undefined;
      }
      await new Promise((r) => setTimeout(r, 300));
      return read(ctx, name) === first ? first : undefined;
    },
    30_000,
  );
}

export const reviewChanges: Scenario = {
  id: 'review-changes',
  title: 'Review Changes on a run: the multi-file diff, one hunk from the quick pick, undo, apply all',
  files: { 'review-a.md': A, 'review-b.md': B },
  settings: { ...EXPLORER_MULTI_SELECT, ...PICTURE_SETTINGS },
  runtime: { eventDelayMs: 0 },
  async run(ctx) {
    const { workbench, page, runtime, shot } = ctx;
    const objective = 'Review both notes';
    const runId = await uploadAttachAndFinish(ctx, ['review-a.md', 'review-b.md'], objective);
    const revised = await revisions(runtime, runId);
    assert.strictEqual(revised.length, 2, 'the agent revises both files');
    const revisedA = revised.find((r) => r.name === 'review-a.md')?.text;
    const revisedB = revised.find((r) => r.name === 'review-b.md')?.text;
    assert.ok(revisedA && revisedB);

    await reviewFromRunRow(ctx, objective);
    // The picture shows the diff itself, not the editor still loading it.
    await ctx.page
      .locator('.monaco-diff-editor .view-line', { hasText: 'Revised for' })
      .first()
      .waitFor({ timeout: workbench.timeoutMs });
    await docsShot(ctx, 'review-changes');

    // One hunk: the agent's closing line of review-a.md.
    await workbench.clickNotificationButton(/The run changed 2 files/, UI.review.choose);
    const closing = revisedA.trimEnd().split('\n').pop() ?? '';
    const item = workbench.quickInput
      .locator('.quick-input-list .monaco-list-row', { hasText: closing })
      .filter({ hasText: 'review-a.md' })
      .first();
    await item.waitFor({ timeout: 30_000 });
    await shot('hunk-pick');
    // In a multi-select quick pick a click on the row toggles its check box.
    await item.locator('.label-name').first().click();
    await workbench.quickInput.locator('.quick-input-count', { hasText: /1 Selected/ }).waitFor({ timeout: 10_000 });
    await workbench.quickInput.getByRole('button', { name: 'OK' }).click();
    // A one-file edit is left unsaved (VS Code saves refactorings only across several files): look in the editor.
    await workbench.explorerRow('review-a.md').then((row) => row.dblclick());
    await workbench.waitForEditorTab('review-a.md');
    await editorShows(
      ctx,
      (text) => text.includes('alpha line 14') && text.includes(closing) && !text.includes(marker(revisedA)),
      'the chosen hunk alone in review-a.md',
    );
    assert.strictEqual(read(ctx, 'review-b.md'), B, 'the other file is untouched');

    // Undo in the file's editor takes the edit back.
    await page.locator(EDITOR_LINES).filter({ visible: true }).first().click();
    await page.keyboard.press('Control+z');
    await editorShows(
      ctx,
      (text) => text.includes('alpha line 14') && !text.includes(closing),
      'undo to take the hunk back',
    );
    await shot('undone');

    await workbench.runCommand(UI.commands.applyReviewChanges);
    await workbench.waitForNotification(/Applied \d+ changes? to 2 files/);
    await saveAll(ctx);
    await diskBecomes(ctx, 'review-a.md', (t) => t === revisedA, 'Apply Changes to write review-a.md');
    await diskBecomes(ctx, 'review-b.md', (t) => t === revisedB, 'Apply Changes to write review-b.md');
    await shot('applied-all');
  },
};

export const reviewChangesThreeWay: Scenario = {
  id: 'review-changes-three-way',
  title: "Review Changes on a file edited after upload: three-way view, the conflict shown and kept as the user's",
  files: { 'review-c.md': C },
  runtime: { eventDelayMs: 0 },
  async run(ctx) {
    const { workbench, runtime, shot } = ctx;
    const objective = 'Review the gamma notes';
    const runId = await uploadAttachAndFinish(ctx, ['review-c.md'], objective);
    const [revision] = await revisions(runtime, runId);
    assert.ok(revision, 'the agent revises the file');
    const marked = revision.text.split('\n').find((l) => l.endsWith(' (reviewed)'));
    assert.ok(marked, 'the agent marks a middle line');
    const agentsLine = marked.slice(0, -' (reviewed)'.length);
    // The user edits the same line after the upload: a conflict.
    const edited = C.replace(`${agentsLine}\n`, `${agentsLine} edited by me\n`);
    fs.writeFileSync(path.join(ctx.workspace, 'review-c.md'), edited);

    await reviewFromRunRow(ctx, objective);
    const toast = await workbench.waitForNotification(/changed since it was uploaded/);
    assert.match(await toast.innerText(), /1 conflicting change is left as your version/);
    await shot('three-way');
    await workbench.clickNotificationButton(/changed since it was uploaded/, UI.review.showConflicts);
    await workbench.waitForEditorTab(/conflicts marked/);
    await shot('conflicts');

    await workbench.runCommand(UI.commands.applyReviewChanges);
    await workbench.waitForNotification(/conflicting changes? (was|were) kept as your version/);
    await saveAll(ctx);
    const merged = await diskSettles(ctx, 'review-c.md', edited, 'the merge to be written');
    const revisedLines = revision.text.trimEnd().split('\n');
    const mergedLines = merged.trimEnd().split('\n');
    assert.ok(mergedLines.includes(`${agentsLine} edited by me`), 'the conflicting line stays as the user wrote it');
    assert.ok(!mergedLines.includes(marked), "the agent's side of the conflict is not written");
    assert.strictEqual(mergedLines[0], revisedLines[0], "the agent's first line is carried over");
    assert.strictEqual(
      mergedLines[mergedLines.length - 1],
      revisedLines[revisedLines.length - 1],
      "the agent's closing line is carried over",
    );
    await shot('merged');
  },
};
