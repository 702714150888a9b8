// Every fault switch, set through options, setFaults and the admin HTTP endpoint.
import * as assert from 'node:assert';
import * as http from 'node:http';
import { type RuntimeHandle, startRuntime } from '../index';
import { call, createTask, errorOf, readEvents, runToEnd, upload, uploadOk } from './runtimeTestKit';

/** Sends a request and reports whether the server answered or dropped the connection. */
function rawRequest(
  rt: RuntimeHandle,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status?: number; text: string; dropped: boolean; headers?: http.IncomingHttpHeaders }> {
  return new Promise((resolve) => {
    const req = http.request(`${rt.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${rt.apiKey}`, 'Content-Type': 'application/json', ...headers },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, text, dropped: false, headers: res.headers }));
      res.on('error', () => resolve({ status: res.statusCode, text, dropped: true }));
    });
    req.on('error', () => resolve({ text: '', dropped: true }));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('runtime: fault switches', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime();
  });
  afterEach(() => rt.close());

  it('dropStreamAfterEvents cuts every connection after N events; resuming with after loses nothing', async () => {
    const runId = await rt.createSyntheticRun({ events: 10 });
    rt.setFaults({ dropStreamAfterEvents: 4 });
    const received: number[] = [];
    let after = 0;
    for (let attempt = 0; attempt < 10; attempt++) {
      const reading = await readEvents(rt, runId, { after });
      received.push(...reading.events.map((e) => e.data.sequence as number));
      after = received[received.length - 1] ?? after;
      if (reading.outcome === 'ended') {
        break;
      }
      assert.strictEqual(reading.outcome, 'cut');
      assert.strictEqual(reading.events.length, 4);
    }
    assert.deepStrictEqual(
      received,
      Array.from({ length: 11 }, (_, i) => i + 1),
    );
  });

  it('dropStreamRandom cuts at seeded random points: the same seed gives the same cuts', async () => {
    const cutsFor = async (seed: number): Promise<number[]> => {
      const other = await startRuntime({ faults: { dropStreamRandom: { seed, maxEventsPerConnection: 5 } } });
      try {
        const runId = await other.createSyntheticRun({ events: 30 });
        const sizes: number[] = [];
        let after = 0;
        for (;;) {
          const reading = await readEvents(other, runId, { after });
          sizes.push(reading.events.length);
          if (reading.outcome === 'ended') {
            break;
          }
          after = reading.events[reading.events.length - 1].data.sequence as number;
        }
        return sizes;
      } finally {
        await other.close();
      }
    };
    const first = await cutsFor(42);
    assert.deepStrictEqual(await cutsFor(42), first);
    assert.ok(
      first.every((n) => n >= 1 && n <= 5),
      JSON.stringify(first),
    );
    assert.ok(new Set(first.slice(0, -1)).size > 1, 'the cut points vary');
  });

  it('failNext answers the next K matching requests with the status and Retry-After, then recovers', async () => {
    rt.setFaults({ failNext: { count: 2, status: 429, retryAfterSeconds: 3 } });
    for (let i = 0; i < 2; i++) {
      const res = await call(rt, 'GET', '/v1/files');
      assert.strictEqual(res.status, 429);
      assert.strictEqual(res.headers.get('retry-after'), '3');
      assert.strictEqual(errorOf(res).type, 'rate_limit_error');
      assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
    }
    assert.strictEqual((await call(rt, 'GET', '/v1/files')).status, 200);
  });

  it('failNext matches only its method and path prefix', async () => {
    rt.setFaults({ failNext: { count: 1, status: 503, method: 'POST', pathPrefix: '/v1/tasks' } });
    assert.strictEqual((await call(rt, 'GET', '/v1/tasks')).status, 200);
    assert.strictEqual((await upload(rt, 'a.txt', 'x')).status, 201);
    const failed = await call(rt, 'POST', '/v1/tasks', { body: { objective: 'x' } });
    assert.strictEqual(failed.status, 503);
    assert.strictEqual(errorOf(failed).type, 'api_error');
    assert.strictEqual((await call(rt, 'POST', '/v1/tasks', { body: { objective: 'x' } })).status, 201);
  });

  it('failNext with html answers an HTML 502 page like a proxy would', async () => {
    rt.setFaults({ failNext: { count: 1, status: 502, html: true } });
    const res = await call(rt, 'GET', '/v1/files');
    assert.strictEqual(res.status, 502);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.text, /<h1>502 Bad Gateway<\/h1>/);
  });

  it('commitThenDrop does the work, drops the socket, and a retry with the same key replays it', async () => {
    rt.setFaults({ commitThenDrop: { count: 1 } });
    const headers = { 'Idempotency-Key': 'drop-1' };
    const dropped = await rawRequest(rt, 'POST', '/v1/tasks', { objective: 'Committed' }, headers);
    assert.strictEqual(dropped.dropped, true);
    const tasks = (await call(rt, 'GET', '/v1/tasks')).json.data as { id: string; objective: string }[];
    assert.deepStrictEqual(
      tasks.map((t) => t.objective),
      ['Committed'],
      'the work was done',
    );
    const retry = await rawRequest(rt, 'POST', '/v1/tasks', { objective: 'Committed' }, headers);
    assert.strictEqual(retry.status, 201);
    assert.strictEqual(retry.headers?.['idempotent-replayed'], 'true');
    assert.strictEqual(JSON.parse(retry.text).id, tasks[0].id);
  });

  it('commitThenDrop honours its path prefix and leaves GETs alone', async () => {
    rt.setFaults({ commitThenDrop: { count: 1, pathPrefix: '/v1/files' } });
    assert.strictEqual((await rawRequest(rt, 'POST', '/v1/tasks', { objective: 'x' })).status, 201);
    assert.strictEqual((await rawRequest(rt, 'GET', '/v1/files')).status, 200);
    const form = await upload(rt, 'a.txt', 'x').catch(() => undefined);
    assert.strictEqual(form, undefined, 'the upload connection was dropped');
    assert.strictEqual(
      ((await call(rt, 'GET', '/v1/files')).json.data as unknown[]).length,
      1,
      'but the file was stored',
    );
  });

  it('delayMs delays every response by at least about that long', async () => {
    rt.setFaults({ delayMs: 150 });
    const started = Date.now();
    assert.strictEqual((await call(rt, 'GET', '/v1/files')).status, 200);
    assert.ok(Date.now() - started >= 140);
  });

  it('cutDownloadAfterBytes destroys file content responses after N bytes', async () => {
    const content = Buffer.alloc(200000, 0x62);
    const id = await uploadOk(rt, 'big.txt', content);
    rt.setFaults({ cutDownloadAfterBytes: 1000 });
    const got = await new Promise<{ bytes: number; complete: boolean; length?: string }>((resolve, reject) => {
      http
        .get(`${rt.baseUrl}/v1/files/${id}/content`, { headers: { Authorization: `Bearer ${rt.apiKey}` } }, (res) => {
          let bytes = 0;
          res.on('data', (d: Buffer) => (bytes += d.length));
          res.on('close', () => resolve({ bytes, complete: res.complete, length: res.headers['content-length'] }));
          res.on('error', () => undefined);
        })
        .on('error', reject);
    });
    assert.strictEqual(got.length, '200000', 'the full size is announced');
    assert.strictEqual(got.complete, false);
    assert.strictEqual(got.bytes, 1000);
    rt.clearFaults();
    assert.strictEqual((await call(rt, 'GET', `/v1/files/${id}/content`)).text.length, 200000);
  });

  it('sseChunkBytes writes the stream in small pieces that still parse', async () => {
    const runId = await rt.createSyntheticRun({ events: 5 });
    const whole = await readEvents(rt, runId);
    rt.setFaults({ sseChunkBytes: 7 });
    const pieces = await readEvents(rt, runId);
    assert.strictEqual(pieces.raw, whole.raw);
    assert.ok(pieces.chunks > whole.chunks * 5, `many chunks (${pieces.chunks} vs ${whole.chunks})`);
    assert.deepStrictEqual(pieces.events, whole.events);
  });

  it('sseLineEnding switches lines to CRLF', async () => {
    const runId = await rt.createSyntheticRun({ events: 2 });
    rt.setFaults({ sseLineEnding: '\r\n' });
    const reading = await readEvents(rt, runId);
    assert.ok(reading.raw.startsWith('id: 1\r\nevent: plan.created\r\ndata: {'));
    assert.ok(!/[^\r]\n/.test(reading.raw), 'no bare LF');
    assert.strictEqual(reading.events.length, 3);
  });

  it('sseRetryMs starts each stream with a retry field', async () => {
    const runId = await rt.createSyntheticRun({ events: 1 });
    rt.setFaults({ sseRetryMs: 250 });
    const reading = await readEvents(rt, runId);
    assert.ok(reading.raw.startsWith('retry: 250\n\n'));
  });

  it('takes fault switches from options and replaces them on setFaults', async () => {
    const faulty = await startRuntime({ faults: { failNext: { count: 5, status: 503 } } });
    try {
      assert.strictEqual((await call(faulty, 'GET', '/v1/files')).status, 503);
      faulty.setFaults({ delayMs: 1 });
      assert.strictEqual((await call(faulty, 'GET', '/v1/files')).status, 200, 'failNext was replaced');
    } finally {
      await faulty.close();
    }
  });
});

describe('runtime: admin endpoints', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime({ adminKey: 'adm' });
  });
  afterEach(() => rt.close());

  const admin = (method: string, path: string, body?: unknown) => call(rt, method, path, { key: 'adm', body });

  it('sets, reads and clears faults over HTTP', async () => {
    const set = await admin('POST', '/__admin/faults', { failNext: { count: 1, status: 503, retryAfterSeconds: 1 } });
    assert.strictEqual(set.status, 200);
    assert.deepStrictEqual((await admin('GET', '/__admin/faults')).json, {
      failNext: { count: 1, status: 503, retryAfterSeconds: 1 },
    });
    assert.strictEqual((await call(rt, 'GET', '/v1/files')).status, 503);
    assert.strictEqual((await call(rt, 'GET', '/v1/files')).status, 200);
    await admin('POST', '/__admin/faults', { delayMs: 5 });
    assert.strictEqual((await admin('DELETE', '/__admin/faults')).status, 200);
    assert.deepStrictEqual((await admin('GET', '/__admin/faults')).json, {});
  });

  it('creates synthetic runs, appends events, ends them and reads the log over HTTP', async () => {
    const created = await admin('POST', '/__admin/runs', { events: 3, terminal: null, taskObjective: 'Bench' });
    assert.strictEqual(created.status, 201);
    const runId = created.json.run_id as string;
    assert.strictEqual((await call(rt, 'GET', `/v1/tasks/${created.json.task_id}`)).json.objective, 'Bench');
    const appended = await admin('POST', `/__admin/runs/${runId}/events`, {
      event: 'note.added',
      data: { text: 'hi' },
    });
    assert.strictEqual(appended.json.sequence, 4);
    assert.strictEqual(
      (await admin('POST', `/__admin/runs/${runId}/events`, { raw: ': raw comment\n\n' })).status,
      200,
    );
    assert.strictEqual((await admin('POST', `/__admin/runs/${runId}/end`, { status: 'cancelled' })).json.sequence, 5);
    assert.strictEqual((await admin('POST', `/__admin/runs/${runId}/events`, { event: 'late', data: {} })).status, 400);
    const log = await admin('GET', `/__admin/runs/${runId}/log`);
    assert.deepStrictEqual(
      (log.json.data as { event: string }[]).map((e) => e.event),
      ['plan.created', 'step.started', 'tool.called', 'note.added', 'run.cancelled'],
    );
    const reading = await runToEnd(rt, runId);
    assert.ok(reading.comments.includes('raw comment'));
    assert.strictEqual((await admin('POST', '/__admin/runs', { events: -1 })).status, 400);
    assert.strictEqual((await admin('GET', '/__admin/runs/run_none/log')).status, 404);
  });

  it("reports the built-in agent's log too", async () => {
    const task = await createTask(rt, 'Log me');
    await runToEnd(rt, task.run_id);
    const log = await admin('GET', `/__admin/runs/${task.run_id}/log`);
    assert.deepStrictEqual(log.json.data, rt.eventLog(task.run_id));
  });
});

describe('runtime: steering fault switches', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime({ adminKey: 'adm' });
  });
  afterEach(() => rt.close());

  const steeringCalls = (runId: string, approvalId: string): [string, string, unknown][] => [
    ['POST', `/v1/runs/${runId}/cancel`, undefined],
    ['POST', `/v1/runs/${runId}/resume`, {}],
    ['POST', `/v1/runs/${runId}/fork`, { after_sequence: 1 }],
    ['GET', '/v1/approvals', undefined],
    ['GET', `/v1/approvals/${approvalId}`, undefined],
    ['POST', `/v1/approvals/${approvalId}/decision`, { decision: 'approve' }],
  ];

  it('noSteering (set over /__admin/faults) answers 404 on every steering endpoint, as a server without them', async () => {
    const runId = await rt.createSyntheticRun({ events: 2, approval: {} });
    const approvalId = rt.listApprovals()[0].id;
    assert.strictEqual(
      (await call(rt, 'POST', '/__admin/faults', { key: 'adm', body: { noSteering: true } })).status,
      200,
    );
    for (const [method, path, body] of steeringCalls(runId, approvalId)) {
      const res = await call(rt, method, path, { body });
      assert.strictEqual(res.status, 404, `${method} ${path}`);
      assert.strictEqual(errorOf(res).code, 'not_found');
    }
    assert.strictEqual((await call(rt, 'GET', `/v1/runs/${runId}`)).status, 200, 'the rest of the API is there');
    assert.strictEqual((await call(rt, 'GET', '/v1/usage')).status, 200);
    assert.strictEqual(rt.listApprovals()[0].status, 'pending', 'nothing was decided');
    assert.strictEqual((await call(rt, 'GET', '/v1/approvals', { key: null })).status, 401, 'auth still comes first');
  });

  it('missingEndpoints picks endpoints, and missingEndpointStatus 405 answers with Allow', async () => {
    const runId = await rt.createSyntheticRun({ events: 2, terminal: null });
    rt.setFaults({ missingEndpoints: ['usage', 'cancel'], missingEndpointStatus: 405 });
    const usage = await call(rt, 'GET', '/v1/usage');
    assert.strictEqual(usage.status, 405);
    assert.strictEqual(usage.headers.get('allow'), 'GET');
    assert.strictEqual((await call(rt, 'POST', `/v1/runs/${runId}/cancel`)).status, 405);
    assert.strictEqual((await call(rt, 'GET', '/v1/approvals')).status, 200);
  });

  it('conflictNextDecision: the next decision finds the approval decided elsewhere and gets 409 with it', async () => {
    await rt.createSyntheticRun({ events: 2, approval: {} });
    const approvalId = rt.listApprovals()[0].id;
    rt.setFaults({ conflictNextDecision: { count: 1, decision: 'deny' } });
    const res = await call(rt, 'POST', `/v1/approvals/${approvalId}/decision`, { body: { decision: 'approve' } });
    assert.strictEqual(res.status, 409);
    assert.strictEqual(errorOf(res).code, 'approval_already_decided');
    const current = (res.json.error as { approval: { status: string; note: string } }).approval;
    assert.strictEqual(current.status, 'denied');
    assert.strictEqual(current.note, 'Decided elsewhere.');
    assert.strictEqual((await call(rt, 'GET', `/v1/approvals/${approvalId}`)).json.status, 'denied');
  });
});
