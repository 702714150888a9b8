// What the run panel benchmarks (webview-window, webview-search) share: the host's `reset` for a
// benchmark run, a finished run of `total` events opened on its newest ones, the page's JS heap after a forced GC, and a long-task observer.
import { RunModel } from '../../src/runEvents/runModel';
import type { WireEvent } from '../../src/runEvents/wire';
import { DEFAULT_UI_STRINGS, type HostMessage } from '../../src/runPanel/protocol';
import { emptySnapshot } from '../unit/webview/fixtures';
import type { PanelPage } from '../unit/webview/pageHarness';

/** Chromium's long tasks (>= 50 ms) into window.__longTasks, from before the panel's script runs. */
export const OBSERVE_LONG_TASKS = `
window.__longTasks = [];
try {
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
    .observe({ type: 'longtask', buffered: true });
} catch (e) { window.__noLongTaskApi = true; }
`;

export function resetMessage(snapshot = emptySnapshot('run_bench'), status = 'completed'): HostMessage {
  return {
    type: 'reset',
    snapshot,
    info: { runId: 'run_bench', objective: 'Benchmark run', status },
    connection: status === 'running' ? { state: 'live' } : { state: 'ended', status },
    artifacts: { state: 'none' },
    strings: { ...DEFAULT_UI_STRINGS },
  };
}

export async function heapMb(p: PanelPage): Promise<number> {
  const cdp = await p.page.context().newCDPSession(p.page);
  await cdp.send('HeapProfiler.collectGarbage');
  const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  await cdp.detach();
  return usage.usedSize / 1024 / 1024;
}

/**
 * Opens the panel on a finished run of `total` events as the host does: the snapshot of its newest
 * events (`recent`), the rest left to pages; resolves once the last row is drawn and settled.
 */
export async function openFinishedRun(p: PanelPage, recent: readonly WireEvent[], total: number): Promise<void> {
  const model = new RunModel('run_bench');
  model.apply([...recent]);
  const snapshot = model.snapshot();
  snapshot.eventCount = total;
  snapshot.eventsOmitted = total - snapshot.recent.length;
  await p.send(resetMessage(snapshot));
  await p.until(`document.querySelector('#timeline .row[data-sequence="${total}"]')`);
  await p.js(`new Promise((r) => setTimeout(r, 300))`);
}
