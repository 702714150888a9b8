// The run panel beside an editor (about 370 px wide) in headless Chromium: each row shows its
// event and the start of its text, the outline folds away, the filters share one line, and every
// control is still reached by Tab with its focus shown.
import * as assert from 'node:assert';
import { DEFAULT_UI_STRINGS, type HostMessage } from '../../../src/runPanel/protocol';
import { emptySnapshot, recordedRun } from './fixtures';
import { type HarnessOptions, launchBrowser, openPanelPage, type PanelPage } from './pageHarness';

/** As long as the service's run ids: beside an editor it pushed its Copy button out of the panel. */
const RUN = 'run_3cb54342a84f490bae25925f45d776f0';
const NARROW = 370;

function reset(): HostMessage {
  return {
    type: 'reset',
    snapshot: emptySnapshot(RUN),
    info: { runId: RUN, objective: 'Summarise the quarterly report', status: 'running' },
    connection: { state: 'live' },
    artifacts: { state: 'none' },
    strings: { ...DEFAULT_UI_STRINGS },
  };
}

/** Two animation frames: whatever the page scheduled has been drawn. */
const FRAMES = `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`;

interface Box {
  text: string;
  left: number;
  right: number;
  width: number;
  top: number;
  clipped: boolean;
}

/** Where a part of a row is on screen, and whether its text is cut (ellipsis). */
function box(p: PanelPage, selector: string): Promise<Box> {
  return p.js<Box>(`(() => {
    const e = document.querySelector(${JSON.stringify(selector)});
    const r = e.getBoundingClientRect();
    return { text: e.textContent, left: r.left, right: r.right, width: r.width, top: r.top, clipped: e.scrollWidth > e.clientWidth };
  })()`);
}

async function openWithRun(width: number, browser: HarnessOptions['browser']): Promise<PanelPage> {
  const p = await openPanelPage({ browser, width, height: 700 });
  const run = recordedRun({ steps: 3, toolsPerStep: 2, terminal: null });
  await p.send(reset(), { type: 'events', events: run });
  await p.until(`document.getElementById('last-sequence')?.dataset.value === '${run.length}'`);
  await p.js(FRAMES);
  return p;
}

describe('run panel page beside an editor (370 px, headless Chromium)', function () {
  this.timeout(60_000);
  let p: PanelPage | undefined;
  let chromium: Awaited<ReturnType<typeof launchBrowser>> | undefined;

  before(async () => {
    chromium = await launchBrowser();
  });

  after(async () => {
    await chromium?.close();
  });

  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  it('shows each row with its event and the start of its text, inside the row', async () => {
    p = await openWithRun(NARROW, chromium?.browser);
    const row = await box(p, '#timeline .row[data-sequence="3"]');
    // A tool call: its name whole, then its fields, both readable.
    const tool = await box(p, '#timeline .row[data-sequence="3"] .label');
    const toolText = await box(p, '#timeline .row[data-sequence="3"] .detail');
    assert.strictEqual(tool.text, 'search');
    assert.ok(!tool.clipped, `the tool's name is cut: ${JSON.stringify(tool)}`);
    assert.ok(toolText.width >= 100, `the tool call's text has ${toolText.width} px: ${JSON.stringify(toolText)}`);
    // An observation: a long summary shows its start (not one letter) and leaves room for its text.
    const observation = await box(p, '#timeline .row[data-sequence="4"] .label');
    const observationText = await box(p, '#timeline .row[data-sequence="4"] .detail');
    assert.ok(observation.text.startsWith('Found 1 matching passages'));
    assert.ok(observation.width >= 150, `the observation's summary has ${observation.width} px`);
    assert.ok(observationText.width >= 50, `the observation's text has ${observationText.width} px`);
    for (const part of [tool, toolText, observation, observationText]) {
      assert.ok(part.left >= row.left && part.right <= row.right + 0.5, `${part.text} sticks out of its row`);
    }
    // The row height contract holds: one line of --row-height.
    assert.strictEqual(row.width > 300, true, `the row is ${row.width} px wide`);
    assert.strictEqual(await p.js<number>(`document.querySelector('#timeline .row').offsetHeight`), 24);
  });

  it('folds the outline away; the toggle opens it above the rows, and a wide panel gets it back', async () => {
    p = await openWithRun(NARROW, chromium?.browser);
    const state = () =>
      p!.js<{ hidden: boolean; expanded: string | null; outline: number; timeline: number }>(`({
        hidden: document.getElementById('outline').hidden,
        expanded: document.getElementById('outline-toggle').getAttribute('aria-expanded'),
        outline: document.getElementById('outline').getBoundingClientRect().height,
        timeline: document.getElementById('timeline').getBoundingClientRect().width,
      })`);
    const folded = await state();
    assert.strictEqual(folded.hidden, true);
    assert.strictEqual(folded.expanded, 'false');
    assert.strictEqual(folded.outline, 0);
    assert.ok(folded.timeline >= NARROW - 2, `the rows have ${folded.timeline} of ${NARROW} px`);

    // By keyboard: the toggle opens it, above the rows, and the rows keep the whole width.
    await p.page.focus('#outline-toggle');
    await p.page.keyboard.press('Enter');
    await p.until(`document.querySelectorAll('#outline-list .outline-item').length > 0`);
    const open = await state();
    assert.strictEqual(open.expanded, 'true');
    assert.ok(open.outline > 40, `the open outline is ${open.outline} px high`);
    assert.ok(open.timeline >= NARROW - 2, `beside the outline the rows have ${open.timeline} px`);
    const outlineBottom = await p.js<number>(`document.getElementById('outline').getBoundingClientRect().bottom`);
    const timelineTop = await p.js<number>(`document.getElementById('timeline').getBoundingClientRect().top`);
    assert.ok(outlineBottom <= timelineTop + 1, 'the open outline is not above the rows');
    await p.page.keyboard.press('Enter');
    assert.strictEqual((await state()).hidden, true);

    // Wide again: the outline comes back beside the rows; narrow again: it folds.
    await p.page.setViewportSize({ width: 900, height: 700 });
    await p.until(`!document.getElementById('outline').hidden`);
    assert.strictEqual((await state()).expanded, 'true');
    await p.page.setViewportSize({ width: NARROW, height: 700 });
    await p.until(`document.getElementById('outline').hidden`);
  });

  it('puts the filters on one line and keeps every control reachable by Tab, its focus shown', async () => {
    p = await openWithRun(NARROW, chromium?.browser);
    const filters = await p.js<{ tops: number[]; rights: number[]; height: number; select: number }>(`(() => {
      const selects = [...document.querySelectorAll('.filters select')];
      return {
        tops: selects.map((s) => Math.round(s.getBoundingClientRect().top)),
        rights: selects.map((s) => s.getBoundingClientRect().right),
        height: document.querySelector('.filters').getBoundingClientRect().height,
        select: selects[0].getBoundingClientRect().height,
      };
    })()`);
    assert.strictEqual(filters.tops.length, 4);
    assert.strictEqual(
      new Set(filters.tops).size,
      1,
      `the filters take more than one line: ${filters.tops.join(', ')}`,
    );
    assert.ok(filters.height < filters.select * 1.5, `the filters are ${filters.height} px high`);
    assert.ok(Math.max(...filters.rights) <= NARROW, 'a filter sticks out of the panel');

    const controls = [
      'copy-run-id',
      'kind-filter',
      'tool-filter',
      'step-filter',
      'status-filter',
      'search',
      'goto-sequence',
      'outline-toggle',
      'export-markdown',
      'export-jsonl',
      'open-transcript',
    ];
    // Each one inside the panel (focus would scroll one that is not into view, so look first).
    const outside = await p.js<string[]>(
      `${JSON.stringify(controls)}.filter((id) => { const r = document.getElementById(id).getBoundingClientRect(); return r.width === 0 || r.left < 0 || r.right > window.innerWidth; })`,
    );
    assert.deepStrictEqual(outside, [], 'controls outside the panel');
    const reached = new Map<string, string>();
    // From the top of the page, as a keyboard user arrives.
    await p.js(`document.activeElement?.blur()`);
    for (let i = 0; i < 30 && reached.size < controls.length; i++) {
      await p.page.keyboard.press('Tab');
      const focused = await p.js<{ id: string; outline: string; width: number }>(`(() => {
        const e = document.activeElement;
        const r = e.getBoundingClientRect();
        return { id: e.id, outline: getComputedStyle(e).outlineStyle, width: r.right <= window.innerWidth ? r.width : -1 };
      })()`);
      if (controls.includes(focused.id)) {
        assert.ok(focused.width > 0, `${focused.id} is off screen`);
        reached.set(focused.id, focused.outline);
      }
    }
    assert.deepStrictEqual([...reached.keys()].sort(), [...controls].sort());
    for (const [id, outline] of reached) {
      assert.notStrictEqual(outline, 'none', `${id} shows no focus`);
    }
    // Their names stay for a screen reader.
    const unnamed = await p.js<string[]>(
      `${JSON.stringify(controls)}.filter((id) => { const e = document.getElementById(id); return !(e.getAttribute('aria-label') || e.textContent.trim()); })`,
    );
    assert.deepStrictEqual(unnamed, []);
  });
});
