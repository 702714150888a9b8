// The run event subscription against the reference runtime over real sockets: exactly once and
// in order through random drops, restarts, rate limits and silence; typed errors; close().
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiError } from '../../../src/api/errors';
import { type ConnectionState, RunEventSubscription, type SubscribeOptions } from '../../../src/api/events';
import type { RunEvent } from '../../../src/api/types';
import { type RuntimeHandle, type RuntimeOptions, startRuntime } from '../../runtime';
import {
  clientFor,
  collect,
  delay,
  DELIVERY_PATHS,
  disposeClients,
  recordingLogger,
  stateRecorder,
  waitFor,
} from './eventsSupport';

const FAST_BACKOFF = { baseMs: 2, capMs: 20 };

function sequences(events: RunEvent[]): number[] {
  return events.map((e) => e.data.sequence);
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_v, i) => from + i);
}

function reconnects(states: ConnectionState[]): Extract<ConnectionState, { state: 'reconnecting' }>[] {
  return states.filter((s): s is Extract<ConnectionState, { state: 'reconnecting' }> => s.state === 'reconnecting');
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('RunEventSubscription (reference runtime)', function () {
  let runtime: RuntimeHandle | undefined;
  let ownDataDir: string | undefined;

  async function start(options: RuntimeOptions = {}): Promise<RuntimeHandle> {
    runtime = await startRuntime(options);
    return runtime;
  }

  function subscribe(rt: RuntimeHandle, runId: string, opts: SubscribeOptions = {}): RunEventSubscription {
    return new RunEventSubscription(clientFor(rt.baseUrl, rt.apiKey), runId, opts);
  }

  afterEach(async () => {
    await disposeClients();
    await runtime?.close();
    runtime = undefined;
    if (ownDataDir) {
      fs.rmSync(ownDataDir, { recursive: true, force: true });
    }
    ownDataDir = undefined;
  });

  for (const lineEnding of ['\n', '\r\n'] as const) {
    it(`decodes a stream written one byte per TCP segment with ${lineEnding === '\n' ? 'LF' : 'CRLF'} line endings, multi-byte text intact`, async () => {
      const rt = await start({ faults: { sseChunkBytes: 1, sseLineEnding: lineEnding } });
      const runId = await rt.createSyntheticRun({ events: 0, terminal: null, live: true });
      const summary = 'naïve café — 日本語 🎉';
      rt.appendEvent(runId, 'step.started', { step_id: 'step_é', title: summary });
      rt.appendEvent(runId, 'observation.recorded', { step_id: 'step_é', summary });
      rt.endRun(runId, 'completed');
      const events = await collect(subscribe(rt, runId));
      assert.deepEqual(
        events.map((e) => e.event),
        ['step.started', 'observation.recorded', 'run.completed'],
      );
      assert.equal(events[0].data.title, summary);
      assert.equal(events[1].data.summary, summary);
      assert.equal(events[1].data.step_id, 'step_é');
    });
  }

  for (const via of DELIVERY_PATHS) {
    it(`delivers a finished run in order, then the terminal event, and reports connecting, live, ended (${via})`, async () => {
      const rt = await start();
      const runId = await rt.createSyntheticRun({ events: 40, terminal: 'completed' });
      const recorder = stateRecorder();
      const sub = subscribe(rt, runId, { onState: recorder.onState });
      const events = await collect(sub, undefined, via);
      const log = rt.eventLog(runId);
      assert.deepEqual(
        sequences(events),
        log.map((e) => e.sequence),
      );
      assert.deepEqual(
        events.map((e) => e.event),
        log.map((e) => e.event),
      );
      assert.ok(events.slice(0, -1).every((e) => e.known));
      assert.equal(events.at(-1)?.event, 'run.completed');
      assert.deepEqual(
        recorder.states.map((s) => s.state),
        ['connecting', 'live', 'ended'],
      );
      assert.deepEqual(sub.state, { state: 'ended', status: 'completed' });
      assert.equal(sub.lastSequence, log.at(-1)?.sequence);
    });

    it(`delivers 1..2000 exactly once and in order through at least 200 random drops, then the terminal event (${via})`, async () => {
      const rt = await start({ faults: { dropStreamRandom: { seed: 7, maxEventsPerConnection: 16 } } });
      const runId = await rt.createSyntheticRun({ events: 2000, terminal: 'completed' });
      const recorder = stateRecorder();
      const events = await collect(
        subscribe(rt, runId, { onState: recorder.onState, backoff: FAST_BACKOFF }),
        undefined,
        via,
      );
      assert.deepEqual(sequences(events.slice(0, 2000)), range(1, 2000));
      assert.equal(events.length, 2001);
      assert.equal(events[2000].event, 'run.completed');
      const drops = reconnects(recorder.states);
      assert.ok(drops.length >= 200, `only ${drops.length} drops`);
      // Each of those connections brought events, so the backoff starts over every time.
      assert.ok(drops.every((d) => d.attempt === 1));
    });

    it(`silence longer than the idle timeout reconnects and resumes after the last event (${via})`, async () => {
      const rt = await start({ keepAliveMs: 60_000 });
      const runId = await rt.createSyntheticRun({ events: 0, terminal: null, live: true });
      const first = rt.appendEvent(runId, 'plan.created', { steps: 1, strategy: 'quiet' });
      const recorder = stateRecorder();
      const sub = subscribe(rt, runId, { idleTimeoutMs: 250, onState: recorder.onState });
      const done = collect(sub, undefined, via);
      await waitFor(() => reconnects(recorder.states).length >= 1, 'the idle watchdog to reconnect');
      assert.match(reconnects(recorder.states)[0].reason, /no data for 250 ms/);
      assert.equal(sub.lastSequence, first);
      const second = rt.appendEvent(runId, 'step.started', { step_id: 's1', title: 'after the silence' });
      rt.endRun(runId, 'completed');
      const events = await done;
      assert.deepEqual(sequences(events).slice(0, 2), [first, second]);
      assert.equal(events.length, 3);
    });

    it(`rides out the server being down for several seconds and resumes exactly after the last event (${via})`, async () => {
      ownDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-restart-'));
      let rt = await start({ dataDir: ownDataDir });
      const port = rt.port;
      const runId = await rt.createSyntheticRun({ events: 0, terminal: null, live: true });
      for (let i = 1; i <= 5; i++) {
        rt.appendEvent(runId, 'step.started', { step_id: `s${i}`, title: `before ${i}` });
      }
      const recorder = stateRecorder();
      const sub = subscribe(rt, runId, { onState: recorder.onState });
      const received: RunEvent[] = [];
      const done = collect(sub, (e) => void received.push(e), via);
      await waitFor(() => received.length === 5, 'the first five events');
      await rt.close();
      runtime = undefined;
      await delay(3000); // the outage itself
      rt = await start({ dataDir: ownDataDir, port });
      for (let i = 6; i <= 10; i++) {
        rt.appendEvent(runId, 'step.started', { step_id: `s${i}`, title: `after ${i}` });
      }
      rt.endRun(runId, 'completed');
      const events = await done;
      const log = rt.eventLog(runId);
      assert.deepEqual(
        sequences(events),
        log.map((e) => e.sequence),
      );
      assert.equal(events.length, 11);
      const attempts = reconnects(recorder.states).map((s) => s.attempt);
      assert.ok(attempts.length >= 3, `reconnected ${attempts.length} times`);
      assert.deepEqual(attempts, range(1, attempts.length), 'the backoff grows while the server is down');
    });

    it(`honours Retry-After on a 429 before reconnecting (${via})`, async () => {
      const rt = await start({
        faults: { failNext: { count: 1, status: 429, retryAfterSeconds: 1, pathPrefix: '/v1/runs/' } },
      });
      const runId = await rt.createSyntheticRun({ events: 10, terminal: 'completed' });
      const recorder = stateRecorder();
      const started = Date.now();
      let firstAt = 0;
      const events = await collect(
        subscribe(rt, runId, { onState: recorder.onState }),
        () => {
          firstAt ||= Date.now();
        },
        via,
      );
      assert.equal(events.length, 11);
      const [retry] = reconnects(recorder.states);
      assert.ok(retry.delayMs >= 1000, `waited only ${retry.delayMs} ms`);
      assert.ok(firstAt - started >= 950, 'the first event came at least about a second later');
    });

    it(`retries 5xx with a growing backoff, starts over after a healthy connection, and never sooner than retry: (${via})`, async () => {
      const rt = await start({
        faults: {
          failNext: { count: 2, status: 503, pathPrefix: '/v1/runs/' },
          dropStreamAfterEvents: 4,
          sseRetryMs: 300,
        },
      });
      const runId = await rt.createSyntheticRun({ events: 12, terminal: 'completed' });
      const recorder = stateRecorder();
      const events = await collect(subscribe(rt, runId, { onState: recorder.onState }), undefined, via);
      assert.deepEqual(sequences(events), range(1, 13));
      const [first, second, ...later] = reconnects(recorder.states);
      assert.deepEqual([first.attempt, second.attempt], [1, 2]);
      assert.ok(first.delayMs <= 500, `the first retry is planned within 500 ms, not ${first.delayMs}`);
      assert.match(first.reason, /503|server/i);
      assert.equal(later.length, 3);
      assert.ok(
        later.every((s) => s.delayMs >= 300 && s.attempt === 1),
        JSON.stringify(later),
      );
    });

    it(`resuming from a caller's after starts exactly after it (${via})`, async () => {
      const rt = await start();
      const runId = await rt.createSyntheticRun({ events: 50, terminal: 'completed' });
      const sub = subscribe(rt, runId, { after: 20 });
      assert.equal(sub.lastSequence, 20);
      const events = await collect(sub, undefined, via);
      assert.deepEqual(sequences(events), range(21, 51));
    });

    it(`a slow consumer is not mistaken for a silent server (${via})`, async () => {
      const rt = await start({ keepAliveMs: 60_000 });
      const runId = await rt.createSyntheticRun({ events: 3, terminal: 'completed' });
      const recorder = stateRecorder();
      const events = await collect(
        subscribe(rt, runId, { idleTimeoutMs: 300, onState: recorder.onState }),
        () => delay(500),
        via,
      );
      assert.equal(events.length, 4);
      assert.deepEqual(reconnects(recorder.states), []);
    });
  }

  it('keep-alive-only stretches longer than the idle timeout do not reconnect', async () => {
    const rt = await start({ keepAliveMs: 50 });
    const runId = await rt.createSyntheticRun({ events: 0, terminal: null, live: true });
    const recorder = stateRecorder();
    // Margins wide enough that a busy machine's stalled event loop is not taken for silence.
    const sub = subscribe(rt, runId, { idleTimeoutMs: 800, onState: recorder.onState });
    const done = collect(sub);
    await waitFor(() => sub.state.state === 'live', 'the stream to be live');
    await delay(2500); // three idle timeouts of nothing but keep-alives
    rt.appendEvent(runId, 'plan.created', { steps: 1, strategy: 'wait' });
    rt.endRun(runId, 'completed');
    const events = await done;
    assert.deepEqual(
      events.map((e) => e.event),
      ['plan.created', 'run.completed'],
    );
    assert.deepEqual(reconnects(recorder.states), []);
  });

  it('an unknown run fails with the typed not_found error and no retry', async () => {
    const rt = await start();
    const recorder = stateRecorder();
    const err = await rejection(collect(subscribe(rt, 'run_does_not_exist', { onState: recorder.onState })));
    assert.ok(err instanceof ApiError);
    assert.equal(err.kind, 'not_found');
    assert.equal(err.status, 404);
    assert.deepEqual(
      recorder.states.map((s) => s.state),
      ['connecting', 'failed'],
    );
  });

  it('a rejected key fails with the typed authentication error and a 403 with the permission error, without retrying', async () => {
    const rt = await start();
    const runId = await rt.createSyntheticRun({ events: 3, terminal: 'completed' });
    const wrongKey = new RunEventSubscription(clientFor(rt.baseUrl, 'not-the-key'), runId);
    const authErr = await rejection(collect(wrongKey));
    assert.ok(authErr instanceof ApiError && authErr.kind === 'authentication');
    assert.equal(wrongKey.state.state, 'failed');
    assert.ok(!String(authErr.message).includes('not-the-key'));
    rt.setFaults({ failNext: { count: 1, status: 403, pathPrefix: '/v1/runs/' } });
    const recorder = stateRecorder();
    const permErr = await rejection(collect(subscribe(rt, runId, { onState: recorder.onState })));
    assert.ok(permErr instanceof ApiError && permErr.kind === 'permission');
    assert.deepEqual(reconnects(recorder.states), []);
  });

  it('passes unknown event kinds and known kinds with unexpected field types on intact', async () => {
    const rt = await start();
    const withUnknown = await rt.createSyntheticRun({ events: 25, terminal: 'failed', unknownKinds: true });
    const events = await collect(subscribe(rt, withUnknown));
    const unknown = events.filter((e) => e.event === 'metric.sampled');
    assert.deepEqual(sequences(unknown), [10, 20]);
    assert.ok(unknown.every((e) => !e.known && e.data.name === 'tokens' && e.data.value === e.data.sequence * 3));
    assert.equal(events.at(-1)?.event, 'run.failed');
    assert.equal(events.length, 26);

    const live = await rt.createSyntheticRun({ events: 0, terminal: null, live: true });
    const odd = rt.appendEvent(live, 'step.completed', { step_id: 's', duration_ms: 'slow' });
    rt.endRun(live, 'completed');
    const [wrongTypes, end] = await collect(subscribe(rt, live));
    assert.deepEqual(wrongTypes, {
      event: 'step.completed',
      known: false,
      data: { sequence: odd, step_id: 's', duration_ms: 'slow' },
    });
    assert.equal(end.event, 'run.completed');
  });

  it('skips malformed data and messages without an integer sequence, logs that once, and goes on', async () => {
    const rt = await start();
    const runId = await rt.createSyntheticRun({ events: 0, terminal: null, live: true });
    const a = rt.appendEvent(runId, 'plan.created', { steps: 1, strategy: 's' });
    rt.appendRawEvent(runId, 'event: step.started\ndata: {"sequence": 99, "step_id": \n\n');
    rt.appendRawEvent(runId, 'event: step.started\ndata: {"step_id": "s1", "title": "no sequence"}\n\n');
    rt.appendRawEvent(
      runId,
      'event: step.started\ndata: {"sequence": "7", "step_id": "s1", "title": "string sequence"}\n\n',
    );
    rt.appendRawEvent(runId, 'event: step.started\ndata: not json at all\n\n');
    const b = rt.appendEvent(runId, 'step.started', { step_id: 's1', title: 'fine' });
    rt.endRun(runId, 'completed');
    const logger = recordingLogger();
    const sub = subscribe(rt, runId, { logger });
    const events = await collect(sub);
    assert.deepEqual(sequences(events).slice(0, 2), [a, b]);
    assert.equal(events.length, 3);
    assert.equal(sub.skipped, 4);
    const warnings = logger.lines.filter((l) => l.level === 'warn');
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    assert.match(warnings[0].message, /malformed JSON/);
  });

  it('a subscription starting at the end of a finished run ends at once instead of reconnecting', async () => {
    const rt = await start();
    const runId = await rt.createSyntheticRun({ events: 10, terminal: 'completed' });
    const last = rt.eventLog(runId).at(-1)?.sequence ?? 0;
    const recorder = stateRecorder();
    const events = await collect(
      subscribe(rt, runId, { after: last, onState: recorder.onState, backoff: FAST_BACKOFF }),
    );
    assert.deepEqual(events, [], 'nothing is delivered twice');
    assert.deepEqual(
      recorder.states.map((s) => s.state),
      ['connecting', 'live', 'ended'],
    );
  });

  it('a disposed client ends the subscription as failed instead of retrying for ever', async () => {
    const rt = await start({ keepAliveMs: 60_000 });
    const runId = await rt.createSyntheticRun({ events: 0, terminal: null, live: true });
    rt.appendEvent(runId, 'plan.created', { steps: 1, strategy: 's' });
    const client = clientFor(rt.baseUrl, rt.apiKey);
    const sub = new RunEventSubscription(client, runId);
    const iterator = sub[Symbol.asyncIterator]();
    assert.equal((await iterator.next()).done, false);
    await client.dispose();
    const err = await rejection(iterator.next());
    assert.ok(err instanceof ApiError && err.kind === 'aborted');
    assert.equal(sub.state.state, 'failed');
  });

  it('close() mid-stream resolves the pending read as done and frees the socket', async () => {
    const rt = await start({ keepAliveMs: 60_000 });
    const runId = await rt.createSyntheticRun({ events: 0, terminal: null, live: true });
    rt.appendEvent(runId, 'plan.created', { steps: 1, strategy: 's' });
    const sockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
    const before = sockets();
    const recorder = stateRecorder();
    const sub = subscribe(rt, runId, { onState: recorder.onState });
    const iterator = sub[Symbol.asyncIterator]();
    assert.equal((await iterator.next()).done, false);
    assert.ok(sockets() > before);
    const pending = iterator.next();
    sub.close();
    assert.deepEqual(await pending, { done: true, value: undefined });
    await waitFor(() => sockets() <= before, 'both ends of the stream socket to close');
    assert.deepEqual(await iterator.next(), { done: true, value: undefined });
    assert.deepEqual(
      recorder.states.map((s) => s.state),
      ['connecting', 'live'],
    );
  });
});
