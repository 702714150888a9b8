// Benchmark of the run panel's window onto the whole log: the real webview
// script in headless Chromium against a fake host (test/unit/webview/fakeHost.ts) that keeps a
// 1,000,000-event log and answers `page`. Two scenarios:
//  - a finished run of 1,000,000 events opened: 30 jumps to random sequences (`reveal`) and
//    100 pages scrolled up; time from the request to the row being in the DOM and drawn;
//  - a live run streaming 1,000,000 events (1,000 per message, one per 32 ms, from a Worker).
// For each: the JS heap after a forced GC, the longest main-thread task (>= 50 ms, as Chromium
// reports them), DOM nodes. Targets: heap <= 80 MB, no task over 50 ms, <= 150 ms to show.
// Run: npm run bench -- webview-window   (or node out/test/bench/webview-window.bench.js [events])
import * as os from 'node:os';
import type { WireEvent } from '../../src/runEvents/wire';
import { fakeHostScript } from '../unit/webview/fakeHost';
import { openPanelPage, type PanelPage } from '../unit/webview/pageHarness';
import { heapMb, OBSERVE_LONG_TASKS, openFinishedRun, resetMessage } from './benchPanel';

const TOTAL = Number(process.argv[2] ?? 1_000_000);
const JUMPS = 30;
const SCROLL_PAGES = 100;
const LIVE_BATCH = 1000;
const LIVE_INTERVAL_MS = 32;

const OBSERVE = `${OBSERVE_LONG_TASKS}
// Resolves once the row of a sequence is in the DOM and a frame has been drawn with it.
window.__shown = (selector) => new Promise((resolve) => {
  const check = () => { if (document.querySelector(selector)) requestAnimationFrame(() => resolve(performance.now())); else requestAnimationFrame(check); };
  check();
});
window.__timeReveal = async (sequence) => {
  const t0 = performance.now();
  window.postMessage({ type: 'reveal', sequence }, '*');
  return (await window.__shown('#timeline .row.flash[data-sequence="' + sequence + '"]')) - t0;
};
window.__timeScrollUp = async () => {
  const t = document.getElementById('timeline');
  const firstShown = () => { const rows = [...document.querySelectorAll('#timeline .row[data-sequence]')].sort((a, b) => a.dataset.index - b.dataset.index); return rows.length ? Number(rows[0].dataset.sequence) : 0; };
  const before = firstShown();
  const t0 = performance.now();
  t.scrollTop = 0;
  // Shown: rows older than the ones that were at the top are in view.
  await new Promise((resolve) => { const check = () => { if (firstShown() < before) resolve(); else requestAnimationFrame(check); }; check(); });
  return performance.now() - t0;
};
// The live scenario's feed: a Worker slices and serialises the host's messages off the page's thread.
window.__liveFeed = (total, batch, interval) => new Promise((done) => {
  const source = 'onmessage = (e) => { const { total, batch, interval, perStep } = e.data; let seq = 0;'
    + ' const make = (s) => { if (s === 1) return { event: "plan.created", data: { sequence: 1, steps: Math.floor(total / perStep), strategy: "sequential" } };'
    + ' const i = s - 2, n = Math.floor(i / perStep) + 1, k = i % perStep, step_id = "step_" + n;'
    + ' if (k === 0) return { event: "step.started", data: { sequence: s, step_id, title: "Step " + n } };'
    + ' if (k === perStep - 1) return { event: "step.completed", data: { sequence: s, step_id, duration_ms: 1000 + n } };'
    + ' return (k % 2) ? { event: "tool.called", data: { sequence: s, step_id, tool: "search", path: "f" + s } } : { event: "observation.recorded", data: { sequence: s, step_id, summary: "Found " + s } }; };'
    + ' const tick = () => { if (seq >= total) { postMessage({ done: true }); return; } const events = []; for (let j = 0; j < batch && seq < total; j++) events.push(make(++seq));'
    + ' postMessage({ type: "events", events }); setTimeout(tick, interval); }; tick(); };';
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
  worker.onmessage = (e) => {
    if (e.data.done) { worker.terminate(); done(); return; }
    window.dispatchEvent(new MessageEvent('message', { data: e.data }));
  };
  worker.postMessage({ total, batch, interval, perStep: 10 });
});`;

interface Figures {
  scenario: string;
  showMs?: { median: number; p95: number; max: number };
  totalMs?: number;
  longTasks: number;
  longestTaskMs?: number;
  domNodes: number;
  heapMb: number;
}

function stats(values: number[]): { median: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] };
}

async function pageFigures(p: PanelPage): Promise<{ longTasks: number[]; nodes: number }> {
  return p.js(`({ longTasks: window.__longTasks, nodes: document.getElementsByTagName('*').length })`);
}

async function finishedRun(): Promise<Figures> {
  const p = await openPanelPage({
    initScript: (await fakeHostScript({ events: TOTAL })) + OBSERVE,
    height: 800,
    width: 1200,
  });
  try {
    const recent = await p.js<WireEvent[]>(`window.__fakeHostEvents(${TOTAL - 999}, ${TOTAL + 1})`);
    await openFinishedRun(p, recent, TOTAL);
    await p.js(`window.__longTasks.length = 0; true`);
    const times: number[] = [];
    // Deterministic "random" targets across the whole log.
    let x = 12345;
    for (let i = 0; i < JUMPS; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      times.push(await p.js<number>(`window.__timeReveal(${1 + (x % TOTAL)})`));
    }
    for (let i = 0; i < SCROLL_PAGES; i++) {
      times.push(await p.js<number>(`window.__timeScrollUp()`));
    }
    const page = await pageFigures(p);
    return {
      scenario: `finished run, ${TOTAL.toLocaleString('en')} events: ${JUMPS} jumps + ${SCROLL_PAGES} pages scrolled up`,
      showMs: stats(times),
      longTasks: page.longTasks.length,
      longestTaskMs: page.longTasks.length ? Math.max(...page.longTasks) : undefined,
      domNodes: page.nodes,
      heapMb: await heapMb(p),
    };
  } finally {
    await p.close();
  }
}

async function liveRun(): Promise<Figures> {
  const p = await openPanelPage({
    initScript: (await fakeHostScript({ events: TOTAL })) + OBSERVE,
    height: 800,
    width: 1200,
  });
  if (process.env.BENCH_DEBUG) {
    p.page.on('crash', () => console.log('page crashed'));
    p.page.on('pageerror', (e) => console.log('page error', e.message));
  }
  try {
    await p.send(resetMessage(undefined, 'running'));
    await p.js(`new Promise((r) => setTimeout(r, 300))`);
    await p.js(`window.__longTasks.length = 0; true`);
    const started = Date.now();
    await p.js(`window.__liveFeed(${TOTAL}, ${LIVE_BATCH}, ${LIVE_INTERVAL_MS})`);
    // On a busy machine the page may trail the feed by more than the harness's default wait.
    const deadline = Date.now() + 600_000;
    while (!(await p.js<boolean>(`!!document.querySelector('#timeline .row[data-sequence="${TOTAL}"]')`))) {
      if (Date.now() > deadline) {
        throw new Error('the live run never reached its last event');
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const totalMs = Date.now() - started;
    const page = await pageFigures(p);
    return {
      scenario: `live run streaming ${TOTAL.toLocaleString('en')} events (${LIVE_BATCH} per message, one per ${LIVE_INTERVAL_MS} ms)`,
      totalMs,
      longTasks: page.longTasks.length,
      longestTaskMs: page.longTasks.length ? Math.max(...page.longTasks) : undefined,
      domNodes: page.nodes,
      heapMb: await heapMb(p),
    };
  } finally {
    await p.close();
  }
}

function row(f: Figures): string {
  const show = f.showMs
    ? `median ${f.showMs.median.toFixed(0)} ms, p95 ${f.showMs.p95.toFixed(0)} ms, max ${f.showMs.max.toFixed(0)} ms`
    : '–';
  const longest = f.longestTaskMs === undefined ? 'none ≥ 50 ms' : `${f.longestTaskMs.toFixed(0)} ms`;
  const total = f.totalMs === undefined ? '–' : `${(f.totalMs / 1000).toFixed(1)} s`;
  return `| ${f.scenario} | ${show} | ${total} | ${f.longTasks} | ${longest} | ${f.domNodes} | ${f.heapMb.toFixed(1)} MB |`;
}

async function main(): Promise<void> {
  const only = process.argv[3];
  const results: Figures[] = [];
  if (only !== 'live') {
    results.push(await finishedRun());
  }
  if (process.env.BENCH_DEBUG && results[0]) {
    console.log(row(results[0]));
  }
  if (only !== 'finished') {
    results.push(await liveRun());
  }
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    `\nRun panel window: ${TOTAL.toLocaleString('en')}-event log, fake host in the page (headless Chromium; ${os.cpus().length} cores, load average ${load})\n`,
  );
  console.log(
    '| Scenario | Time to show a position | Time to stream all | Long tasks (≥ 50 ms) | Longest task | DOM nodes | JS heap after GC |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(row(r));
  }
  const heapOk = results.every((r) => r.heapMb <= 80);
  const tasksOk = results.every((r) => r.longTasks === 0);
  const showOk = results.every((r) => !r.showMs || r.showMs.max <= 150);
  console.log(
    `\nTargets: heap <= 80 MB ${heapOk ? 'met' : 'NOT met'}; no task over 50 ms ${tasksOk ? 'met' : 'NOT met'}; <= 150 ms to show ${showOk ? 'met' : 'NOT met'}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
