// Reading the run panel (a webview): the sequences of its rendered event rows, whether it ever
// showed "reconnecting", and the comparison with the server's own event log.
import * as assert from 'node:assert';
import { type Frame } from 'playwright-core';
import { type Workbench } from '../../harness/workbench';
import type { ScenarioContext } from '../types';
import { UI } from '../ui';
import { refreshView } from './api';

/** The webview frame of the run panel, once it has rendered at least one event row. */
export function runPanelFrame(workbench: Workbench, timeoutMs?: number): Promise<Frame> {
  return workbench.webviewFrame(UI.runPanelRow, timeoutMs);
}

// The browser-side code is kept as plain JavaScript text: the tests compile without DOM types.
const COLLECT_SEQUENCES = `((selector) => {
  const rows = () => Array.from(document.querySelectorAll(selector));
  let scroller = rows()[0] ? rows()[0].parentElement : null;
  while (scroller && scroller.scrollHeight <= scroller.clientHeight) scroller = scroller.parentElement;
  const byKey = new Map();
  const collect = () => {
    const seen = new Map();
    // Only rows on screen count: a row the virtual list parked out of view is not shown to anyone.
    for (const row of rows().filter((r) => r.getClientRects().length > 0)) {
      const key = row.dataset.index ?? row.getAttribute('aria-posinset') ?? 's' + row.dataset.sequence;
      seen.set(key, [...(seen.get(key) || []), Number(row.dataset.sequence)]);
    }
    for (const [key, values] of seen) if (!byKey.has(key) || values.length > byKey.get(key).length) byKey.set(key, values);
  };
  if (!scroller) collect();
  else for (let top = 0; ; top += Math.max(1, scroller.clientHeight - 20)) {
    scroller.scrollTop = top;
    collect();
    if (top + scroller.clientHeight >= scroller.scrollHeight) break;
  }
  const order = (k) => Number(String(k).replace(/^s/, ''));
  return [...byKey.entries()].sort((a, b) => order(a[0]) - order(b[0])).flatMap(([, v]) => v);
})`;

/**
 * Every rendered sequence, in order. The list may be virtual (only visible rows in the DOM), so
 * its container is scrolled top to bottom and rows collected by position (data-index or
 * aria-posinset when present, else the sequence itself); duplicates within one screenful stay.
 */
export async function renderedSequences(frame: Frame): Promise<number[]> {
  return frame.evaluate<number[]>(`${COLLECT_SEQUENCES}(${JSON.stringify(UI.runPanelRow)})`);
}

const WATCH_RECONNECTING = `((source) => {
  const re = new RegExp(source, 'i');
  window.__sawReconnecting = re.test(document.body.innerText);
  new MutationObserver(() => { if (re.test(document.body.innerText)) window.__sawReconnecting = true; })
    .observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
})`;

/** Records in the page whether "reconnecting" is ever shown, however briefly; returns the probe. */
export async function watchForReconnecting(frame: Frame): Promise<() => Promise<boolean>> {
  await frame.evaluate(`${WATCH_RECONNECTING}(${JSON.stringify(UI.reconnecting.source)})`);
  return async () => Boolean(await frame.evaluate('Boolean(window.__sawReconnecting)'));
}

/** Waits until the panel shows the row of the server's last (terminal) event. */
export async function waitForRow(frame: Frame, sequence: number, timeoutMs = 120_000): Promise<void> {
  await frame
    .locator(`#timeline [data-sequence="${sequence}"]`)
    .first()
    .waitFor({ state: 'attached', timeout: timeoutMs });
}

/**
 * No duplicated and no missing row: the panel shows exactly the server's sequences. Compared as
 * sorted lists, because the panel groups events under their step rather than listing them flat.
 */
export function assertSameSequences(rendered: number[], serverLog: { sequence: number }[]): void {
  const sorted = [...rendered].sort((a, b) => a - b);
  assert.deepStrictEqual(
    sorted,
    serverLog.map((e) => e.sequence).sort((a, b) => a - b),
    'rendered rows differ from the server event log',
  );
}

/** Opens the run of the task with this objective in the run panel: Tasks view, Watch Run. */
export async function watchFromTasks(ctx: ScenarioContext, objective: string): Promise<void> {
  await ctx.workbench.openContainer(UI.container);
  await refreshView(ctx, 'tasks');
  const row = await ctx.workbench.treeRow(UI.tasksView, objective);
  await ctx.workbench.contextMenu(row, UI.menu.watchRun);
}
