// Benchmark of the run event stream (issue 4): a finished 1,000,000-event run read through
// RunEventSubscription beside `curl -N` into /dev/null (same runtime, same run, alternating),
// and the time from a dropped connection to the first event of the next one.
// Run: `npm run bench` (or `node out/test/bench/events.bench.js` after `npm run compile:tests`).
import { spawn, fork, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createParser } from 'eventsource-parser';
import { ApiClient } from '../../src/api/client';
import { RunEventSubscription } from '../../src/api/events';
import { startRuntime, type FaultSettings } from '../runtime';

const EVENTS = 1_000_000;
const ROUNDS = 5;
const DROPS = 100;
const EVENTS_PER_CONNECTION = 500;

interface RuntimeInfo {
  baseUrl: string;
  apiKey: string;
  bigRun: string;
  dropRun: string;
}

// ---- the runtime, in a child process so that the server does not share our event loop ----

async function serveRuntime(): Promise<void> {
  const rt = await startRuntime({ keepAliveMs: 15_000 });
  const bigRun = await rt.createSyntheticRun({ events: EVENTS, terminal: 'completed' });
  const dropRun = await rt.createSyntheticRun({ events: DROPS * EVENTS_PER_CONNECTION + EVENTS_PER_CONNECTION / 2, terminal: 'completed' });
  process.on('message', (message: { faults: FaultSettings }) => {
    rt.setFaults(message.faults);
    process.send?.('ok');
  });
  process.on('disconnect', () => void rt.close().then(() => process.exit(0)));
  process.send?.({ baseUrl: rt.baseUrl, apiKey: rt.apiKey, bigRun, dropRun } satisfies RuntimeInfo);
}

function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve) => child.once('message', (m) => resolve(m as T)));
}

// ---- the measurements ----

function curlOnce(url: string, apiKey: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const curl = spawn('curl', ['-sS', '-N', '-o', '/dev/null', '-H', `Authorization: Bearer ${apiKey}`, '-H', 'Accept: text/event-stream', url], { stdio: ['ignore', 'ignore', 'inherit'] });
    curl.on('error', reject);
    curl.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`curl exited with ${code}`))));
  });
}

interface SubscriptionRun {
  ms: number;
  cpuMs: number;
  events: number;
  peakHeapMB: number;
}

async function subscriptionOnce(client: ApiClient, runId: string): Promise<SubscriptionRun> {
  (globalThis as { gc?: () => void }).gc?.();
  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 50);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let events = 0;
  let previous = 0;
  for await (const event of new RunEventSubscription(client, runId)) {
    if (event.data.sequence !== previous + 1) throw new Error(`sequence ${event.data.sequence} after ${previous}`);
    previous = event.data.sequence;
    events++;
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, events, peakHeapMB: peakHeap / 1024 / 1024 };
}

/** The floor: the same bytes through TextDecoder, eventsource-parser and JSON.parse, nothing else. */
async function bareParseOnce(client: ApiClient, runId: string): Promise<number> {
  const started = performance.now();
  let events = 0;
  const parser = createParser({
    onEvent: (message) => {
      JSON.parse(message.data);
      events++;
    },
  });
  const decoder = new TextDecoder();
  const { body } = await client.openEventStream(runId, {});
  for await (const chunk of body) parser.feed(decoder.decode(chunk, { stream: true }));
  if (events !== EVENTS + 1) throw new Error(`parsed ${events} events`);
  return performance.now() - started;
}

interface ReconnectFigures {
  samples: number[];
  delays: number[];
  delivered: number;
}

async function reconnectLatencies(client: ApiClient, runId: string): Promise<ReconnectFigures> {
  const samples: number[] = [];
  const delays: number[] = [];
  let lostAt: number | undefined;
  let delivered = 0;
  const sub = new RunEventSubscription(client, runId, {
    signal: AbortSignal.timeout(120_000), // a runtime whose drops lose events would otherwise spin for ever
    onState: (s) => {
      if (s.state !== 'reconnecting') return;
      lostAt = performance.now();
      delays.push(s.delayMs);
    },
  });
  for await (const event of sub) {
    if (event.data.sequence !== delivered + 1) throw new Error(`sequence ${event.data.sequence} after ${delivered}`);
    delivered++;
    if (lostAt !== undefined) {
      samples.push(performance.now() - lostAt);
      lostAt = undefined;
    }
  }
  return { samples, delays, delivered };
}

function median(values: number[]): number {
  return percentile(values, 50);
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  const child = fork(__filename, ['--runtime'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const info = await nextMessage<RuntimeInfo>(child);
    const setFaults = async (faults: FaultSettings) => {
      child.send({ faults });
      await nextMessage(child);
    };
    const client = new ApiClient({ baseUrl: info.baseUrl, getApiKey: async () => info.apiKey });
    const url = `${info.baseUrl}/v1/runs/${info.bigRun}/events`;
    const total = EVENTS + 1; // and the terminal event

    await curlOnce(url, info.apiKey); // warm-up: the runtime's first pass over the log
    const curlMs: number[] = [];
    const subRuns: SubscriptionRun[] = [];
    const bareMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      curlMs.push(await curlOnce(url, info.apiKey));
      bareMs.push(await bareParseOnce(client, info.bigRun));
      const run = await subscriptionOnce(client, info.bigRun);
      if (run.events !== total) throw new Error(`the subscription delivered ${run.events} events, not ${total}`);
      subRuns.push(run);
    }

    await setFaults({ dropStreamAfterEvents: EVENTS_PER_CONNECTION });
    const reconnect = await reconnectLatencies(client, info.dropRun);
    await setFaults({});
    await client.dispose();

    const curlMedian = median(curlMs);
    const subMedian = median(subRuns.map((r) => r.ms));
    const bareMedian = median(bareMs);
    const ratio = subMedian / curlMedian;
    const latencyMedian = median(reconnect.samples);
    const latencyP95 = percentile(reconnect.samples, 95);
    const lines = [
      `Run event stream, ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} at the start, runtime in a child process; median of ${ROUNDS} alternating rounds.`,
      '',
      `| ${fmt(total)} events of a finished run | curl -N > /dev/null | parse only (floor) | RunEventSubscription | subscription / curl |`,
      '|---|---|---|---|---|',
      `| wall time | ${fmt(curlMedian / 1000, 2)} s | ${fmt(bareMedian / 1000, 2)} s | ${fmt(subMedian / 1000, 2)} s | ${fmt(ratio, 2)}x (target <= 2x) |`,
      `| events/s | ${fmt(total / (curlMedian / 1000))} | ${fmt(total / (bareMedian / 1000))} | ${fmt(total / (subMedian / 1000))} | |`,
      `| all rounds (s) | ${curlMs.map((ms) => fmt(ms / 1000, 2)).join(', ')} | ${bareMs.map((ms) => fmt(ms / 1000, 2)).join(', ')} | ${subRuns.map((r) => fmt(r.ms / 1000, 2)).join(', ')} | |`,
      `| CPU time of this process (median) | | | ${fmt(median(subRuns.map((r) => r.cpuMs)) / 1000, 2)} s | |`,
      `| peak JS heap while consuming | | | ${fmt(Math.max(...subRuns.map((r) => r.peakHeapMB)), 1)} MB | |`,
      '',
      '"parse only" is the same stream through ApiClient.openEventStream, TextDecoder, eventsource-parser and JSON.parse with nothing else: the floor the subscription builds on.',
      '',
      `| Dropped connection -> first event of the next one (${reconnect.samples.length} drops, every ${EVENTS_PER_CONNECTION} events) | median | p95 | max |`,
      '|---|---|---|---|',
      `| drop to first new event (target < 500 ms) | ${fmt(latencyMedian)} ms | ${fmt(latencyP95)} ms | ${fmt(Math.max(...reconnect.samples))} ms |`,
      `| of which the backoff delay chosen | ${fmt(median(reconnect.delays))} ms | ${fmt(percentile(reconnect.delays, 95))} ms | ${fmt(Math.max(...reconnect.delays))} ms |`,
      '',
      `Events delivered in the drop run: ${fmt(reconnect.delivered)} (exactly once, in order).`,
      `Targets: throughput within 2x of curl: ${ratio <= 2 ? 'met' : 'NOT met'}; first reconnect under 500 ms (p95): ${latencyP95 < 500 ? 'met' : 'NOT met'}.`,
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
