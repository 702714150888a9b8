// Benchmark "from the server to the screen": the delay from the moment the
// reference runtime appends an event to the moment the run panel, in code-server, has a row for
// it in its DOM, at 10, 100 and 1,000 events per second (about 10 s each), and whether the panel
// falls behind (a growing backlog) at 1,000 events per second.
//
// How: the runtime runs in a child process (its own event loop, as a real server would) and
// appends the events itself at the rate asked, stamping each with Date.now() as append() returns
// (the stamp also rides in the event's data as `appended_at_ms`, bench-only, so a row's raw JSON
// shows it). A MutationObserver in the panel's webview frame records Date.now() whenever the
// newest sequence present among the rows grows. Both clocks are this machine's wall clock.
// The panel draws once per animation frame at most (src/webview/drawScheduler.ts) and keeps only the rows in view in
// its DOM (a virtual list), so a row skipped over by a draw never appears: an event counts as
// shown when the row of its sequence or of a later one is in the DOM. The header's "Sequence N"
// is recorded the same way: it is written in the same drawing pass as the rows, and it stays
// measurable when the list stops following the newest row (then no newer row enters the DOM).
//
// The extension is loaded from this folder (extensionDevelopmentPath, `npm run compile`'s dist/),
// not from a .vsix. Run: `npm run bench -- panel-latency` (or node out/test/bench/panel-latency.bench.js
// after `npm run compile && npm run compile:tests`); LATENCY_SECONDS (10) sets each rate's length.
// Besides the row, each rate prints where the time goes: the extension host's receipt (the host's
// `receivedAt` stamp of the newest event of each message), the message's arrival in the webview,
// and how busy the page's main thread was (Chromium's own counters; in code-server the workbench
// and the webview share it). LATENCY_PROFILE=<path prefix> writes a CPU profile of the page per
// rate (<prefix>-<rate>.cpuprofile); with LATENCY_TRACE=1 a timeline trace instead (=inv: with
// style and layout invalidation tracking; =paint: with the paint, raster and compositor events,
// which `node out/test/bench/traceSummary.js <file>` sums up), to open in Chromium's DevTools.
import { type ChildProcess, fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import type { Frame } from 'playwright-core';
import { chromiumExecutable } from '../e2e/harness/browser';
import { Cleanup } from '../e2e/harness/cleanup';
import { startCodeServer } from '../e2e/harness/codeServer';
import { ensureCodeServer } from '../e2e/harness/install';
import { repoRoot } from '../e2e/harness/paths';
import { createRunFolder } from '../e2e/harness/runFolder';
import { Screenshots } from '../e2e/harness/screenshots';
import { Workbench } from '../e2e/harness/workbench';
import { runPanelFrame, waitForRow } from '../e2e/scenarios/features/runPanel';
import { UI } from '../e2e/scenarios/ui';
import { type RuntimeHandle, startRuntime } from '../runtime';
import { chromiumCpu, cpuShares } from './chromiumCpu';
import {
  benchPage,
  launchBenchChromium,
  webviewProcessNote,
  webviewSiteWanted,
  webviewsOnAnotherSite,
} from './webviewSite';

/** LATENCY_RATES=100 (comma-separated) measures only those rates. */
const RATES = (process.env.LATENCY_RATES ?? '10,100,1000').split(',').map(Number);
const SECONDS = Number(process.env.LATENCY_SECONDS ?? 10);
const OBJECTIVE = 'Latency benchmark run';
/** The live panel targets: server to row, p95, per rate (events/s). */
const TARGET_P95_MS: Record<number, number> = { 10: 50, 100: 100, 1000: 150 };
/** The timeline trace's categories, by LATENCY_TRACE. */
const TRACE_CATEGORIES: Record<string, string> = {
  '1': 'devtools.timeline,disabled-by-default-devtools.timeline',
  inv: 'devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.invalidationTracking',
  // More than this (blink, cc, viz, benchmark) stalled the page's frames in headless Chromium.
  paint:
    'devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.frame,' +
    'disabled-by-default-devtools.timeline.invalidationTracking,toplevel',
};
/** How often the runtime notes how far it has appended (for the backlog over time). */
const SAMPLE_EVERY_MS = 250;

// ---- the runtime, in a child process ----

type ToRuntime = { type: 'stream'; rate: number; seconds: number };
type FromRuntime =
  | { type: 'ready'; baseUrl: string; apiKey: string; runId: string }
  | { type: 'streamed'; stamps: [number, number][]; samples: [number, number][] };

/** The synthetic step pattern, so the newest event is always the bottom row (steps nest their events). */
function nextEvent(n: number, stamp: number): { event: string; data: Record<string, unknown> } {
  const step = `step_${Math.floor(n / 4) + 1}`;
  const base = { step_id: step, appended_at_ms: stamp };
  switch (n % 4) {
    case 0:
      return { event: 'step.started', data: { ...base, title: `Latency step ${Math.floor(n / 4) + 1}` } };
    case 1:
      return { event: 'tool.called', data: { ...base, tool: 'read_file' } };
    case 2:
      return { event: 'observation.recorded', data: { ...base, summary: `observation ${n}` } };
    default:
      return { event: 'step.completed', data: { ...base, duration_ms: 1 } };
  }
}

async function stream(
  rt: RuntimeHandle,
  runId: string,
  counter: { n: number },
  rate: number,
  seconds: number,
): Promise<FromRuntime> {
  const stamps: [number, number][] = [];
  const samples: [number, number][] = [];
  const started = Date.now();
  const total = Math.round(rate * seconds);
  let lastSample = 0;
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) * rate) / 1000) + 1);
    for (; sent < due; sent++) {
      const stamp = Date.now();
      const { event, data } = nextEvent(counter.n++, stamp);
      const sequence = rt.appendEvent(runId, event, data);
      stamps.push([sequence, Date.now()]);
    }
    const now = Date.now();
    if (now - lastSample >= SAMPLE_EVERY_MS) {
      samples.push([now, stamps[stamps.length - 1]?.[0] ?? 0]);
      lastSample = now;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.min(SAMPLE_EVERY_MS, 1000 / rate / 2))));
  }
  samples.push([Date.now(), stamps[stamps.length - 1][0]]);
  return { type: 'streamed', stamps, samples };
}

async function serveRuntime(): Promise<void> {
  const rt = await startRuntime({ eventDelayMs: 0 });
  const runId = await rt.createSyntheticRun({ events: 1, terminal: null, live: true, taskObjective: OBJECTIVE });
  const counter = { n: 0 };
  process.on('message', (message: ToRuntime) => {
    void stream(rt, runId, counter, message.rate, message.seconds).then((reply) => process.send?.(reply));
  });
  process.on('disconnect', () => void rt.close().then(() => process.exit(0)));
  process.send?.({ type: 'ready', baseUrl: rt.baseUrl, apiKey: rt.apiKey, runId } satisfies FromRuntime);
}

function nextMessage<T extends FromRuntime['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<FromRuntime, { type: T }>> {
  return new Promise((resolve) => {
    const onMessage = (m: FromRuntime) => {
      if (m.type !== type) {
        return;
      }
      child.off('message', onMessage);
      resolve(m as Extract<FromRuntime, { type: T }>);
    };
    child.on('message', onMessage);
  });
}

// ---- the panel side ----

/**
 * Installed in the webview frame. `__shown`: [Date.now(), newest sequence among the rows in the
 * DOM] whenever that grows. `__header`: the same for the header's "Sequence N" (drawn in the same
 * pass as the rows), which stays measurable when the list stops following the newest row.
 * `__lostFollow`: "Jump to latest" was shown (the list stopped following) although nobody scrolled.
 */
const OBSERVE_NEWEST = `(() => {
  const timeline = document.getElementById('timeline');
  const header = document.getElementById('last-sequence');
  const jump = document.getElementById('jump-to-latest');
  window.__newest = 0; window.__shown = []; window.__headerNewest = 0; window.__header = []; window.__lostFollow = 0;
  const look = () => {
    let newest = window.__newest;
    for (const row of timeline.querySelectorAll('[data-sequence]')) { const s = Number(row.dataset.sequence); if (s > newest) newest = s; }
    const now = Date.now();
    if (newest > window.__newest) { window.__newest = newest; window.__shown.push([now, newest]); }
    const h = Number(header.dataset.value || 0);
    if (h > window.__headerNewest) { window.__headerNewest = h; window.__header.push([now, h]); }
    if (jump && !jump.hidden) window.__lostFollow++;
  };
  look();
  window.__arrived = [];
  window.addEventListener('message', (e) => {
    const m = e.data;
    if (m && m.type === 'events' && Array.isArray(m.events) && m.events.length > 0) {
      const last = m.events[m.events.length - 1];
      window.__arrived.push([Date.now(), last.data.sequence, m.events.length, last.receivedAt || 0]);
    }
  });
  const options = { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-sequence', 'data-value', 'hidden'] };
  const observer = new MutationObserver(look);
  observer.observe(timeline, options);
  observer.observe(header, options);
  if (jump) observer.observe(jump, options);
})()`;

interface Observed {
  arrived: [number, number, number, number][];
  shown: [number, number][];
  header: [number, number][];
  lostFollow: number;
}

async function takeObserved(frame: Frame): Promise<Observed> {
  return frame.evaluate<Observed>(
    '(() => { const o = { arrived: window.__arrived, shown: window.__shown, header: window.__header, lostFollow: window.__lostFollow }; window.__arrived = []; window.__shown = []; window.__header = []; window.__lostFollow = 0; return o; })()',
  );
}

async function waitForHeader(frame: Frame, sequence: number, timeoutMs: number): Promise<void> {
  // Polled from here: frame.waitForFunction evaluates its text with eval, which the webview's CSP refuses.
  const deadline = Date.now() + timeoutMs;
  while (
    Number(await frame.evaluate(`Number(document.getElementById('last-sequence').dataset.value || 0)`)) < sequence
  ) {
    if (Date.now() > deadline) {
      throw new Error(`the panel's header did not reach sequence ${sequence} in ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

interface Figures {
  p50: number;
  p95: number;
  max: number;
  draws: number;
  backlogFirst: number;
  backlogLast: number;
  backlogMax: number;
  /** Least-squares trend of the backlog over the streaming, in events per second. */
  backlogSlope: number;
  catchUpMs: number;
}

function slope(points: [number, number][]): number {
  if (points.length < 2) {
    return 0;
  }
  const mx = points.reduce((a, [x]) => a + x, 0) / points.length;
  const my = points.reduce((a, [, y]) => a + y, 0) / points.length;
  const sxy = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

type Streamed = Extract<FromRuntime, { type: 'streamed' }>;

/** Delays and backlog against one series of [time, newest sequence shown]; undefined when it never reached the last event. */
function analyse(streamed: Streamed, series: [number, number][]): Figures | undefined {
  const { stamps, samples } = streamed;
  // For each event, the first moment its sequence or a later one was shown.
  const delays: number[] = [];
  let j = 0;
  for (const [sequence, appendedAt] of stamps) {
    while (j < series.length && series[j][1] < sequence) {
      j++;
    }
    if (j >= series.length) {
      return undefined;
    }
    delays.push(Math.max(0, series[j][0] - appendedAt));
  }
  const sorted = [...delays].sort((x, y) => x - y);
  // Backlog: how many sequences the runtime had appended beyond the newest shown, over time.
  const newestShownAt = (t: number): number => {
    let newest = stamps[0][0] - 1;
    for (const [at, sequence] of series) {
      if (at <= t) {
        newest = Math.max(newest, sequence);
      }
    }
    return newest;
  };
  const backlog = samples.map(([t, appended]) => Math.max(0, appended - newestShownAt(t)));
  const quarter = Math.max(1, Math.floor(backlog.length / 4));
  const mean = (xs: number[]) => Math.round(xs.reduce((x, y) => x + y, 0) / xs.length);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted[sorted.length - 1],
    draws: series.filter(([, sequence]) => sequence >= stamps[0][0]).length,
    backlogFirst: mean(backlog.slice(0, quarter)),
    backlogLast: mean(backlog.slice(-quarter)),
    backlogMax: Math.max(...backlog),
    backlogSlope: Math.round(slope(samples.map(([t], i) => [(t - samples[0][0]) / 1000, backlog[i]]))),
    catchUpMs: series[series.length - 1][0] - stamps[stamps.length - 1][1],
  };
}

function line(what: string, f: Figures | undefined): string {
  if (!f) {
    return `${what}: never reached the last event`;
  }
  return (
    `${what}: delay p50 ${f.p50} ms, p95 ${f.p95} ms, max ${f.max} ms; ${f.draws} draws; ` +
    `backlog first quarter ${f.backlogFirst}, last quarter ${f.backlogLast}, max ${f.backlogMax} events, trend ${f.backlogSlope} events/s; shown ${f.catchUpMs} ms after the last append`
  );
}

async function measure(): Promise<void> {
  try {
    chromiumExecutable();
  } catch (err) {
    console.log(`SKIPPED panel-latency: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  ensureCodeServer();
  const cleanup = new Cleanup();
  try {
    const child = fork(__filename, ['runtime'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    cleanup.add(
      'runtime',
      () =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.disconnect();
        }),
    );
    const ready = await nextMessage(child, 'ready');

    const run = createRunFolder({ name: 'latency-bench', settings: { 'agentRuntime.baseUrl': ready.baseUrl } });
    cleanup.add('run folder', () => run.remove());
    const server = await startCodeServer(run, {
      env: { AGENT_RUNTIME_API_KEY: ready.apiKey },
      developmentPayload: true,
    });
    cleanup.add('code-server', () => server.stop());
    const browser = await launchBenchChromium(run.home);
    cleanup.add('chromium', () => browser.close());
    const page = await benchPage(browser);
    if (webviewSiteWanted()) {
      await webviewsOnAnotherSite(page, server.origin);
    }
    const workbench = new Workbench(page, 60_000);
    const payload = [['extensionDevelopmentPath', server.remoteUri(repoRoot())]];
    await workbench.open(server.workbenchUrl({ payload: JSON.stringify(payload) }));
    await workbench.activityItem(UI.container).waitFor({ timeout: 60_000 });
    await workbench.openContainer(UI.container);
    await workbench.runCommand(UI.commands.refreshTasks);
    await workbench.contextMenu(await workbench.treeRow(UI.tasksView, OBJECTIVE), UI.menu.watchRun);
    const frame = await runPanelFrame(workbench, 60_000);
    await waitForRow(frame, 1);
    await frame.evaluate(OBSERVE_NEWEST);
    if (webviewSiteWanted()) {
      console.log(await webviewProcessNote(browser));
    }
    const shots = new Screenshots('panel-latency');

    const verdicts: string[] = [];
    // The page's main thread (the workbench and the webview share it in code-server): how busy it
    // was while each rate streamed, from Chromium's own counters.
    const metricsSession = await page.context().newCDPSession(page);
    await metricsSession.send('Performance.enable');
    const busy = async (): Promise<Record<string, number>> => {
      const { metrics } = await metricsSession.send('Performance.getMetrics');
      return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
    };
    const stills = (process.env.LATENCY_STILL ?? '').split(',');
    for (const [round, rate] of RATES.entries()) {
      // LATENCY_STILL=none,panel,both (one per rate): stops the CSS animations (spinning icons) of
      // the panel, or of the panel and the workbench, from then on (through the CSSOM: the
      // webview's CSP refuses a style element), to see what they cost.
      const still = stills[round] ?? '';
      const stop = `(() => { for (const sheet of document.styleSheets) { try { sheet.insertRule('* { animation: none !important; }', sheet.cssRules.length); return; } catch {} } })()`;
      if (still === 'panel' || still === 'both') {
        await frame.evaluate(stop);
      }
      if (still === 'both') {
        await page.evaluate(stop);
      }
      const running = `document.getAnimations().filter((a) => a.playState === 'running').length`;
      console.log(
        `animations stopped: ${still || 'none'}; running now: panel ${await frame.evaluate(running)}, workbench ${await page.evaluate(running)}`,
      );
      const before = await busy();
      const cpuBefore = await chromiumCpu(browser);
      const cdp = process.env.LATENCY_PROFILE ? await page.context().newCDPSession(page) : undefined;
      const traceEvents: unknown[] = [];
      if (cdp && process.env.LATENCY_TRACE) {
        cdp.on('Tracing.dataCollected', (e: { value: unknown[] }) => traceEvents.push(...e.value));
        await cdp.send('Tracing.start', {
          categories: TRACE_CATEGORIES[process.env.LATENCY_TRACE] ?? TRACE_CATEGORIES['1'],
          transferMode: 'ReportEvents',
        } as never);
      } else if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.start');
      }
      child.send({ type: 'stream', rate, seconds: SECONDS } satisfies ToRuntime);
      const streamed = await nextMessage(child, 'streamed');
      const after = await busy();
      const cpuAfter = await chromiumCpu(browser);
      const { stamps } = streamed;
      if (cdp && process.env.LATENCY_TRACE) {
        const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
        await cdp.send('Tracing.end');
        await done;
        fs.writeFileSync(`${process.env.LATENCY_PROFILE}-${rate}.trace.json`, JSON.stringify(traceEvents));
      } else if (cdp) {
        const { profile } = await cdp.send('Profiler.stop');
        const file = `${process.env.LATENCY_PROFILE}-${rate}.cpuprofile`;
        fs.writeFileSync(file, JSON.stringify(profile));
        console.log(`profile: ${file}`);
      }
      await waitForHeader(frame, stamps[stamps.length - 1][0], 60_000);
      // A last draw for the rows (they are drawn in the same pass as the header).
      await new Promise((resolve) => setTimeout(resolve, 500));
      await shots.take(page, `${rate}-per-second`);
      const observed = await takeObserved(frame);
      const rows = analyse(streamed, observed.shown);
      const header = analyse(streamed, observed.header);
      const appendedRate = Math.round(
        stamps.length / Math.max(0.001, (stamps[stamps.length - 1][1] - stamps[0][1]) / 1000),
      );
      console.log(
        `${String(rate).padStart(5)}/s: ${stamps.length} events appended (${appendedRate}/s)${observed.lostFollow ? '; "Jump to latest" appeared (the list stopped following the newest row at least once)' : ''}`,
      );
      const wall = after.Timestamp - before.Timestamp;
      const share = (name: string) => `${Math.round(((after[name] - before[name]) / wall) * 100)}%`;
      console.log(
        `       page main thread busy ${share('TaskDuration')} of the time (script ${share('ScriptDuration')}, style ${share('RecalcStyleDuration')}, layout ${share('LayoutDuration')})`,
      );
      console.log(`       ${cpuShares(cpuBefore, cpuAfter).line}`);
      console.log(`       ${line('row in the DOM', rows)}`);
      console.log(`       ${line('header "Sequence N"', header)}`);
      const arrived = analyse(
        streamed,
        observed.arrived.map(([t, s]) => [t, s] as [number, number]),
      );
      console.log(`       ${line('message in the webview', arrived).replace(' draws;', ' messages;')}`);
      const hostSeries = observed.arrived.map((a) => [a[3], a[1]] as [number, number]).sort((x, y) => x[1] - y[1]);
      console.log(
        `       ${line('received by the extension host', analyse(streamed, hostSeries)).replace(' draws;', ' messages;')}`,
      );
      const f = rows ?? header;
      const source = rows ? 'rows' : 'header';
      if (!f) {
        verdicts.push(`at ${rate}/s: not measured`);
      } else {
        const target = TARGET_P95_MS[rate];
        if (target !== undefined) {
          verdicts.push(
            `target p95 <= ${target} ms at ${rate}/s: ${f.p95 <= target ? 'met' : 'not met'} (${f.p95} ms, ${source})`,
          );
        }
      }
      // Growth: the backlog ends more than 50 ms worth of events above where it started.
      if (f && rate >= 1000) {
        const met = f.backlogLast <= f.backlogFirst + rate * 0.05;
        verdicts.push(
          `target no backlog growth at ${rate}/s: ${met ? 'met' : 'not met'} (${f.backlogFirst} -> ${f.backlogLast} events, trend ${f.backlogSlope} events/s, caught up ${f.catchUpMs} ms after the last append; ${source})`,
        );
      }
    }
    console.log(
      `\nmachine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    for (const verdict of verdicts) {
      console.log(verdict);
    }
  } finally {
    await cleanup.run();
  }
}

if (process.argv[2] === 'runtime') {
  void serveRuntime();
} else {
  measure().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
      process.exit(1);
    },
  );
}
