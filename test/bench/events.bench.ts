// Benchmark of the run event stream: a finished 1,000,000-event run read by
// `curl -N` into /dev/null, by RunEventSubscription one event per step, by its batches(), and by
// the `eventsource` package with JSON.parse on each message (same runtime, same run, alternating
// rounds, each reader in a fresh process so that its CPU time and peak RSS are its own); then the
// time from a dropped connection to the first event of the next one.
// Run: `npm run bench` (or `node out/test/bench/events.bench.js` after `npm run compile:tests`).
import { type ChildProcess, fork, spawn } from 'node:child_process';
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createParser } from 'eventsource-parser';
import { ApiClient } from '../../src/api/client';
import { RunEventSubscription } from '../../src/api/events';
import { type FaultSettings, startRuntime } from '../runtime';

const EVENTS = 1_000_000;
const ROUNDS = 3;
const DROPS = 100;
const EVENTS_PER_CONNECTION = 500;
const METHODS = ['curl', 'parse', 'events', 'batches', 'eventsource'] as const;
type Method = (typeof METHODS)[number];
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
  const dropRun = await rt.createSyntheticRun({
    events: DROPS * EVENTS_PER_CONNECTION + EVENTS_PER_CONNECTION / 2,
    terminal: 'completed',
  });
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

/** One reader's figures: wall time from its first request to its last event, its CPU and peak RSS. */
interface Figures {
  ms: number;
  cpuMs: number;
  maxRssMB: number;
  events: number;
}

interface ReaderJob {
  method: Exclude<Method, 'curl'>;
  baseUrl: string;
  apiKey: string;
  runId: string;
}

function curlOnce(url: string, apiKey: string): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // GNU time reports curl's own CPU and peak RSS (KB) on stderr.
    const curl = spawn(
      '/usr/bin/time',
      [
        '-f',
        'TIME %U %S %M',
        'curl',
        '-sS',
        '-N',
        '-o',
        '/dev/null',
        '-H',
        `Authorization: Bearer ${apiKey}`,
        '-H',
        'Accept: text/event-stream',
        url,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    curl.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    curl.on('error', reject);
    curl.on('close', (code) => {
      const ms = performance.now() - started;
      const m = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
      if (code !== 0 || !m) {
        return reject(new Error(`curl exited with ${code}: ${stderr}`));
      }
      resolve({ ms, cpuMs: (Number(m[1]) + Number(m[2])) * 1000, maxRssMB: Number(m[3]) / 1024, events: NaN });
    });
  });
}

/** Runs one reader in a fresh Node process (this file with --reader). */
function readerOnce(job: ReaderJob): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['--reader'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (m: Figures | { error: string }) => ('error' in m ? reject(new Error(m.error)) : resolve(m)));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? undefined : reject(new Error(`reader ${job.method} exited with ${code}`)),
    );
    child.send(job);
  });
}

async function read(job: ReaderJob): Promise<number> {
  const client = new ApiClient({ baseUrl: job.baseUrl, getApiKey: async () => job.apiKey });
  try {
    switch (job.method) {
      case 'events': {
        let previous = 0;
        for await (const event of new RunEventSubscription(client, job.runId)) {
          if (event.data.sequence !== previous + 1) {
            throw new Error(`sequence ${event.data.sequence} after ${previous}`);
          }
          previous = event.data.sequence;
        }
        return previous;
      }
      case 'batches': {
        let previous = 0;
        for await (const batch of new RunEventSubscription(client, job.runId).batches()) {
          for (const event of batch) {
            if (event.data.sequence !== previous + 1) {
              throw new Error(`sequence ${event.data.sequence} after ${previous}`);
            }
            previous = event.data.sequence;
          }
        }
        return previous;
      }
      case 'parse':
        return await bareParse(client, job.runId);
      case 'eventsource':
        return await eventSourceRead(job);
    }
  } finally {
    await client.dispose();
  }
}

/** The floor: the same bytes through TextDecoder, eventsource-parser and JSON.parse, nothing else. */
async function bareParse(client: ApiClient, runId: string): Promise<number> {
  let events = 0;
  const parser = createParser({
    onEvent: (message) => {
      JSON.parse(message.data);
      events++;
    },
  });
  const decoder = new TextDecoder();
  const { body } = await client.openEventStream(runId, {});
  for await (const chunk of body) {
    parser.feed(decoder.decode(chunk, { stream: true }));
  }
  return events;
}

/** What a Node user would reach for: the `eventsource` package on Node's fetch, JSON.parse per message. */
async function eventSourceRead(job: ReaderJob): Promise<number> {
  const { EventSource } = await import('eventsource');
  return new Promise((resolve, reject) => {
    let events = 0;
    let previous = 0;
    const source = new EventSource(`${job.baseUrl}/v1/runs/${job.runId}/events`, {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...init?.headers, Authorization: `Bearer ${job.apiKey}` } }),
    });
    const onMessage = (message: MessageEvent): void => {
      const data = JSON.parse(message.data as string) as { sequence: number };
      if (data.sequence !== previous + 1) {
        source.close();
        reject(new Error(`sequence ${data.sequence} after ${previous}`));
        return;
      }
      previous = data.sequence;
      events++;
      if (message.type === 'run.completed') {
        source.close();
        resolve(events);
      }
    };
    // Named events reach only the listeners of their name (the SSE spec): one per kind of the synthetic run.
    for (const kind of [
      'plan.created',
      'step.started',
      'tool.called',
      'observation.recorded',
      'step.completed',
      'run.completed',
    ]) {
      source.addEventListener(kind, onMessage);
    }
    source.onerror = (err) => {
      source.close();
      reject(new Error(`eventsource: ${err.message ?? 'error'}`));
    };
  });
}

async function serveReader(): Promise<void> {
  const job = await new Promise<ReaderJob>((resolve) => process.once('message', (m) => resolve(m as ReaderJob)));
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  try {
    const events = await read(job);
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    process.send?.({
      ms,
      cpuMs: (cpu.user + cpu.system) / 1000,
      maxRssMB: process.resourceUsage().maxRSS / 1024,
      events,
    } satisfies Figures);
  } catch (err) {
    process.send?.({ error: String(err) });
  }
  process.disconnect();
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
      if (s.state !== 'reconnecting') {
        return;
      }
      lostAt = performance.now();
      delays.push(s.delayMs);
    },
  });
  for await (const event of sub) {
    if (event.data.sequence !== delivered + 1) {
      throw new Error(`sequence ${event.data.sequence} after ${delivered}`);
    }
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
  if (values.length === 0) {
    return NaN;
  }
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  const child = fork(__filename, ['--runtime'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const info = await nextMessage<RuntimeInfo>(child);
    const setFaults = async (faults: FaultSettings) => {
      child.send({ faults });
      await nextMessage(child);
    };
    const url = `${info.baseUrl}/v1/runs/${info.bigRun}/events`;
    const total = EVENTS + 1; // and the terminal event
    const loadAtStart = os.loadavg()[0];

    await curlOnce(url, info.apiKey); // warm-up: the runtime's first pass over the log
    const figures = new Map<Method, Figures[]>(METHODS.map((m) => [m, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const method of METHODS) {
        const f =
          method === 'curl'
            ? await curlOnce(url, info.apiKey)
            : await readerOnce({ method, baseUrl: info.baseUrl, apiKey: info.apiKey, runId: info.bigRun });
        if (method !== 'curl' && f.events !== total) {
          throw new Error(`${method} read ${f.events} events, not ${total}`);
        }
        figures.get(method)?.push(f);
      }
    }

    const client = new ApiClient({ baseUrl: info.baseUrl, getApiKey: async () => info.apiKey });
    await setFaults({ dropStreamAfterEvents: EVENTS_PER_CONNECTION });
    const reconnect = await reconnectLatencies(client, info.dropRun);
    await setFaults({});
    await client.dispose();

    const med = (m: Method, pick: (f: Figures) => number) => median((figures.get(m) ?? []).map(pick));
    const curlMs = med('curl', (f) => f.ms);
    const batchRatio = med('batches', (f) => f.ms) / curlMs;
    const eventsRatio = med('events', (f) => f.ms) / curlMs;
    const batchesBeatEventSource = med('batches', (f) => f.ms) < med('eventsource', (f) => f.ms);
    const names: Record<Method, string> = {
      curl: 'curl -N > /dev/null',
      parse: 'parse only (floor)',
      events: 'subscription, per event',
      batches: 'subscription.batches()',
      eventsource: 'eventsource + JSON.parse',
    };
    const row = (label: string, cell: (m: Method) => string) => `| ${label} | ${METHODS.map(cell).join(' | ')} |`;
    const latencyP95 = percentile(reconnect.samples, 95);
    const lines = [
      `Run event stream, ${os.cpus().length} cores, Node ${process.version}, load average ${loadAtStart.toFixed(1)} at the start, runtime in a child process; each reader a fresh process; median of ${ROUNDS} alternating rounds.`,
      '',
      `| ${fmt(total)} events of a finished run | ${METHODS.map((m) => names[m]).join(' | ')} |`,
      `|---|${METHODS.map(() => '---').join('|')}|`,
      row('wall time', (m) => `${fmt(med(m, (f) => f.ms) / 1000, 2)} s`),
      row('x curl', (m) => `${fmt(med(m, (f) => f.ms) / curlMs, 2)}x`),
      row('CPU time (user+sys)', (m) => `${fmt(med(m, (f) => f.cpuMs) / 1000, 2)} s`),
      row('peak RSS', (m) => `${fmt(Math.max(...(figures.get(m) ?? []).map((f) => f.maxRssMB)), 0)} MB`),
      row('all rounds (s)', (m) => (figures.get(m) ?? []).map((f) => fmt(f.ms / 1000, 2)).join(', ')),
      '',
      "Wall time of the Node readers is from the request to the last event inside the reader (Node's own start-up not counted); curl's includes its process start.",
      '',
      `| Dropped connection -> first event of the next one (${reconnect.samples.length} drops, every ${EVENTS_PER_CONNECTION} events) | median | p95 | max |`,
      '|---|---|---|---|',
      `| drop to first new event (target < 500 ms) | ${fmt(median(reconnect.samples))} ms | ${fmt(latencyP95)} ms | ${fmt(Math.max(...reconnect.samples))} ms |`,
      `| of which the backoff delay chosen | ${fmt(median(reconnect.delays))} ms | ${fmt(percentile(reconnect.delays, 95))} ms | ${fmt(Math.max(...reconnect.delays))} ms |`,
      '',
      `Events delivered in the drop run: ${fmt(reconnect.delivered)} (exactly once, in order).`,
      `Targets: batches within 2x of curl: ${batchRatio <= 2 ? 'met' : 'NOT met'} (${fmt(batchRatio, 2)}x; per event ${fmt(eventsRatio, 2)}x); batches ahead of eventsource + JSON.parse: ${batchesBeatEventSource ? 'met' : 'NOT met'}; first reconnect under 500 ms (p95): ${latencyP95 < 500 ? 'met' : 'NOT met'}.`,
    ];
    console.log(lines.join('\n'));
  } finally {
    child.disconnect();
  }
}

if (process.argv.includes('--runtime')) {
  void serveRuntime();
} else if (process.argv.includes('--reader')) {
  void serveReader();
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
