// The run log as a working tool, in code-server against a finished run of 400 events
// with one failing tool call in it: find the call by text (its row marked, "1 of 1"), filter to
// problems (only the failing call and the run's end remain), jump to an early step from the
// outline, export the run's events as JSON lines to a file picked in the save dialog and open
// it, and open the run's transcript as text in an editor.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { type Scenario } from '../types';
import { UI } from '../ui';
import { until } from './api';
import { editorShows } from './review';
import { runPanelFrame, waitForRow, watchFromTasks } from './runPanel';

/** The sequences of the timeline rows on screen, in order. */
async function visibleSequences(frame: Frame): Promise<number[]> {
  return frame.evaluate<number[]>(`Array.from(document.querySelectorAll(${JSON.stringify(UI.runPanelRow)}))
    .filter((r) => r.getClientRects().length > 0).map((r) => Number(r.dataset.sequence)).sort((a, b) => a - b)`);
}

export const runLogTools: Scenario = {
  id: 'run-log-tools',
  title:
    'The run log: find a tool call by text in a finished run, filter to problems, jump from the outline, export it to a picked file, open the transcript',
  runtime: { eventDelayMs: 0 },
  async run(ctx) {
    const objective = 'Search my long run';
    const runId = await ctx.runtime.createSyntheticRun({ events: 400, terminal: null, taskObjective: objective });
    const needle = ctx.runtime.appendEvent(runId, 'tool.called', {
      step_id: 'step_99',
      tool: 'needle_finder',
      status: 'failed',
      error: 'the disk is full',
    });
    ctx.runtime.endRun(runId, 'failed');
    const log = ctx.runtime.eventLog(runId);
    const end = log[log.length - 1].sequence;

    await watchFromTasks(ctx, objective);
    const frame = await runPanelFrame(ctx.workbench);
    await waitForRow(frame, end);

    // Find: the host searches the whole log; the match is shown, counted and marked in place.
    const search = frame.locator('#search');
    await search.fill('needle_finder');
    await search.press('Enter');
    await frame.locator('#find-status', { hasText: /^\s*1 of 1\s*$/ }).waitFor({ timeout: 30_000 });
    await frame.locator(`${UI.runPanelRow}[data-sequence="${needle}"] mark`).first().waitFor({ timeout: 30_000 });
    await ctx.shot('found');
    await search.press('Escape');

    // Filter to problems: only the failing call and the run's failed end are left.
    await frame.locator('#status-filter').selectOption('problems');
    await until(
      'only the problems to be shown',
      async () => {
        const shown = await visibleSequences(frame);
        return shown.length === 2 && shown[0] === needle && shown[1] === end ? true : undefined;
      },
      30_000,
    );
    await ctx.shot('problems');
    await frame.locator('#status-filter').selectOption('');
    await waitForRow(frame, end);

    // The outline jumps to an early step: its row is brought into view and focused.
    const step3 = frame.locator('#outline-list .outline-item[data-step-id="step_3"]');
    await step3.click();
    // The click focuses the outline's own row at once (it carries the step's sequence too); the
    // timeline's row takes the focus only when the host's page around step 3 has arrived.
    const focusedTimelineRow = `(() => { const a = document.activeElement; return a instanceof HTMLElement && a.matches(${JSON.stringify(UI.runPanelRow)}) ? a.dataset.sequence : ''; })()`;
    await until(
      'the timeline to focus step 3 (sequence 10)',
      async () => ((await frame.evaluate(focusedTimelineRow)) === '10' ? true : undefined),
      30_000,
    );
    const shown = await visibleSequences(frame);
    assert.ok(
      shown.includes(10) && !shown.includes(end),
      `the timeline shows the step, not the end: ${shown.slice(0, 5).join(', ')}…`,
    );
    await ctx.shot('outline-jump');

    // Open as text: the transcript (from the host's copy of the whole log) in an editor.
    await frame.locator('#open-transcript').click();
    // Named <run id>.<service key>.transcript.md (two services' runs with one id stay apart).
    await ctx.workbench.waitForEditorTab(new RegExp(`${runId}\\.[0-9a-f]+\\.transcript`));
    // Server text is escaped Markdown in the transcript (run\_…); its words read the same.
    await editorShows(
      ctx,
      (text) => text.includes(`Objective: ${objective}`) && /Status: failed/.test(text),
      'the transcript to show the run',
    );
    await ctx.shot('transcript');

    // Export: back in the panel (the transcript's editor covers it), JSON lines of every event to
    // the file picked in the save dialog, then opened from the notification.
    await (await ctx.workbench.waitForEditorTab(objective)).click();
    const panel = await runPanelFrame(ctx.workbench);
    await panel.locator('#export-jsonl').click();
    await ctx.workbench.confirmSaveDialog(/Export Run/i, `${runId}.jsonl`);
    await ctx.workbench.clickNotificationButton(
      new RegExp(`Exported ${log.length} events to ${runId}\\.jsonl`),
      'Open',
    );
    await ctx.workbench.waitForEditorTab(new RegExp(`${runId}\\.jsonl`));
    const lines = fs
      .readFileSync(path.join(ctx.workspace, `${runId}.jsonl`), 'utf8')
      .trim()
      .split('\n');
    const exported = lines.map((line) => JSON.parse(line) as { sequence?: number; data?: { sequence?: number } });
    const sequences = exported.map((e) => e.data?.sequence ?? e.sequence);
    assert.deepStrictEqual(
      sequences,
      log.map((e) => e.sequence),
      'the file holds every event of the run, once, in order',
    );
    await ctx.shot('exported');
  },
};
