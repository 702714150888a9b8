// GET /v1/runs/{id}/events: SSE framing, resume with after, live tail, keep-alives, terminal then close.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { type RuntimeHandle, startRuntime } from '../index';
import { call, errorOf, readEvents, tempDir, waitFor } from './runtimeTestKit';

describe('runtime: run event stream', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime({ keepAliveMs: 60 });
  });
  afterEach(() => rt.close());

  it('frames each event with id, event and data lines; data carries the integer sequence', async () => {
    const runId = await rt.createSyntheticRun({ events: 6 });
    const reading = await readEvents(rt, runId);
    assert.strictEqual(reading.status, 200);
    assert.match(String(reading.headers['content-type']), /^text\/event-stream/);
    assert.strictEqual(reading.headers['cache-control'], 'no-cache');
    assert.strictEqual(reading.messages.length, 7);
    reading.messages.forEach((m, i) => {
      assert.strictEqual(m.id, String(i + 1));
      assert.strictEqual(JSON.parse(m.data ?? '{}').sequence, i + 1);
    });
    assert.ok(reading.raw.startsWith('id: 1\nevent: plan.created\ndata: {"sequence":1,'));
    assert.deepStrictEqual(
      reading.events.map((e) => e.event),
      [
        'plan.created',
        'step.started',
        'tool.called',
        'observation.recorded',
        'step.completed',
        'step.started',
        'run.completed',
      ],
    );
  });

  it('ends with the terminal event {sequence, status} and then closes the response', async () => {
    for (const terminal of ['completed', 'failed', 'cancelled'] as const) {
      const runId = await rt.createSyntheticRun({ events: 3, terminal });
      const reading = await readEvents(rt, runId);
      assert.strictEqual(reading.outcome, 'ended', 'the server closed the stream cleanly');
      const last = reading.events[reading.events.length - 1];
      assert.strictEqual(last.event, `run.${terminal}`);
      assert.strictEqual(last.data.sequence, 4);
      assert.strictEqual(last.data.status, terminal);
      assert.strictEqual((await call(rt, 'GET', `/v1/runs/${runId}`)).json.status, terminal);
    }
  });

  it('resumes after a sequence without losing or repeating events', async () => {
    const runId = await rt.createSyntheticRun({ events: 50 });
    const resumed = await readEvents(rt, runId, { after: 37 });
    assert.deepStrictEqual(
      resumed.events.map((e) => e.data.sequence),
      Array.from({ length: 14 }, (_, i) => 38 + i),
    );
    const past = await readEvents(rt, runId, { after: 51 });
    // A client already at the end is told again how the run ended, so it does not reconnect for ever.
    assert.deepStrictEqual(
      past.events.map((e) => [e.event, e.data.sequence]),
      [['run.completed', 51]],
      'after the terminal event: the terminal event again, then the close',
    );
    assert.strictEqual(past.outcome, 'ended');
  });

  it('resumes from the Last-Event-ID header when after is absent', async () => {
    const runId = await rt.createSyntheticRun({ events: 5 });
    const res = await fetch(`${rt.baseUrl}/v1/runs/${runId}/events`, {
      headers: { Authorization: `Bearer ${rt.apiKey}`, 'Last-Event-ID': '4' },
    });
    const ids = [...(await res.text()).matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    assert.deepStrictEqual(ids, [5, 6]);
  });

  it('rejects a malformed after and an unknown run', async () => {
    const runId = await rt.createSyntheticRun({ events: 1 });
    for (const bad of ['-1', 'x', '1.5']) {
      const res = await call(rt, 'GET', `/v1/runs/${runId}/events?after=${bad}`);
      assert.strictEqual(res.status, 400);
      assert.strictEqual(errorOf(res).param, 'after');
    }
    assert.strictEqual((await call(rt, 'GET', '/v1/runs/run_nope/events')).status, 404);
  });

  it('tails a live run: appended events arrive as they are written, then the end', async () => {
    const runId = await rt.createSyntheticRun({ events: 2, terminal: null });
    let caughtUp = false;
    const reading = readEvents(rt, runId, {
      after: 1,
      stopWhen: (r) => {
        caughtUp = r.events.length >= 1;
        return false;
      },
    });
    // Append only once the subscriber is connected and idle, so these arrive through the live tail.
    await waitFor(() => caughtUp, 'the subscriber to catch up');
    assert.strictEqual(rt.appendEvent(runId, 'step.started', { step_id: 's9', title: 'Later' }), 3);
    assert.strictEqual(rt.appendEvent(runId, 'custom.kind', { anything: true }), 4);
    rt.endRun(runId, 'completed');
    const result = await reading;
    assert.deepStrictEqual(
      result.events.map((e) => [e.data.sequence, e.event]),
      [
        [2, 'step.started'],
        [3, 'step.started'],
        [4, 'custom.kind'],
        [5, 'run.completed'],
      ],
    );
    assert.strictEqual(result.events[1].data.title, 'Later');
    assert.strictEqual(result.outcome, 'ended');
    assert.deepStrictEqual(
      rt.eventLog(runId).map((e) => e.event),
      ['plan.created', 'step.started', 'step.started', 'custom.kind', 'run.completed'],
    );
  });

  it('sends ": keep-alive" comments while idle, at about the configured interval', async () => {
    const runId = await rt.createSyntheticRun({ events: 1, terminal: null });
    const started = Date.now();
    const reading = await readEvents(rt, runId, { stopWhen: (r) => r.comments.length >= 3 });
    const elapsed = Date.now() - started;
    assert.deepStrictEqual(reading.comments.slice(0, 3), ['keep-alive', 'keep-alive', 'keep-alive']);
    assert.ok(elapsed >= 3 * 60 * 0.8, `keep-alives are spaced by the interval (3 took ${elapsed} ms)`);
    assert.strictEqual(reading.events.length, 1);
  });

  it('serves any number of concurrent subscribers the same events', async () => {
    const runId = await rt.createSyntheticRun({ events: 20, terminal: null });
    const readers = Array.from({ length: 25 }, (_, i) => readEvents(rt, runId, { after: i }));
    for (let i = 0; i < 10; i++) {
      rt.appendEvent(runId, 'tick', { i });
    }
    rt.endRun(runId, 'completed');
    const readings = await Promise.all(readers);
    readings.forEach((r, i) => {
      assert.strictEqual(r.outcome, 'ended');
      assert.deepStrictEqual(
        r.events.map((e) => e.data.sequence),
        Array.from({ length: 31 - i }, (_, k) => i + 1 + k),
      );
    });
  });

  it('streams a 1,000,000-event synthetic run completely', async function () {
    this.timeout(30000);
    const runId = await rt.createSyntheticRun({ events: 1000000 });
    const count = await new Promise<{ ids: number; last: string }>((resolve, reject) => {
      http
        .get(`${rt.baseUrl}/v1/runs/${runId}/events`, { headers: { Authorization: `Bearer ${rt.apiKey}` } }, (res) => {
          let ids = 0;
          let carry = ''; // a pattern split across chunks is counted once, in the next chunk
          let last = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            const text = carry + chunk;
            ids += text.split('id: ').length - 1;
            carry = text.slice(-3);
            last = (last + chunk).slice(-60);
          });
          res.on('end', () => resolve({ ids, last }));
        })
        .on('error', reject);
    });
    assert.strictEqual(count.ids, 1000001, 'one million events plus the terminal one');
    assert.match(count.last, /"sequence":1000001,"status":"completed"\}\n\n$/);
  });

  it('holds back for a slow subscriber instead of buffering the whole log', async function () {
    this.timeout(30000);
    const runId = await rt.createSyntheticRun({ events: 1000000 });
    // Buffers queued on a socket live outside the JS heap: count both.
    const memory = (): number => process.memoryUsage().heapUsed + process.memoryUsage().external;
    const before = memory();
    let received = 0;
    const req = http.get(`${rt.baseUrl}/v1/runs/${runId}/events`, {
      headers: { Authorization: `Bearer ${rt.apiKey}` },
    });
    const res = await new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
    res.on('data', (chunk: Buffer) => {
      received += chunk.length;
      res.pause(); // a subscriber that stops reading after its first chunk
    });
    await waitFor(() => received > 0, 'the first chunk');
    // Give an unbounded writer time to generate the whole 110 MB log into memory.
    let stalledAt = -1;
    await waitFor(async () => {
      const now = memory();
      const stable = stalledAt >= 0 && Math.abs(now - stalledAt) < 1024 * 1024;
      stalledAt = now;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return stable;
    }, 'the server to stop writing');
    const growth = memory() - before;
    assert.ok(growth < 40 * 1024 * 1024, `memory stays bounded (heap grew ${Math.round(growth / 1048576)} MiB)`);
    req.destroy();
  });

  it('gives a client connecting after the end the remaining log, the terminal event, then the close', async () => {
    const runId = await rt.createSyntheticRun({ events: 5, terminal: null });
    rt.endRun(runId, 'failed');
    const reading = await readEvents(rt, runId, { after: 3 });
    assert.deepStrictEqual(
      reading.events.map((e) => e.event),
      ['observation.recorded', 'step.completed', 'run.failed'],
    );
    assert.strictEqual(reading.outcome, 'ended');
  });

  it('writes raw SSE text verbatim (for malformed-data tests)', async () => {
    const runId = await rt.createSyntheticRun({ events: 1, terminal: null });
    rt.appendRawEvent(runId, 'event: weird\ndata: {not json\n\n');
    rt.endRun(runId, 'completed');
    const res = await call(rt, 'GET', `/v1/runs/${runId}/events`);
    assert.ok(res.text.includes('\n\nevent: weird\ndata: {not json\n\nid: 2\nevent: run.completed\n'), res.text);
    assert.deepStrictEqual(
      rt.eventLog(runId).map((e) => e.sequence),
      [1, 2],
      'raw text takes no sequence',
    );
  });

  it('mixes in unknown event kinds when asked', async () => {
    const runId = await rt.createSyntheticRun({ events: 30, unknownKinds: true });
    const reading = await readEvents(rt, runId);
    assert.ok(reading.events.some((e) => e.event === 'metric.sampled'));
    reading.events.forEach((e, i) => assert.strictEqual(e.data.sequence, i + 1));
  });

  it('releases a live synthetic run over time and ends it with its terminal event', async () => {
    const paced = await startRuntime({ eventDelayMs: 5 });
    try {
      const runId = await paced.createSyntheticRun({ events: 10, live: true, terminal: 'completed' });
      const first = await readEvents(paced, runId, { stopWhen: (r) => r.events.length >= 1 });
      assert.ok(first.events.length < 11, 'not everything is there at once');
      const all = await readEvents(paced, runId);
      assert.strictEqual(all.events.length, 11);
      assert.strictEqual(all.events[10].event, 'run.completed');
    } finally {
      await paced.close();
    }
  });

  it('ends a live synthetic run cancelled before all its events are released with run.cancelled, also after a restart', async () => {
    const dataDir = tempDir();
    // 5 ms per event: 100,000 events take minutes, so the cancel comes long before the last.
    const paced = await startRuntime({ eventDelayMs: 5, dataDir });
    let runId = '';
    try {
      const created = await call(paced, 'POST', '/__admin/runs', {
        key: paced.adminKey,
        body: { events: 100_000, live: true, terminal: 'completed' },
      });
      assert.strictEqual(created.status, 201, created.text);
      runId = created.json.run_id as string;
      // Some events are out (the run is under way) when the cancel comes.
      await readEvents(paced, runId, { stopWhen: (r) => r.events.length >= 2 });
      const cancelled = await call(paced, 'POST', `/v1/runs/${runId}/cancel`);
      assert.strictEqual(cancelled.json.status, 'cancelled', cancelled.text);
      const whole = await readEvents(paced, runId);
      assertEndsCancelled(whole, 'read from the start');
      // Asked again from the last event before the end (a client that saw that one): the terminal event, then the close.
      const tail = await readEvents(paced, runId, {
        after: Number(whole.events[whole.events.length - 2]?.data.sequence ?? 0),
      });
      assert.deepStrictEqual(
        tail.events.map((e) => e.event),
        ['run.cancelled'],
      );
      assert.strictEqual(tail.outcome, 'ended');
    } finally {
      await paced.close();
    }
    // The same log after a restart: the run stays cut where it was cancelled.
    const again = await startRuntime({ dataDir });
    try {
      assertEndsCancelled(await readEvents(again, runId), 'after a restart');
    } finally {
      await again.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** The stream ended cleanly, its last event is run.cancelled, and the sequences run 1, 2, ... without a gap. */
function assertEndsCancelled(reading: Awaited<ReturnType<typeof readEvents>>, when: string): void {
  assert.strictEqual(reading.outcome, 'ended', `${when}: the stream closes after the terminal event`);
  const events = reading.events;
  assert.ok(events.length >= 1, `${when}: events came`);
  assert.strictEqual(
    events[events.length - 1].event,
    'run.cancelled',
    `${when}: the log ends with its terminal event (got ${events
      .slice(-2)
      .map((e) => e.event)
      .join(', ')})`,
  );
  assert.ok(events.length < 100_001, `${when}: events after the cancel were not released`);
  assert.deepStrictEqual(
    events.map((e) => e.data.sequence),
    events.map((_, i) => i + 1),
    `${when}: sequences without a gap`,
  );
}
