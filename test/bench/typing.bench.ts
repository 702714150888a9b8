// Benchmark "typing beside a streaming panel": how long a keystroke in a text editor waits for the
// next frame, in code-server, in three conditions measured in the same run and interleaved round by
// round (so a shared machine's load drift falls on all three alike):
//   (a) the editor alone (no run panel open);
//   (b) the run panel open beside the editor (its own editor group on the right, about half the
//       window's width) while the reference runtime streams 100 events/s into it;
//   (c) the same panel idle (the stream over, every event drawn).
// Each round types TYPING_KEYS (80) keys at a fixed rhythm (one every TYPING_INTERVAL_MS, 75) with
// page.keyboard, into a plain-text file; TYPING_ROUNDS (3) rounds. The panel is opened the way a
// user does (Watch Run from the Tasks view, then "View: Move Editor into Right Group"; the
// extension itself opens it in the active column) and closed again at the end of each round.
//
// The measure, per key, in the workbench page (where code-server runs the editor and, on the same
// main thread, the webview): the browser's Event Timing API, keydown entries (PerformanceObserver
// type 'event', durationThreshold 16). An entry's duration runs from the moment the browser created
// the event (so the time the key waited in the queue behind the webview's work counts) to the next
// paint after its handlers ran: Chromium's own "keystroke to next paint", the figure INP is built
// on. Its limits: entries under 16 ms are not reported (the threshold cannot go lower) and
// durations are rounded to 8 ms; a key it did not report counts as "< 16 ms". Beside it, a
// capture-phase keydown listener on window stamps requestAnimationFrame (the start of the next
// frame) and a MessageChannel message sent from that rAF (the first task after that frame). Why
// Event Timing leads and not that rAF + MessageChannel pair: on a busy main thread the message
// waits in the task queue behind other tasks (the workbench's, the webview's) long after the
// frame was painted (a first run at load 20 read p95 1,208 ms that way against 344 ms by Event
// Timing), so it measures the queue, not the paint; the rAF stamp alone misses the frame's own
// style, layout and paint.
// Both are printed, as bounds around Event Timing.
//
// Printed per condition: p50 / p95 / max keydown to next paint (Event Timing), the rAF and
// rAF + MessageChannel p95, the input delay (event created -> listener ran), the page's
// main-thread busy share while typing (Chromium's own counters) and the machine's load average
// before the condition.
// Run: `npm run bench -- typing` (about 4 min; 6-7 at load 20). TYPING_PROFILE=<path prefix>
// writes a CPU profile of the page while the first round types beside the panel
// (<prefix>-streaming.cpuprofile, <prefix>-idle.cpuprofile).
import { type ChildProcess, fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import type { Browser, Frame, Page } from 'playwright-core';
import { chromiumExecutable } from '../e2e/harness/browser';
import { Cleanup } from '../e2e/harness/cleanup';
import { startCodeServer } from '../e2e/harness/codeServer';
import { ensureCodeServer } from '../e2e/harness/install';
import { repoRoot } from '../e2e/harness/paths';
import { createRunFolder } from '../e2e/harness/runFolder';
import { Workbench } from '../e2e/harness/workbench';
import { runPanelFrame } from '../e2e/scenarios/features/runPanel';
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

const RATE = 100;
const KEYS = Number(process.env.TYPING_KEYS ?? 80);
const ROUNDS = Number(process.env.TYPING_ROUNDS ?? 3);
const INTERVAL_MS = Number(process.env.TYPING_INTERVAL_MS ?? 75);
const OBJECTIVE = 'Typing benchmark run';
const FILE = 'notes.txt';
const WINDOW = { width: 1100, height: 720 };
/** Target: p95 beside the streaming panel within this much of the editor alone. */
const TARGET_DELTA_MS = 16;
const TEXT = 'the quick brown fox jumps over the lazy dog while a run streams beside it ';

// ---- the runtime, in a child process ----

type ToRuntime = { type: 'stream'; rate: number; seconds: number };
type FromRuntime =
  { type: 'ready'; baseUrl: string; apiKey: string; runId: string } | { type: 'streamed'; last: number; count: number };

function nextEvent(n: number): { event: string; data: Record<string, unknown> } {
  const step = `step_${Math.floor(n / 4) + 1}`;
  switch (n % 4) {
    case 0:
      return { event: 'step.started', data: { step_id: step, title: `Typing step ${Math.floor(n / 4) + 1}` } };
    case 1:
      return { event: 'tool.called', data: { step_id: step, tool: 'read_file' } };
    case 2:
      return { event: 'observation.recorded', data: { step_id: step, summary: `observation ${n}` } };
    default:
      return { event: 'step.completed', data: { step_id: step, duration_ms: 1 } };
  }
}

async function stream(rt: RuntimeHandle, runId: string, counter: { n: number }, rate: number, seconds: number) {
  const started = Date.now();
  const total = Math.round(rate * seconds);
  let sent = 0;
  let last = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) * rate) / 1000) + 1);
    for (; sent < due; sent++) {
      const { event, data } = nextEvent(counter.n++);
      last = rt.appendEvent(runId, event, data);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, 1000 / rate / 2)));
  }
  return { type: 'streamed', last, count: total } satisfies FromRuntime;
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

// ---- the workbench side ----

/**
 * Installed once in the workbench page. While `__typing` is set, each keydown records
 * [event created, listener ran, next rAF, first task after that frame] (performance.now() time base) into `__keys`,
 * and each Event Timing keydown entry of 16 ms or more [start time, duration] into `__eventTiming`.
 */
const OBSERVE_KEYS = `(() => {
  window.__typing = false; window.__keys = []; window.__eventTiming = []; window.__noEventTiming = false;
  window.addEventListener('keydown', (e) => {
    if (!window.__typing) return;
    const listener = performance.now();
    // event.timeStamp is on the same clock; guard against a platform that stamps it oddly.
    const created = e.timeStamp > 0 && e.timeStamp <= listener && listener - e.timeStamp < 10000 ? e.timeStamp : listener;
    requestAnimationFrame(() => {
      const frameStart = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { window.__keys.push([created, listener, frameStart, performance.now()]); channel.port1.close(); };
      channel.port2.postMessage(0);
    });
  }, true);
  try {
    new PerformanceObserver((list) => {
      // Kept by start time: entries arrive after their paint, so one of a key pressed before a
      // round (Control+End, Enter) can be delivered during it.
      for (const e of list.getEntries()) if (e.name === 'keydown') window.__eventTiming.push([e.startTime, e.duration]);
    }).observe({ type: 'event', durationThreshold: 16 });
  } catch (e) { window.__noEventTiming = true; }
})()`;

interface Sample {
  /** keydown (event created) to the next rAF callback, ms. */
  raf: number;
  /** keydown (event created) to the first task after that frame, ms. */
  frame: number;
  /** event created to the listener running (the queue wait), ms. */
  inputDelay: number;
}

interface Round {
  samples: Sample[];
  eventTiming: number[];
  noEventTiming: boolean;
  busy: number;
  /** Renderer main thread and all of Chromium: CPU seconds per second (load-independent). */
  cpuMain: number;
  cpuAll: number;
  load: number;
}

type Condition = 'alone' | 'streaming' | 'idle';
const LABEL: Record<Condition, string> = {
  alone: '(a) editor alone',
  streaming: `(b) beside the panel streaming ${RATE}/s`,
  idle: '(c) beside the same panel idle',
};

async function typeRound(
  page: Page,
  busy: () => Promise<Record<string, number>>,
  round: number,
  browser: Browser,
): Promise<Round> {
  const load = os.loadavg()[0];
  await page.evaluate(
    'window.__keys = []; window.__eventTiming = []; window.__since = performance.now(); window.__typing = true;',
  );
  const before = await busy();
  const cpuBefore = await chromiumCpu(browser);
  const started = Date.now();
  for (let i = 0; i < KEYS; i++) {
    const wait = started + i * INTERVAL_MS - Date.now();
    if (wait > 0) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const ch = TEXT[(round * KEYS + i) % TEXT.length];
    await page.keyboard.press(ch === ' ' ? 'Space' : ch);
  }
  // The last keys' frames.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = await busy();
  const cpu = cpuShares(cpuBefore, await chromiumCpu(browser));
  const got = await page.evaluate<{
    keys: [number, number, number, number][];
    eventTiming: number[];
    noEventTiming: boolean;
  }>(
    '(() => { window.__typing = false; return { keys: window.__keys, eventTiming: window.__eventTiming.filter(([t]) => t >= window.__since).map(([, d]) => d), noEventTiming: window.__noEventTiming }; })()',
  );
  await page.keyboard.press('Enter');
  return {
    samples: got.keys.map(([created, listener, raf, frame]) => ({
      raf: raf - created,
      frame: frame - created,
      inputDelay: listener - created,
    })),
    eventTiming: got.eventTiming,
    noEventTiming: got.noEventTiming,
    busy: (after.TaskDuration - before.TaskDuration) / Math.max(0.001, after.Timestamp - before.Timestamp),
    cpuMain: cpu.rendererMain,
    cpuAll: cpu.total,
    load,
  };
}

const signed = (x: number): string => (x >= 0 ? `+${x}` : String(x));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

interface Summary {
  /** Event Timing keydown durations, p50 / p95 / max: a number, or "< 16". */
  p50: string;
  p95: string;
  max: string;
  /** p95 as a number for the verdict (0 when under 16 ms). */
  p95ms: number;
  reported: number;
  typed: number;
  rafP95: number;
  frameP95: number;
  delayP50: number;
  delayP95: number;
  busy: string;
  cpu: string;
  load: string;
}

function summarise(rounds: Round[], typed: number): Summary {
  const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
  const r = (x: number) => Math.round(x);
  const rafs = sorted(rounds.flatMap((x) => x.samples.map((s) => s.raf)));
  const frames = sorted(rounds.flatMap((x) => x.samples.map((s) => s.frame)));
  const delays = sorted(rounds.flatMap((x) => x.samples.map((s) => s.inputDelay)));
  // Event Timing: keys it did not report took under 16 ms; they count as 0 for the order.
  const reported = rounds.flatMap((x) => x.eventTiming);
  const et = sorted([...reported, ...new Array<number>(Math.max(0, typed - reported.length)).fill(0)]);
  const show = (x: number | undefined) => (x === undefined ? 'n/a' : x === 0 ? '< 16' : String(r(x)));
  const none = rounds.some((x) => x.noEventTiming) || et.length === 0;
  return {
    p50: none ? 'n/a' : show(percentile(et, 50)),
    p95: none ? 'n/a' : show(percentile(et, 95)),
    max: none ? 'n/a' : show(et[et.length - 1]),
    p95ms: none ? NaN : r(percentile(et, 95)),
    reported: reported.length,
    typed,
    rafP95: r(percentile(rafs, 95)),
    frameP95: r(percentile(frames, 95)),
    delayP50: r(percentile(delays, 50)),
    delayP95: r(percentile(delays, 95)),
    busy: rounds.map((x) => `${Math.round(x.busy * 100)}%`).join(' / '),
    cpu: rounds.map((x) => `${Math.round(x.cpuMain * 100)}/${Math.round(x.cpuAll * 100)}%`).join(' / '),
    load: rounds.map((x) => x.load.toFixed(2)).join(' / '),
  };
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

async function focusEditorEnd(page: Page): Promise<void> {
  // The first editor group holds the text file; a click there moves the focus from the webview.
  await page.locator('.part.editor .editor-instance .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+End');
}

/** With TYPING_PROFILE, a CPU profile of the page while the first round types (beside the panel). */
async function profiled(page: Page, round: number, what: string, typing: () => Promise<Round>): Promise<Round> {
  const prefix = process.env.TYPING_PROFILE;
  if (!prefix || round !== 0) {
    return typing();
  }
  const profiler = await page.context().newCDPSession(page);
  await profiler.send('Profiler.enable');
  await profiler.send('Profiler.start');
  const result = await typing();
  const { profile } = await profiler.send('Profiler.stop');
  const file = `${prefix}-${what}.cpuprofile`;
  fs.writeFileSync(file, JSON.stringify(profile));
  console.log(`profile: ${file}`);
  await profiler.detach();
  return result;
}

async function measure(): Promise<void> {
  try {
    chromiumExecutable();
  } catch (err) {
    console.log(`SKIPPED typing: ${err instanceof Error ? err.message : String(err)}`);
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

    const run = createRunFolder({
      name: 'typing-bench',
      settings: {
        'agentRuntime.baseUrl': ready.baseUrl,
        // The editor's own typing, without a suggestion widget popping up on some keys only.
        'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
        'editor.wordBasedSuggestions': 'off',
        'editor.suggestOnTriggerCharacters': false,
        'files.autoSave': 'off',
      },
      files: { [FILE]: 'Notes typed while a run streams beside this editor.\n\n' },
    });
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
    await page.setViewportSize(WINDOW);
    const workbench = new Workbench(page, 60_000);
    const payload = [['extensionDevelopmentPath', server.remoteUri(repoRoot())]];
    await workbench.open(server.workbenchUrl({ payload: JSON.stringify(payload) }));
    await workbench.activityItem(UI.container).waitFor({ timeout: 60_000 });
    await (await workbench.explorerRow(FILE)).dblclick();
    await workbench.waitForEditorTab(FILE);
    await workbench.openContainer(UI.container);
    await workbench.runCommand(UI.commands.refreshTasks);
    await workbench.treeRow(UI.tasksView, OBJECTIVE);
    await page.evaluate(OBSERVE_KEYS);

    const metricsSession = await page.context().newCDPSession(page);
    await metricsSession.send('Performance.enable');
    const busy = async (): Promise<Record<string, number>> => {
      const { metrics } = await metricsSession.send('Performance.getMetrics');
      return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
    };

    const results: Record<Condition, Round[]> = { alone: [], streaming: [], idle: [] };
    const typingSeconds = (KEYS * INTERVAL_MS) / 1000;
    for (let round = 0; round < ROUNDS; round++) {
      await focusEditorEnd(page);
      results.alone.push(await typeRound(page, busy, round * 3, browser));

      // The panel, opened over the editor and moved into a group on its right (half the width).
      await workbench.contextMenu(await workbench.treeRow(UI.tasksView, OBJECTIVE), UI.menu.watchRun);
      await runPanelFrame(workbench, 60_000);
      await workbench.runCommand('View: Move Editor into Right Group');
      const frame = await runPanelFrame(workbench, 60_000);
      if (webviewSiteWanted() && round === 0) {
        console.log(await webviewProcessNote(browser));
      }
      await workbench.waitForEditorTab(FILE);

      // Streaming: a second of stream first, then the keys, the stream outlasting them.
      child.send({ type: 'stream', rate: RATE, seconds: Math.ceil(typingSeconds + 3) } satisfies ToRuntime);
      const streamed = nextMessage(child, 'streamed');
      await focusEditorEnd(page);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      results.streaming.push(
        await profiled(page, round, 'streaming', () => typeRound(page, busy, round * 3 + 1, browser)),
      );
      const { last } = await streamed;

      // Idle: every event drawn, nothing arriving.
      await waitForHeader(frame, last, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await focusEditorEnd(page);
      results.idle.push(await profiled(page, round, 'idle', () => typeRound(page, busy, round * 3 + 2, browser)));

      // Back to the editor alone: close the panel's group.
      await workbench.runCommand('View: Close Editors in Other Groups');
      await page
        .locator('iframe.webview')
        .first()
        .waitFor({ state: 'detached', timeout: 30_000 })
        .catch(() => undefined);
      console.log(`round ${round + 1} of ${ROUNDS} done (load ${os.loadavg()[0].toFixed(2)})`);
    }

    const typed = KEYS;
    const summaries = Object.fromEntries(
      (Object.keys(results) as Condition[]).map((c) => [c, summarise(results[c], typed * results[c].length)]),
    ) as Record<Condition, Summary>;
    console.log(
      `\n${KEYS} keys a round, one every ${INTERVAL_MS} ms, ${ROUNDS} rounds; keydown to the next paint (Event Timing) in the workbench page`,
    );
    for (const c of Object.keys(summaries) as Condition[]) {
      const s = summaries[c];
      console.log(
        `${LABEL[c]}: p50 ${s.p50} ms, p95 ${s.p95} ms, max ${s.max} ms (${s.reported} of ${s.typed} keys >= 16 ms)`,
      );
      console.log(
        `       to the next rAF p95 ${s.rafP95} ms, to the first task after that frame p95 ${s.frameP95} ms; input delay p50 ${s.delayP50} ms, p95 ${s.delayP95} ms`,
      );
      console.log(`       page main thread busy ${s.busy} (per round); load average (1 min) before ${s.load}`);
      console.log(`       CPU of one core, renderer main thread / all of Chromium: ${s.cpu} (per round)`);
    }
    console.log(
      `\nmachine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    const delta = summaries.streaming.p95ms - summaries.alone.p95ms;
    console.log(
      `target p95 beside the streaming panel within ${TARGET_DELTA_MS} ms of the editor alone: ${delta <= TARGET_DELTA_MS ? 'met' : 'not met'} (${summaries.streaming.p95} vs ${summaries.alone.p95} ms, ${signed(delta)} ms; idle panel ${signed(summaries.idle.p95ms - summaries.alone.p95ms)} ms; "< 16" counts as 0)`,
    );
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
