// The run panel's window onto the whole log, in headless Chromium with a fake host that keeps a
// 100,000-event log and answers `page` and `find` (fakeHost.ts): the window stays bounded while
// scrolling, "go to sequence" (the newest jump wins), find, filters that combine and persist, the
// outline, follow mode, keyboard and ARIA positions, rate-limited announcements, the approval
// card in the timeline.
import * as assert from 'node:assert';
import { RunModel } from '../../../src/runEvents/runModel';
import type { WireEvent } from '../../../src/runEvents/wire';
import {
  DEFAULT_UI_STRINGS,
  type HostMessage,
  type PersistedState,
  type WebviewMessage,
} from '../../../src/runPanel/protocol';
import { MAX_WINDOW_ROWS } from '../../../src/webview/reducer';
import { type FakeHostOptions, fakeHostScript } from './fakeHost';
import { emptySnapshot, ev, recordedRun } from './fixtures';
import { launchBrowser, openPanelPage, type PanelPage } from './pageHarness';

const RUN = 'run_whole';
const TOTAL = 100_000;
const ROW = 24;

type Reset = Extract<HostMessage, { type: 'reset' }>;

function reset(over: Partial<Reset> = {}): Reset {
  return {
    type: 'reset',
    snapshot: emptySnapshot(RUN),
    info: { runId: RUN, objective: 'A long run', status: 'completed' },
    connection: { state: 'ended', status: 'completed' },
    artifacts: { state: 'none' },
    strings: { ...DEFAULT_UI_STRINGS },
    ...over,
  };
}

/** A reset as the host sends it for a long log: the newest 1,000 events kept raw, the rest summarised. */
async function longReset(p: PanelPage, total = TOTAL, over: Partial<Reset> = {}): Promise<Reset> {
  const recent = await p.js<WireEvent[]>(`window.__fakeHostEvents(${total - 999}, ${total + 1})`);
  const model = new RunModel(RUN);
  model.apply(recent);
  const snapshot = model.snapshot();
  snapshot.eventCount = total;
  snapshot.eventsOmitted = total - snapshot.recent.length;
  return reset({ snapshot, ...over });
}

const AT_BOTTOM = `(() => { const t = document.getElementById('timeline'); return t.scrollTop + t.clientHeight >= t.scrollHeight - 12; })()`;
const FRAMES = `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`;
/** The rows in view, by sequence, in order of their place. */
const VISIBLE = `[...document.querySelectorAll('#timeline .row[data-sequence]')].sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index)).map((r) => Number(r.dataset.sequence))`;
/** Rows the list holds (its canvas is rows x row height plus detail blocks). */
const HELD = `Math.round(parseFloat(document.querySelector('#timeline .virtual-canvas').style.height) / ${ROW})`;

function pages(log: WebviewMessage[]): Extract<WebviewMessage, { type: 'page' }>[] {
  return log.filter((m): m is Extract<WebviewMessage, { type: 'page' }> => m.type === 'page');
}

describe('run panel page: the whole log (headless Chromium, fake host)', function () {
  this.timeout(120_000);
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

  async function open(host: Partial<FakeHostOptions> = {}, extra = ''): Promise<PanelPage> {
    p = await openPanelPage({
      browser: chromium?.browser,
      initScript: (await fakeHostScript({ events: TOTAL, ...host })) + extra,
    });
    return p;
  }

  it('stays a bounded window while scrolling up and down through 100,000 events, with no gap and no row twice', async () => {
    const p = await open();
    await p.send(await longReset(p));
    await p.until(`document.querySelector('#timeline .row[data-sequence="${TOTAL}"]')`);
    let top = TOTAL;
    // Up until the view is 5,000 events from the end: how far one scroll gets depends on when the
    // page lands (machine load), so the steps are counted up to a bound, not fixed.
    for (let i = 0; i < 400 && top >= TOTAL - 5000; i++) {
      await p.js(`document.getElementById('timeline').scrollTop = 0`);
      await p.until(`(${VISIBLE})[0] < ${top}`);
      const visible = await p.js<number[]>(VISIBLE);
      top = visible[0];
      for (let j = 1; j < visible.length; j++) {
        assert.strictEqual(visible[j], visible[j - 1] + 1, `contiguous at ${visible[j]}`);
      }
      assert.ok((await p.js<number>(HELD)) <= MAX_WINDOW_ROWS + 2, 'bounded');
    }
    assert.ok(top < TOTAL - 5000, `scrolled up to ${top}`);
    // Left the live end: the window no longer reaches it, and the way back is offered.
    await p.page.waitForSelector('#jump-to-latest:not([hidden])');
    // Down again, page by page.
    let bottom = (await p.js<number[]>(VISIBLE)).slice(-1)[0];
    for (let i = 0; i < 12; i++) {
      await p.js(`document.getElementById('timeline').scrollTop = 1e9`);
      await p.until(`(${VISIBLE}).slice(-1)[0] > ${bottom}`);
      bottom = (await p.js<number[]>(VISIBLE)).slice(-1)[0];
      assert.ok((await p.js<number>(HELD)) <= MAX_WINDOW_ROWS + 2, 'bounded');
    }
    const nodes = await p.js<number>(`document.getElementsByTagName('*').length`);
    assert.ok(nodes < 2500, `${nodes} DOM nodes`);
    const asked = pages(await p.js<WebviewMessage[]>('window.__hostLog'));
    assert.ok(
      asked.every((m) => m.limit <= 500),
      'pages within the protocol limit',
    );
  });

  it('goes to a sequence (Ctrl+G, Enter) and to a revealed one: paged in around it, in view, focused, highlighted', async () => {
    const p = await open();
    await p.send(await longReset(p));
    await p.until(`document.querySelector('#timeline .row[data-sequence="${TOTAL}"]')`);
    await p.page.focus('#timeline');
    await p.page.keyboard.press('Control+g');
    assert.strictEqual(await p.js(`document.activeElement.id`), 'goto-sequence');
    await p.page.keyboard.type('50000');
    await p.page.keyboard.press('Enter');
    await p.until(`document.activeElement?.dataset?.sequence === '50000'`);
    assert.ok(await p.js<boolean>(`document.activeElement.classList.contains('flash')`));
    const around = pages(await p.js<WebviewMessage[]>('window.__hostLog')).find((m) => m.direction === 'around');
    assert.strictEqual(around?.sequence, 50000);
    const box = await p.js<{ top: number; bottom: number; viewTop: number; viewBottom: number }>(`(() => {
      const r = document.activeElement.getBoundingClientRect(); const v = document.getElementById('timeline').getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, viewTop: v.top, viewBottom: v.bottom }; })()`);
    assert.ok(box.top >= box.viewTop && box.bottom <= box.viewBottom, 'in view');
    await p.send({ type: 'reveal', sequence: 1234 });
    await p.until(`document.querySelector('#timeline .row.flash[data-sequence="1234"]')`);
  });

  it('keeps the newest jump when the host answers an earlier jump after it', async () => {
    const p = await open({ holdPages: true });
    await p.send(await longReset(p));
    await p.until(`document.querySelector('#timeline .row[data-sequence="${TOTAL}"]')`);
    await p.send({ type: 'reveal', sequence: 50000 });
    await p.send({ type: 'reveal', sequence: 20000 });
    await p.until(`window.__heldPages.length === 2`);
    // The later jump's answer first, then the earlier one's; the panel has handled both when a
    // third message (one it ignores) reaches a listener added after its own.
    await p.js(`new Promise((resolve) => {
      window.addEventListener('message', (e) => { if (e.data && e.data.type === 'test-sentinel') resolve(); });
      const [first, second] = window.__heldPages;
      window.postMessage(second, '*'); window.postMessage(first, '*'); window.postMessage({ type: 'test-sentinel' }, '*');
    })`);
    await p.js(FRAMES);
    const shown = await p.js<number[]>(VISIBLE);
    assert.ok(
      shown.includes(20000) && !shown.some((s) => s >= 49000),
      `the window is around 20000: ${shown[0]}..${shown[shown.length - 1]}`,
    );
  });

  it('keeps a jump to a row already shown when an earlier jump is answered after it', async () => {
    const p = await open({ holdPages: true });
    await p.send(await longReset(p));
    const near = TOTAL - 5;
    await p.until(`document.querySelector('#timeline .row[data-sequence="${near}"]')`);
    await p.send({ type: 'reveal', sequence: 50000 });
    await p.until(`window.__heldPages.length === 1`);
    // Row `near` is in the window, but the page around 50000 is still on its way.
    await p.send({ type: 'reveal', sequence: near });
    await p.until(`window.__heldPages.length === 2`);
    await p.js(`new Promise((resolve) => {
      window.addEventListener('message', (e) => { if (e.data && e.data.type === 'test-sentinel') resolve(); });
      for (const m of window.__heldPages) window.postMessage(m, '*');
      window.postMessage({ type: 'test-sentinel' }, '*');
    })`);
    await p.until(`document.querySelector('#timeline .row.flash[data-sequence="${near}"]')`);
    const shown = await p.js<number[]>(VISIBLE);
    assert.ok(
      shown.includes(near) && !shown.includes(50000),
      `the window is at the end: ${shown[0]}..${shown[shown.length - 1]}`,
    );
  });

  it('finds with a count, steps next and previous (F3, Shift+F3, Enter), marks the text, and Escape closes', async () => {
    const p = await open({ findProgress: true });
    await p.send(await longReset(p));
    await p.until(`document.querySelector('#timeline .row[data-sequence="${TOTAL}"]')`);
    await p.page.keyboard.press('Control+f');
    assert.strictEqual(await p.js(`document.activeElement.id`), 'search');
    await p.page.keyboard.type('file_7_1.md');
    // The host's progress, then its count.
    await p.until(`/\\+ so far \\(50% searched\\)/.test(document.getElementById('find-status').textContent)`);
    await p.until(`document.getElementById('find-status').textContent === '1 of 1'`);
    const matchSeq = 2 + 6 * 10 + 3;
    await p.until(
      `document.querySelector('#timeline .row.current-match[data-sequence="${matchSeq}"] mark.find-match')`,
    );
    assert.strictEqual(
      await p.js(`document.querySelector('#timeline .row.current-match mark.find-match').textContent`),
      'file_7_1.md',
    );
    // A wider query: several matches, stepped through.
    await p.page.fill('#search', 'file_7_');
    await p.until(`document.getElementById('find-status').textContent === '1 of 4'`);
    await p.page.keyboard.press('F3');
    await p.until(`document.getElementById('find-status').textContent === '2 of 4'`);
    await p.page.keyboard.press('Enter');
    await p.until(`document.getElementById('find-status').textContent === '3 of 4'`);
    await p.page.keyboard.press('Shift+F3');
    await p.until(`document.getElementById('find-status').textContent === '2 of 4'`);
    await p.page.keyboard.press('Shift+Enter');
    await p.until(`document.getElementById('find-status').textContent === '1 of 4'`);
    assert.ok((await p.js<number>(`document.querySelectorAll('#timeline .row.match').length`)) >= 4);
    await p.page.fill('#search', 'no such text');
    await p.until(`document.getElementById('find-status').textContent === 'No results'`);
    await p.page.fill('#search', 'file_7_');
    await p.until(`document.getElementById('find-status').textContent === '1 of 4'`);
    await p.page.focus('#search');
    await p.page.keyboard.press('Escape');
    await p.until(
      `document.querySelectorAll('#timeline mark').length === 0 && document.getElementById('find-status').textContent === ''`,
    );
    const log = await p.js<WebviewMessage[]>('window.__hostLog');
    assert.ok(log.some((m) => m.type === 'stopFind'));
    assert.ok(log.filter((m) => m.type === 'find').every((m) => m.type === 'find' && m.query.length > 0));
  });

  it('combines kind, tool, step and status filters, asks the host with them, and restores them and the query after a reload', async () => {
    const p1 = await open();
    await p1.send(await longReset(p1));
    await p1.until(`document.querySelector('#timeline .row[data-sequence="${TOTAL}"]')`);
    await p1.page.selectOption('#kind-filter', 'tool.called');
    await p1.page.selectOption('#tool-filter', 'read_file');
    const step = await p1.js<string>(
      `[...document.querySelectorAll('#step-filter option')].map((o) => o.value).filter(Boolean).slice(-3)[0]`,
    );
    await p1.page.selectOption('#step-filter', step);
    await p1.until(
      `(() => { const rows = [...document.querySelectorAll('#timeline .row[data-sequence]')]; return rows.length === 2 && rows.every((r) => r.dataset.kind === 'tool.called'); })()`,
    );
    const asked = pages(await p1.js<WebviewMessage[]>('window.__hostLog')).slice(-1)[0];
    assert.deepStrictEqual(asked.filter, { kinds: ['tool.called'], tool: 'read_file', stepId: step });
    // The set size is the host's count for the filter.
    assert.strictEqual(
      await p1.js(`document.querySelector('#timeline .row[data-sequence]').getAttribute('aria-setsize')`),
      '2',
    );
    await p1.page.fill('#search', 'read_file');
    await p1.until(
      `window.__state?.query === 'read_file' && window.__state?.filter?.stepId === ${JSON.stringify(step)}`,
    );
    const saved = await p1.js<PersistedState>('window.__state');
    assert.deepStrictEqual(saved.filter, { kinds: ['tool.called'], tool: 'read_file', stepId: step });
    await p1.close();

    const p2 = await open({}, `\nwindow.__state = ${JSON.stringify(saved)};`);
    await p2.send(await longReset(p2));
    await p2.until(
      `document.getElementById('tool-filter').value === 'read_file' && document.getElementById('kind-filter').value === 'tool.called'`,
    );
    assert.strictEqual(await p2.js(`document.getElementById('step-filter').value`), step);
    assert.strictEqual(await p2.js(`document.getElementById('search').value`), 'read_file');
    await p2.until(`document.querySelectorAll('#timeline .row[data-sequence]').length === 2`);
    const first = pages(await p2.js<WebviewMessage[]>('window.__hostLog'))[0];
    assert.deepStrictEqual(first.filter, { kinds: ['tool.called'], tool: 'read_file', stepId: step });
    // Status: problems and approvals are filters too.
    await p2.page.selectOption('#status-filter', 'problems');
    await p2.until(`document.getElementById('timeline-empty').textContent === 'No events match the filter.'`);
  });

  it('lists the steps in an outline; arrow keys move through it and Enter jumps to the step', async () => {
    const p = await open();
    await p.send(await longReset(p));
    await p.until(`document.querySelectorAll('#outline-list .outline-item').length > 0`);
    const label = await p.js<string>(`document.querySelector('#outline-list .outline-item .outline-meta').textContent`);
    assert.ok(/completed/.test(label) && /s/.test(label), `duration and state in words: ${label}`);
    await p.page.focus('#outline-list');
    await p.page.keyboard.press('ArrowDown');
    await p.page.keyboard.press('ArrowDown');
    const target = await p.js<string>(`document.activeElement.dataset.sequence`);
    assert.strictEqual(await p.js(`document.activeElement.dataset.index`), '1');
    await p.page.keyboard.press('Enter');
    await p.until(`document.querySelector('#timeline .row.flash[data-sequence="${target}"]')`);
    assert.strictEqual(await p.js(`document.querySelector('#timeline .row.flash').dataset.kind`), 'step.started');
    // A click jumps too.
    const first = await p.js<string>(
      `document.querySelector('#outline-list .outline-item[data-index="0"]').dataset.sequence`,
    );
    await p.page.click('#outline-list .outline-item[data-index="0"]');
    await p.until(`document.querySelector('#timeline .row.flash[data-sequence="${first}"]')`);
  });

  it('follows the newest event, stops when the user scrolls up, counts what came since, and jumps back', async () => {
    const p = await open();
    const run = recordedRun({ steps: 100, toolsPerStep: 2, terminal: null });
    await p.send(reset({ connection: { state: 'live' }, info: { runId: RUN, status: 'running' } }), {
      type: 'events',
      events: run.slice(0, 300),
    });
    await p.until(`document.getElementById('timeline').scrollTop > 0 && ${AT_BOTTOM}`);
    await p.send({ type: 'events', events: run.slice(300, 320) });
    await p.until(`document.querySelector('#timeline .row[data-sequence="320"]') && ${AT_BOTTOM}`);
    await p.js(`document.getElementById('timeline').scrollTop = 0`);
    await p.page.waitForSelector('#jump-to-latest:not([hidden])');
    await p.send({ type: 'events', events: run.slice(320, 345) });
    await p.until(`document.getElementById('jump-to-latest').textContent.includes('Jump to newest (25 new)')`);
    await p.js(FRAMES);
    assert.strictEqual(await p.js(`document.getElementById('timeline').scrollTop`), 0, 'stays where the user is');
    await p.page.click('#jump-to-latest');
    await p.until(`${AT_BOTTOM} && document.getElementById('jump-to-latest').hidden`);
    await p.send({ type: 'events', events: run.slice(345, 360) });
    await p.until(`document.querySelector('#timeline .row[data-sequence="360"]') && ${AT_BOTTOM}`);
  });

  it('gives rows their place in the whole log (aria-setsize/posinset) and moves by arrows and by steps (Ctrl+Up/Down)', async () => {
    const p = await open();
    await p.send(await longReset(p));
    await p.until(`document.querySelector('#timeline .row[data-sequence="${TOTAL}"]')`);
    const last = await p.js<{
      setsize: string | null;
      posinset: string | null;
      role: string | null;
    }>(`(() => { const r = document.querySelector('#timeline .row[data-sequence="${TOTAL}"]');
      return { setsize: r.getAttribute('aria-setsize'), posinset: r.getAttribute('aria-posinset'), role: r.getAttribute('role') }; })()`);
    assert.deepStrictEqual(last, { setsize: String(TOTAL), posinset: String(TOTAL), role: 'listitem' });
    assert.strictEqual(await p.js(`document.getElementById('timeline').getAttribute('role')`), 'list');
    await p.page.focus('#timeline');
    await p.page.keyboard.press('End');
    assert.strictEqual(await p.js(`document.activeElement.dataset.sequence`), String(TOTAL));
    await p.page.keyboard.press('ArrowUp');
    assert.strictEqual(await p.js(`document.activeElement.dataset.sequence`), String(TOTAL - 1));
    await p.page.keyboard.press('Control+ArrowUp');
    assert.strictEqual(await p.js(`document.activeElement.dataset.kind`), 'step.started');
    const stepSeq = Number(await p.js<string>(`document.activeElement.dataset.sequence`));
    await p.page.keyboard.press('Control+ArrowUp');
    assert.strictEqual(Number(await p.js<string>(`document.activeElement.dataset.sequence`)), stepSeq - 10);
    await p.page.keyboard.press('Control+ArrowDown');
    assert.strictEqual(Number(await p.js<string>(`document.activeElement.dataset.sequence`)), stepSeq);
    // Focus is visible: the theme's focus border.
    const outline = await p.js<string>(`getComputedStyle(document.activeElement).outlineStyle`);
    assert.notStrictEqual(outline, 'none');
  });

  it('announces steps politely and failures and approvals assertively, at most once per interval, coalesced', async () => {
    const p = await open(
      {},
      `
      window.__said = { polite: [], assertive: [] };
      addEventListener('DOMContentLoaded', () => {
        for (const [id, key] of [['announcer-polite', 'polite'], ['announcer-assertive', 'assertive']]) {
          const node = document.getElementById(id);
          new MutationObserver(() => window.__said[key].push(node.textContent)).observe(node, { childList: true, characterData: true, subtree: true });
        }
      });`,
    );
    const events: WireEvent[] = [];
    for (let s = 1; s <= 30; s++) {
      events.push(ev('step.started', s, { step_id: `s${s}`, title: `Step ${s}` }));
    }
    events.push(ev('approval.requested', 31, { approval_id: 'ap_1', tool: 'write_file', step_id: 's30' }));
    events.push(ev('tool.called', 32, { step_id: 's30', tool: 'x', status: 'failed' }));
    await p.send(
      reset({ connection: { state: 'live' } }),
      { type: 'events', events: events.slice(0, 10) },
      { type: 'events', events: events.slice(10) },
    );
    await p.until(`window.__said.polite.length >= 2 && window.__said.assertive.length >= 2`);
    const said = await p.js<{ polite: string[]; assertive: string[] }>('window.__said');
    assert.deepStrictEqual(said.polite, ['Step started: Step 1', '29 new steps']);
    assert.deepStrictEqual(said.assertive, ['Approval requested: write_file', 'Failure: tool.called']);
    assert.strictEqual(await p.js(`document.getElementById('announcer-polite').getAttribute('aria-live')`), 'polite');
    assert.strictEqual(
      await p.js(`document.getElementById('announcer-assertive').getAttribute('aria-live')`),
      'assertive',
    );
  });

  it('puts the approval card in the timeline under the row that asked, and hides Cancel where steering is not offered', async () => {
    const p = await open();
    const run = recordedRun({ steps: 2, toolsPerStep: 1, terminal: null });
    const asked = ev('approval.requested', run.length + 1, {
      approval_id: 'ap_9',
      tool: 'write_file',
      step_id: 'step_2',
      arguments: { path: 'a.md' },
    });
    const approval = {
      approvalId: 'ap_9',
      sequence: asked.data.sequence,
      tool: 'write_file',
      stepId: 'step_2',
      argumentsJson: '{\n  "path": "a.md"\n}',
    };
    await p.send(reset({ connection: { state: 'live' }, info: { runId: RUN, status: 'running', approval } }), {
      type: 'events',
      events: [...run, asked],
    });
    await p.page.waitForSelector('#timeline #approval-card:not([hidden])');
    const place = await p.js<{ card: number; row: number }>(`(() => {
      const card = document.getElementById('approval-card').getBoundingClientRect();
      const row = document.querySelector('#timeline .row[data-sequence="${asked.data.sequence}"]').getBoundingClientRect();
      return { card: card.top, row: row.bottom }; })()`);
    assert.ok(Math.abs(place.card - place.row) <= 8, `under the row that asked (${place.card} vs ${place.row})`);
    assert.strictEqual(await p.js(`document.getElementById('approval-card').dataset.approvalId`), 'ap_9');
    await p.page.click('#approve-tool-call');
    const decided = (await p.posted()).filter((m) => m.type === 'decide');
    assert.deepStrictEqual(decided, [{ type: 'decide', approvalId: 'ap_9', decision: 'approve' }]);
    assert.strictEqual(await p.js(`document.getElementById('cancel-run').hidden`), false);
    await p.send({ type: 'info', info: { runId: RUN, status: 'running', approval, steering: false } });
    await p.until(`document.getElementById('cancel-run').hidden`);
  });

  it('exports through the host: Markdown, JSON lines, Open as text, each a labelled keyboard-operable button', async () => {
    const p = await open();
    await p.send(reset());
    await p.page.click('#export-markdown');
    await p.page.focus('#export-jsonl');
    await p.page.keyboard.press('Enter');
    await p.page.focus('#open-transcript');
    await p.page.keyboard.press('Space');
    const posted = (await p.posted()).filter((m) => m.type === 'export' || m.type === 'openTranscript');
    assert.deepStrictEqual(posted, [
      { type: 'export', format: 'markdown' },
      { type: 'export', format: 'jsonl' },
      { type: 'openTranscript' },
    ]);
    const labels = await p.js<string[]>(
      `['export-markdown', 'export-jsonl', 'open-transcript'].map((id) => document.getElementById(id).getAttribute('aria-label'))`,
    );
    assert.deepStrictEqual(labels, ['Export as Markdown…', 'Export as JSON lines…', 'Open as text']);
  });
});
