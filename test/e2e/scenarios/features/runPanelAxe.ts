// The run panel checked by a real accessibility engine: axe-core runs inside the
// panel's webview while events stream in, with the kind filter and the search applied, and once
// the run has finished with a row expanded. Any violation of impact serious or critical fails the
// scenario, listed with its rule, impact, help and the nodes. A canary proves the engine sees
// the panel: a search box stripped of its name must be reported. The sidebar is checked too, for
// the record only (most of it is VS Code's own markup, which this project does not control).
import * as assert from 'node:assert';
import type { Frame } from 'playwright-core';
import { type AxeViolation, blocking, formatViolations, runAxe } from '../../harness/axe';
import type { Scenario, ScenarioContext } from '../types';
import { UI } from '../ui';
import { refreshView, until } from './api';
import { runPanelFrame } from './runPanel';

const OBJECTIVE = 'Check the run panel with axe';

async function lastSequence(frame: Frame): Promise<number> {
  return Number(await frame.locator('#last-sequence').getAttribute('data-value'));
}

/**
 * Waits for the header to show `sequence` as the newest: the rows of a long run are a virtual
 * list, so an older row need not be in the DOM.
 */
async function waitForSequence(frame: Frame, sequence: number): Promise<void> {
  await until(
    `sequence ${sequence} in the panel`,
    async () => ((await lastSequence(frame)) >= sequence ? true : undefined),
    120_000,
  );
}

/** Waits until every row on screen satisfies `test` (a JS predicate over the row element, as text). */
async function waitForRows(frame: Frame, predicate: string, what: string): Promise<void> {
  await until(what, async () =>
    (await frame.evaluate(
      `(() => { const rows = Array.from(document.querySelectorAll(${JSON.stringify(UI.runPanelRow)})); return rows.length > 0 && rows.every(${predicate}); })()`,
    ))
      ? true
      : undefined,
  );
}

/** The blocking violations of every state, so one run lists them all before it fails. */
type Findings = { label: string; violations: AxeViolation[] }[];

async function check(ctx: ScenarioContext, frame: Frame, label: string, findings: Findings): Promise<void> {
  const violations = await runAxe(frame);
  const bad = blocking(violations);
  if (bad.length > 0) {
    findings.push({ label, violations: bad });
  }
  const lesser = violations.filter((v) => !bad.includes(v));
  const summary = lesser
    .map((v) => `${v.id} (${v.impact ?? 'no impact'}, ${v.nodes.length} node${v.nodes.length === 1 ? '' : 's'})`)
    .join(', ');
  ctx.log(`axe, run panel ${label}: ${bad.length} serious or critical${summary ? `; lesser: ${summary}` : ''}`);
}

function assertNone(findings: Findings): void {
  if (findings.length === 0) {
    return;
  }
  const count = findings.reduce((n, f) => n + f.violations.length, 0);
  throw new Error(
    `axe-core found ${count} serious or critical violation(s) in the run panel:\n${findings.map((f) => `${f.label}:\n${formatViolations(f.violations)}`).join('\n')}`,
  );
}

/** The engine must see the panel: a search box without any name is a critical `label` violation. */
async function canary(ctx: ScenarioContext, frame: Frame): Promise<void> {
  const NAMES = ['aria-label', 'title', 'placeholder'];
  const saved = await frame.evaluate<(string | null)[]>(
    `((names) => { const s = document.getElementById('search'); const v = names.map((n) => s.getAttribute(n)); names.forEach((n) => s.removeAttribute(n)); return v; })(${JSON.stringify(NAMES)})`,
  );
  try {
    const found = (await runAxe(frame)).filter(
      (v) => v.id === 'label' && v.nodes.some((n) => n.target.join(' ').includes('#search')),
    );
    assert.ok(
      found.length > 0 && (found[0].impact === 'critical' || found[0].impact === 'serious'),
      'axe did not report the search box stripped of its name: it is not checking the panel',
    );
    ctx.log(`axe canary (search box stripped of its name on purpose) reported:\n${formatViolations(found)}`);
  } finally {
    await frame.evaluate(
      `((names, v) => { const s = document.getElementById('search'); names.forEach((n, i) => { if (v[i] !== null) s.setAttribute(n, v[i]); }); })(${JSON.stringify(NAMES)}, ${JSON.stringify(saved)})`,
    );
  }
}

/** The sidebar (workbench DOM, mostly VS Code's own): logged, never failing. */
async function sidebarReport(ctx: ScenarioContext): Promise<void> {
  try {
    const violations = await runAxe(ctx.page.mainFrame(), { include: '.part.sidebar' });
    ctx.log(
      `axe, sidebar (report only): ${violations.length === 0 ? 'no violation' : `\n${formatViolations(violations)}`}`,
    );
  } catch (err) {
    ctx.log(
      `axe, sidebar (report only): could not run: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
    );
  }
}

export const runPanelAxe: Scenario = {
  id: 'run-panel-axe',
  title: 'axe-core finds no serious or critical violation in the run panel: live, filtered, searched and finished',
  runtime: { eventDelayMs: 100 },
  async run(ctx) {
    const { workbench, runtime } = ctx;
    const runId = await runtime.createSyntheticRun({
      events: 600,
      terminal: null,
      live: true,
      unknownKinds: true,
      taskObjective: OBJECTIVE,
    });
    await workbench.openContainer(UI.container);
    await refreshView(ctx, 'tasks');
    const task = await workbench.treeRow(UI.tasksView, OBJECTIVE);
    await workbench.contextMenu(task, UI.menu.watchRun);
    const frame = await runPanelFrame(workbench);
    await waitForSequence(frame, 30);
    const findings: Findings = [];

    // Live: events keep arriving while the engine looks.
    const before = await lastSequence(frame);
    await check(ctx, frame, 'live', findings);
    await until('more events after the live check', async () =>
      (await lastSequence(frame)) > before ? true : undefined,
    );
    assert.strictEqual(
      await frame.locator('#connection-state').getAttribute('data-state'),
      'live',
      'the panel was not live during the check',
    );
    await ctx.shot('axe-live');

    // Filtered: the kind filter, then the search on top of it, then a search matching nothing.
    await frame.selectOption('#kind-filter', 'tool.called');
    await waitForRows(frame, `(r) => r.dataset.kind === 'tool.called'`, 'only tool.called rows');
    await check(ctx, frame, 'filtered by kind', findings);
    // The search finds in the whole log (the host searches) and marks matches in place.
    await frame.fill('#search', 'count_words');
    await frame.press('#search', 'Enter');
    await frame.locator('#find-status', { hasText: / of \d/ }).waitFor({ timeout: workbench.timeoutMs });
    await frame.locator(`${UI.runPanelRow} mark`).first().waitFor({ timeout: workbench.timeoutMs });
    await check(ctx, frame, 'filtered by kind and searched', findings);
    await ctx.shot('axe-filtered');
    await frame.fill('#search', 'no event says this');
    await frame.press('#search', 'Enter');
    await frame.locator('#find-status', { hasText: /No results/ }).waitFor({ timeout: workbench.timeoutMs });
    await check(ctx, frame, 'no matches', findings);
    // Cleared one at a time, each waited for: a filter change redraws the panel's labels, and
    // the canary below must not race that redraw.
    await frame.press('#search', 'Escape');
    await waitForRows(frame, `(r) => r.dataset.kind === 'tool.called'`, 'tool.called rows again');
    await frame.selectOption('#kind-filter', '');
    await until('rows of every kind again', async () =>
      (await frame.locator(`${UI.runPanelRow}:not([data-kind="tool.called"])`).count()) > 0 ? true : undefined,
    );

    await canary(ctx, frame);

    // Finished: the terminal row, the summary, and a row opened to its raw JSON.
    runtime.endRun(runId, 'completed');
    const log = runtime.eventLog(runId);
    await waitForSequence(frame, log[log.length - 1].sequence);
    await frame.locator('#summary:not([hidden])').waitFor({ timeout: workbench.timeoutMs });
    await frame.locator(`${UI.runPanelRow}[aria-expanded]`).last().click();
    await frame.locator('#raw-detail').waitFor({ state: 'visible', timeout: workbench.timeoutMs });
    await check(ctx, frame, 'finished, a row expanded', findings);
    await ctx.shot('axe-finished');

    await sidebarReport(ctx);
    assertNone(findings);
  },
};
