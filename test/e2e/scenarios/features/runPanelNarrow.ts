// The run panel beside an editor at half the window's width (about 370 px): a file open on the
// left, the run's panel moved into the group on its right. In the dark, light
// and high-contrast themes the rows show their event and the start of its text, the outline is
// folded, the filters take one line, axe finds nothing serious, and a shot of each is taken (the
// dark one is the README's picture).
import * as assert from 'node:assert';
import type { Frame } from 'playwright-core';
import { blocking, formatViolations, runAxe } from '../../harness/axe';
import type { Scenario, ScenarioContext } from '../types';
import { UI } from '../ui';
import { refreshView, until } from './api';
import { docsShot, PICTURE_SETTINGS } from './docsImages';
import { runPanelFrame } from './runPanel';

const OBJECTIVE = 'Read the run panel beside an editor';
/** The window: beside the side bar, each of two editor groups is about 370 px wide. */
const WINDOW = { width: 1100, height: 720 };

/** Each theme's setting value, and its label in the Color Theme picker (without "Default"). */
const THEMES = [
  { name: 'dark', colorTheme: 'Default Dark Modern', label: 'Dark Modern', bodyClass: 'vscode-dark' },
  { name: 'light', colorTheme: 'Default Light Modern', label: 'Light Modern', bodyClass: 'vscode-light' },
  {
    name: 'high-contrast',
    colorTheme: 'Default High Contrast',
    label: 'Dark High Contrast',
    bodyClass: 'vscode-high-contrast',
  },
] as const;

interface NarrowFacts {
  width: number;
  outlineHidden: boolean;
  filterTops: number[];
  /** The widest event name and text among the rows on screen, in px. */
  label: number;
  detail: number;
}

// The browser-side code is plain JavaScript text: the tests compile without DOM types.
const FACTS = `((selector) => {
  const rows = [...document.querySelectorAll(selector)].filter((r) => r.getClientRects().length > 0);
  const width = (row, part) => row.querySelector(part)?.getBoundingClientRect().width ?? 0;
  return {
    width: window.innerWidth,
    outlineHidden: document.getElementById('outline').hidden,
    filterTops: [...document.querySelectorAll('.filters select')].map((s) => Math.round(s.getBoundingClientRect().top)),
    label: Math.max(0, ...rows.map((r) => width(r, '.label'))),
    detail: Math.max(0, ...rows.map((r) => width(r, '.detail'))),
  };
})`;

async function facts(frame: Frame): Promise<NarrowFacts> {
  return frame.evaluate<NarrowFacts>(`${FACTS}(${JSON.stringify(UI.runPanelRow)})`);
}

/**
 * Switches the color theme as a person does: Ctrl+K Ctrl+T (Preferences: Color Theme) from the
 * file's editor, then the theme by its label. (Not through the Command Palette helper: it waits for
 * the palette to close, and the theme picker stays open.)
 */
async function setColorTheme(ctx: ScenarioContext, label: string): Promise<void> {
  const { workbench, page } = ctx;
  const input = page.locator('.quick-input-widget .quick-input-box input');
  // The picker may not open while the workbench moves the focus about: ask again.
  for (let attempt = 0; ; attempt++) {
    await (await workbench.waitForEditorTab('notes.md')).click();
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+T');
    try {
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      break;
    } catch (err) {
      if (attempt >= 3) {
        throw err;
      }
      await page.keyboard.press('Escape');
    }
  }
  await input.fill(label);
  // Exactly this label ("Dark High Contrast", not "Light High Contrast"); labels are plain words.
  await page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^(Default )?${label}$`) }) })
    .first()
    .click();
}

export const runPanelNarrow: Scenario = {
  id: 'run-panel-narrow',
  title: 'the run panel beside an editor at half width reads well in the dark, light and high-contrast themes',
  runtime: { eventDelayMs: 150 },
  files: { 'notes.md': '# Notes\n\nThe run panel sits beside this editor.\n' },
  settings: { ...PICTURE_SETTINGS, 'workbench.colorTheme': THEMES[0].colorTheme },
  async run(ctx) {
    const { workbench, runtime, page } = ctx;
    await page.setViewportSize(WINDOW);
    const runId = await runtime.createSyntheticRun({
      events: 400,
      terminal: null,
      live: true,
      taskObjective: OBJECTIVE,
    });
    // The file on the left, the run's panel opened over it and moved into a group on its right.
    await (await workbench.explorerRow('notes.md')).dblclick();
    await workbench.waitForEditorTab('notes.md');
    await workbench.openContainer(UI.container);
    await refreshView(ctx, 'tasks');
    await workbench.contextMenu(await workbench.treeRow(UI.tasksView, OBJECTIVE), UI.menu.watchRun);
    await runPanelFrame(workbench);
    await workbench.runCommand('View: Move Editor into Right Group');
    const frame = await runPanelFrame(workbench);
    // The file's editor is still open, in the group on the left.
    await workbench.waitForEditorTab('notes.md');
    const shown = await until('the panel at half width with its rows drawn', async () => {
      const f = await facts(frame);
      return f.width < 420 && f.label > 0 ? f : undefined;
    });
    ctx.log(`panel ${shown.width} px wide in a ${WINDOW.width} px window`);

    const findings: string[] = [];
    for (const theme of THEMES) {
      if (theme !== THEMES[0]) {
        await setColorTheme(ctx, theme.label);
      }
      await until(`the ${theme.name} theme in the panel`, async () =>
        (await frame.evaluate(`document.body.classList.contains(${JSON.stringify(theme.bodyClass)})`))
          ? true
          : undefined,
      );
      const f = await facts(frame);
      ctx.log(
        `${theme.name}: ${f.width} px; outline ${f.outlineHidden ? 'folded' : 'open'}; filters on ${new Set(f.filterTops).size} line(s); widest event name ${Math.round(f.label)} px, text ${Math.round(f.detail)} px`,
      );
      assert.ok(f.width >= 300 && f.width <= 420, `the panel is ${f.width} px wide, not about half the window`);
      assert.strictEqual(f.outlineHidden, true, 'the outline is not folded');
      assert.strictEqual(new Set(f.filterTops).size, 1, `the filters take ${new Set(f.filterTops).size} lines`);
      assert.ok(f.label >= 100 && f.detail >= 60, `the rows show ${f.label} px of event and ${f.detail} px of text`);
      const bad = blocking(await runAxe(frame));
      if (bad.length > 0) {
        findings.push(`${theme.name}:\n${formatViolations(bad)}`);
      }
      ctx.log(`axe, narrow run panel, ${theme.name}: ${bad.length} serious or critical`);
      if (theme === THEMES[0]) {
        await docsShot(ctx, 'run-panel-narrow');
      } else {
        await ctx.shot(`run-panel-narrow-${theme.name}`);
      }
    }
    runtime.endRun(runId, 'completed');
    assert.deepStrictEqual(findings, [], `axe-core found serious or critical violations:\n${findings.join('\n')}`);
  },
};
