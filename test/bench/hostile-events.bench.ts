// Benchmark of the run panel's memory budgets: the reference runtime streams
// 8 MB events for a minute; the host reads them through the real RunEventSubscription, its
// RunModel and PanelChannel, with a fake webview that acknowledges each message only after a
// delay (and holds the message until then, as an IPC queue would). We record the host's heap and
// RSS at the start, their peak and at the end, beside `curl -N` reading the same stream into
// /dev/null (its peak RSS from /proc). The figures are in BENCHMARKS.md.
// Run: npm run bench -- hostile   (or node --expose-gc out/test/bench/hostile-events.bench.js)
// Env: HOSTILE_DURATION_S (default 60), HOSTILE_EVENTS_PER_SECOND (default 2), HOSTILE_EVENT_MB (default 8),
//      HOSTILE_ACK_DELAY_MS (default 2000).
import { type ChildProcess, fork, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import { ApiClient } from '../../src/api/client';
import { RunEventSubscription } from '../../src/api/events';
import { DEFAULT_LIMITS, RunModel } from '../../src/runEvents/runModel';
import { PanelChannel } from '../../src/runPanel/panelChannel';
import { DEFAULT_UI_STRINGS, type HostMessage } from '../../src/runPanel/protocol';
import { startRuntime } from '../runtime';

const DURATION_S = Number(process.env.HOSTILE_DURATION_S ?? 60);
const PER_SECOND = Number(process.env.HOSTILE_EVENTS_PER_SECOND ?? 2);
const EVENT_MB = Number(process.env.HOSTILE_EVENT_MB ?? 8);
const ACK_DELAY_MS = Number(process.env.HOSTILE_ACK_DELAY_MS ?? 2000);
const MB = 1024 * 1024;

interface RuntimeInfo {
  baseUrl: string;
  apiKey: string;
  runId: string;
}

// ---- the runtime, in a child process: its own copy of the log must not count as the host's ----

async function serveRuntime(): Promise<void> {
  const rt = await startRuntime({ keepAliveMs: 5000 });
  const runId = await rt.createSyntheticRun({ events: 0, terminal: null, taskObjective: 'Hostile event sizes' });
  process.on('message', () => void stream(rt, runId));
  process.on('disconnect', () => void rt.close().then(() => process.exit(0)));
  process.send?.({ baseUrl: rt.baseUrl, apiKey: rt.apiKey, runId } satisfies RuntimeInfo);
}

async function stream(rt: Awaited<ReturnType<typeof startRuntime>>, runId: string): Promise<void> {
  const text = 'x'.repeat(EVENT_MB * MB);
  // The same size as an array of many small strings: the wide shape the walker must also cut.
  const wide = Array.from({ length: (EVENT_MB * MB) / 64 }, (_, i) => `${i}`.padEnd(60, '.'));
  rt.appendEvent(runId, 'plan.created', { steps: 1, strategy: 'hostile' });
  rt.appendEvent(runId, 'step.started', { step_id: 'step_1', title: 'Send large events' });
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < DURATION_S * 1000) {
    n++;
    if (n % 2 === 1) {
      rt.appendEvent(runId, 'observation.recorded', { step_id: 'step_1', summary: text });
    } else {
      rt.appendEvent(runId, `tool.called`, { step_id: 'step_1', tool: 'dump', args: wide });
    }
    const next = started + (n * 1000) / PER_SECOND;
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  rt.endRun(runId, 'completed');
  process.send?.({ appended: n });
}

// ---- the host ----

function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve) => child.once('message', (m) => resolve(m as T)));
}

const gc = (globalThis as { gc?: () => void }).gc;

function heap(): { heapMB: number; rssMB: number } {
  gc?.();
  const m = process.memoryUsage();
  return { heapMB: m.heapUsed / MB, rssMB: m.rss / MB };
}

/** Peak RSS of a process so far (VmHWM), in MB; undefined once it is gone. */
function peakRss(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

interface HostFigures {
  events: number;
  truncated: number;
  start: { heapMB: number; rssMB: number };
  peak: { heapMB: number; rssMB: number };
  end: { heapMB: number; rssMB: number };
  peakModelMB: number;
  peakPendingMB: number;
  peakHeldByWebviewMB: number;
  collapses: number;
  posted: number;
  seconds: number;
}

async function host(info: RuntimeInfo): Promise<HostFigures> {
  const client = new ApiClient({ baseUrl: info.baseUrl, getApiKey: async () => info.apiKey });
  const model = new RunModel(info.runId);
  // The fake webview: holds each message until it acknowledges it, ACK_DELAY_MS later.
  const held = new Map<number, string>();
  let posted = 0;
  let heldBytes = 0;
  let peakHeld = 0;
  const channel: PanelChannel = new PanelChannel(
    (message: HostMessage) => {
      posted++;
      // What VS Code does with it: serialise (the cost, and the copy it holds until delivered).
      const json = JSON.stringify(message);
      const batch = message.type === 'events' || message.type === 'reset' ? message.batch : undefined;
      if (batch === undefined) {
        return;
      }
      held.set(batch, json);
      heldBytes += json.length;
      peakHeld = Math.max(peakHeld, heldBytes);
      setTimeout(() => {
        heldBytes -= held.get(batch)?.length ?? 0;
        held.delete(batch);
        channel.ack(batch);
      }, ACK_DELAY_MS);
    },
    () => ({
      type: 'reset',
      snapshot: model.snapshot(),
      info: { runId: info.runId },
      connection: { state: 'live' },
      artifacts: { state: 'none' },
      strings: DEFAULT_UI_STRINGS,
    }),
  );
  channel.markReady();
  channel.ack(0); // a webview that speaks acks

  const start = heap();
  const peak = { ...start };
  let peakModel = 0;
  let peakPending = 0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peak.heapMB = Math.max(peak.heapMB, m.heapUsed / MB);
    peak.rssMB = Math.max(peak.rssMB, m.rss / MB);
    peakModel = Math.max(peakModel, model.retainedBytes() / MB);
    peakPending = Math.max(peakPending, channel.pendingBytes / MB);
  }, 100);
  const t0 = performance.now();
  let events = 0;
  let truncated = 0;
  for await (const event of new RunEventSubscription(client, info.runId, {
    signal: AbortSignal.timeout((DURATION_S + 120) * 1000),
  })) {
    const accepted = model.apply([{ event: event.event, data: event.data, receivedAt: Date.now() }]);
    for (const e of accepted) {
      if (e.truncatedBytes !== undefined) {
        truncated++;
      }
    }
    channel.events(accepted);
    events++;
  }
  const seconds = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, ACK_DELAY_MS + 200)); // the last acks
  clearInterval(sampler);
  const end = heap();
  channel.dispose();
  await client.dispose();
  return {
    events,
    truncated,
    start,
    peak,
    end,
    seconds,
    posted,
    peakModelMB: peakModel,
    peakPendingMB: peakPending,
    peakHeldByWebviewMB: peakHeld / MB,
    collapses: channel.collapses,
  };
}

function curlPeer(info: RuntimeInfo): { done: Promise<{ peakRssMB: number; seconds: number }> } {
  const started = performance.now();
  const curl = spawn(
    'curl',
    [
      '-sS',
      '-N',
      '-o',
      '/dev/null',
      '-H',
      `Authorization: Bearer ${info.apiKey}`,
      '-H',
      'Accept: text/event-stream',
      `${info.baseUrl}/v1/runs/${info.runId}/events`,
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, peakRss(curl.pid ?? -1) ?? 0)), 100);
  const done = new Promise<{ peakRssMB: number; seconds: number }>((resolve, reject) => {
    curl.on('error', reject);
    curl.on('exit', (code) => {
      clearInterval(sampler);
      if (code === 0) {
        resolve({ peakRssMB: peak, seconds: (performance.now() - started) / 1000 });
      } else {
        reject(new Error(`curl exited with ${code}`));
      }
    });
  });
  return { done };
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  if (!gc) {
    console.warn('Run with --expose-gc for heap figures after a collection.');
  }
  const child = fork(__filename, ['--runtime'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const info = await nextMessage<RuntimeInfo>(child);
    const load = os.loadavg()[0];
    const peer = curlPeer(info);
    const appended = nextMessage<{ appended: number }>(child);
    const hostRun = host(info);
    child.send('start');
    const [h, c, a] = await Promise.all([hostRun, peer.done, appended]);
    const lines = [
      `Hostile event sizes, ${os.cpus().length} cores, Node ${process.version}, load average ${load.toFixed(1)} at the start; runtime in a child process.`,
      `${fmt(a.appended)} events of ${EVENT_MB} MB (${PER_SECOND}/s for ${DURATION_S} s; odd ones an ${EVENT_MB} MB string, even ones an array of ${fmt((EVENT_MB * MB) / 64)} short strings), plus plan, step and terminal.`,
      `Host: RunEventSubscription -> RunModel (${DEFAULT_LIMITS.event.eventBytes / 1024} KB per event, ${DEFAULT_LIMITS.recentBytes / MB} MB window) -> PanelChannel -> a fake webview acknowledging after ${ACK_DELAY_MS} ms.`,
      '',
      '| | start | peak | end |',
      '|---|---|---|---|',
      `| host JS heap (after gc at start and end; peak sampled every 100 ms) | ${fmt(h.start.heapMB, 1)} MB | ${fmt(h.peak.heapMB, 1)} MB | ${fmt(h.end.heapMB, 1)} MB |`,
      `| host RSS | ${fmt(h.start.rssMB)} MB | ${fmt(h.peak.rssMB)} MB | ${fmt(h.end.rssMB)} MB |`,
      `| peer: curl -N > /dev/null, peak RSS | | ${fmt(c.peakRssMB, 1)} MB | |`,
      '',
      `| host figure | value |`,
      '|---|---|',
      `| events read by the host / cut to the budget | ${fmt(h.events)} / ${fmt(h.truncated)} |`,
      `| the model's retained bytes, by its own accounting (peak) | ${fmt(h.peakModelMB, 2)} MB |`,
      `| channel: pending (queued + unacknowledged) bytes, peak | ${fmt(h.peakPendingMB, 2)} MB |`,
      `| held by the fake webview until acknowledged, peak | ${fmt(h.peakHeldByWebviewMB, 2)} MB |`,
      `| messages posted / backlogs dropped for a fresh reset | ${fmt(h.posted)} / ${fmt(h.collapses)} |`,
      `| wall time, host / curl | ${fmt(h.seconds, 1)} s / ${fmt(c.seconds, 1)} s |`,
    ];
    console.log(lines.join('\n'));
  } finally {
    child.disconnect();
  }
}

if (process.argv.includes('--runtime')) {
  void serveRuntime();
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
