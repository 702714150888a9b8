// Benchmark of search in the run panel over a finished run of 1,000,000 events: the
// real webview script in headless Chromium, wired to the real host side, not a fake: the panel's
// `page` / `find` / `stopFind` go to LogRequests (src/runPanel/logRequests.ts) over a RunLog on
// disk (src/runLog), whose answers come back as `page` / `found` messages, as in VS Code (the only
// stand-in is the transport: Playwright's binding instead of VS Code's postMessage).
// A query is typed into the find bar and Enter pressed; measured in the page, from the keydown:
// the first match highlighted in the list (the `current-match` row drawn), and the full count in
// the find bar ("i of N"); the page's long tasks (>= 50 ms) while the search runs; how many
// progress reports arrived. Two queries: a text that occurs once near the end (the first match
// needs nearly the whole log read) and a text in every 100th event (10,000 matches).
// Run: npm run bench -- webview-search   (or node out/test/bench/webview-search.bench.js [events])
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { silentLogger } from '../../src/common/logger';
import type { WireEvent } from '../../src/runEvents/wire';
import { RunLog } from '../../src/runLog/runLog';
import { type LogRequest, LogRequests } from '../../src/runPanel/logRequests';
import type { HostMessage, WebviewMessage } from '../../src/runPanel/protocol';
import { openPanelPage } from '../unit/webview/pageHarness';
import { tapPostedMessages } from '../unit/webview/postTap';
import { benchEvent, COMMON, RARE, rareAt } from './benchLog';
import { heapMb, OBSERVE_LONG_TASKS, openFinishedRun } from './benchPanel';

const TOTAL = Number(process.argv[2] ?? 1_000_000);

// The panel's requests for the log go to Node; the rest stays in the page (as the harness keeps it).
// Timings are taken in the page: the Enter keydown, the current match drawn, the final count shown.
const WIRE = `${OBSERVE_LONG_TASKS}
(() => {
  window.__toHostQueue = [];
  ${tapPostedMessages(`(m) => {
    if (m && (m.type === 'page' || m.type === 'find' || m.type === 'stopFind')) {
      if (window.__toHost) window.__toHost(m); else window.__toHostQueue.push(m);
    }
  }`)}
  window.__found = 0;
  window.addEventListener('message', (e) => { if (e.data && e.data.type === 'found') window.__found++; });
  window.__watchSearch = () => {
    window.__t = { enter: undefined, first: undefined, done: undefined };
    window.__found = 0;
    window.__longTasks.length = 0;
    const search = document.getElementById('search');
    search.addEventListener('keydown', (e) => { if (e.key === 'Enter' && window.__t.enter === undefined) window.__t.enter = performance.now(); }, { capture: true, once: true });
    const look = () => {
      if (window.__t.enter === undefined) return;
      if (window.__t.first === undefined && document.querySelector('#timeline .row.current-match')) window.__t.first = performance.now();
      if (window.__t.done === undefined && /^\\d[\\d,.]* of \\d/.test(document.getElementById('find-status').textContent || '')) window.__t.done = performance.now();
    };
    const observer = new MutationObserver(look);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['class'] });
  };
})();`;

interface SearchFigures {
  query: string;
  matches: string;
  firstMs: number;
  doneMs: number;
  reports: number;
  longTasks: number[];
}

async function buildLog(folder: string): Promise<RunLog> {
  const log = await RunLog.open(folder, 'run_bench', { log: silentLogger });
  if (!log) {
    throw new Error('the run log could not be opened');
  }
  const batch: WireEvent[] = [];
  for (let s = 1; s <= TOTAL; s++) {
    batch.push(benchEvent(s, TOTAL));
    if (batch.length === 1000) {
      log.append(batch.splice(0));
    }
    // As a live stream would: the writer keeps up (event() waits for what was appended to be written).
    if (s % 50_000 === 0) {
      await log.event(s);
    }
  }
  log.append(batch);
  await log.event(TOTAL);
  return log;
}

async function main(): Promise<void> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'webview-search-bench-'));
  const closing = new AbortController();
  try {
    let t0 = performance.now();
    const log = await buildLog(folder);
    console.log(`log built: ${((performance.now() - t0) / 1000).toFixed(1)} s (${TOTAL.toLocaleString('en')} events)`);

    const p = await openPanelPage({ initScript: WIRE, height: 800, width: 1200 });
    try {
      const requests = new LogRequests({
        log: () => log,
        recent: () => [],
        reply: (m: HostMessage) => void p.send(m).catch(() => undefined),
        warn: (m) => console.log(`host warning: ${m}`),
        signal: closing.signal,
      });
      await p.page.exposeFunction('__toHost', (m: WebviewMessage) => void requests.handle(m as LogRequest));
      await p.js(`for (const m of window.__toHostQueue.splice(0)) window.__toHost(m); true`);

      // The panel opened on the finished run: its snapshot holds the newest events, the log the rest.
      const recent: WireEvent[] = [];
      for (let s = TOTAL - 999; s <= TOTAL; s++) {
        recent.push(benchEvent(s, TOTAL));
      }
      await openFinishedRun(p, recent, TOTAL);

      const results: SearchFigures[] = [];
      for (const [query, matches] of [
        [RARE, `1 (sequence ${rareAt(TOTAL).toLocaleString('en')})`],
        [COMMON, (10_000).toLocaleString('en')],
      ] as const) {
        await p.page.fill('#search', '');
        await p.js(`window.__watchSearch(); true`);
        await p.page.fill('#search', query);
        t0 = performance.now();
        await p.page.press('#search', 'Enter');
        await p.page.waitForFunction('window.__t.first !== undefined && window.__t.done !== undefined', undefined, {
          timeout: 600_000,
        });
        const t = await p.js<{
          enter: number;
          first: number;
          done: number;
          found: number;
          longTasks: number[];
          status: string;
        }>(
          `({ ...window.__t, found: window.__found, longTasks: [...window.__longTasks], status: document.getElementById('find-status').textContent })`,
        );
        console.log(`"${query}": ${t.status} (wall ${(performance.now() - t0).toFixed(0)} ms from the key press)`);
        results.push({
          query,
          matches,
          firstMs: t.first - t.enter,
          doneMs: t.done - t.enter,
          reports: t.found,
          longTasks: t.longTasks,
        });
      }
      const heap = await heapMb(p);
      const load = os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ');
      console.log(
        `\nSearch in the run panel: ${TOTAL.toLocaleString('en')}-event finished run, real host (LogRequests over the log on disk) and webview (headless Chromium); ${os.cpus().length} cores, load average ${load}\n`,
      );
      console.log(
        '| query | matches | first match highlighted | full count shown | progress reports | long tasks (>= 50 ms) in the panel | longest |',
      );
      console.log('|---|---|---|---|---|---|---|');
      for (const r of results) {
        const longest = r.longTasks.length ? `${Math.max(...r.longTasks).toFixed(0)} ms` : 'none';
        console.log(
          `| "${r.query}" | ${r.matches} | ${r.firstMs.toFixed(0)} ms | ${r.doneMs.toFixed(0)} ms | ${r.reports} | ${r.longTasks.length} | ${longest} |`,
        );
      }
      console.log(`\nPanel JS heap after GC: ${heap.toFixed(1)} MB.`);
      const tasksOk = results.every((r) => r.longTasks.length === 0);
      console.log(`Target: no task over 50 ms in the panel while the search runs: ${tasksOk ? 'met' : 'NOT met'}.`);
    } finally {
      closing.abort();
      await p.close();
      await log.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
