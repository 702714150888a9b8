// Hostile mode: each family of nasty values appears when switched on, never when off, and the service still works.
import * as assert from 'node:assert';
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import {
  BIG_SEQUENCES,
  COMMAND_LINK,
  CYCLE_CURSORS,
  FRESH_CURSOR_PREFIX,
  HOSTILE_EVENT_NAMES,
  HOSTILE_NAMES,
  HTML_PAYLOAD,
  OTHER_RUN_ID,
  ROTATING_PAYLOADS,
} from '../hostile';
import { type HostileOptions, type RuntimeHandle, startRuntime } from '../index';
import {
  call,
  createTask,
  errorOf,
  readEvents,
  runToEnd,
  type SseReading,
  tempDir,
  upload,
  uploadOk,
  waitFor,
} from './runtimeTestKit';

type Item = Record<string, unknown>;

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET over node:http: no redirect following, every header as sent. */
function rawGet(rt: RuntimeHandle, urlPath: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(`${rt.baseUrl}${urlPath}`, { headers: { Authorization: `Bearer ${rt.apiKey}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** POST /v1/tasks as a client that retries a 409 with the same key (what ours does). */
async function createTaskRetrying(
  rt: RuntimeHandle,
  objective: string,
  fileIds: string[],
): Promise<{ id: string; run_id: string }> {
  const key = `key-${objective}-${fileIds.join()}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = await call(rt, 'POST', '/v1/tasks', {
      body: { objective, attachments: fileIds.map((fileId) => ({ type: 'document', fileId })) },
      headers: { 'Idempotency-Key': key },
    });
    if (res.status === 201) {
      return res.json as { id: string; run_id: string };
    }
    assert.strictEqual(res.status, 409, res.text.slice(0, 200));
  }
  throw new Error('create task kept answering 409');
}

async function uploadRetrying(rt: RuntimeHandle, filename: string, content: string): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = await upload(rt, filename, content, { headers: { 'Idempotency-Key': `upload-${filename}` } });
    if (res.status === 201) {
      return res.json.id as string;
    }
    assert.strictEqual(res.status, 409, res.text.slice(0, 200));
  }
  throw new Error('upload kept answering 409');
}

async function listData(
  rt: RuntimeHandle,
  urlPath: string,
): Promise<{ data: unknown[]; has_more: unknown; next_cursor: unknown }> {
  const res = await call(rt, 'GET', urlPath);
  assert.strictEqual(res.status, 200, res.text.slice(0, 200));
  return res.json as { data: unknown[]; has_more: unknown; next_cursor: unknown };
}

/** Follows a run as a resuming client would, until its terminal event; returns every event in order of arrival. */
async function followToTerminal(
  rt: RuntimeHandle,
  runId: string,
  maxConnections: number,
): Promise<{ events: SseReading['events']; connections: number }> {
  const events: SseReading['events'] = [];
  let after: number | undefined;
  for (let connections = 1; connections <= maxConnections; connections++) {
    const reading = await readEvents(rt, runId, { after });
    assert.strictEqual(reading.status, 200);
    events.push(...reading.events);
    if (reading.events.some((e) => /^run\.(completed|failed|cancelled)$/.test(e.event))) {
      return { events, connections };
    }
    const last = reading.events[reading.events.length - 1];
    if (last) {
      after = last.data.sequence as number;
    }
  }
  throw new Error(`no terminal event after ${maxConnections} connections`);
}

function textOf(value: unknown): string {
  return JSON.stringify(value);
}

describe('runtime: hostile mode', function () {
  this.timeout(60000);
  let rt: RuntimeHandle | undefined;
  const start = async (hostile?: HostileOptions | boolean): Promise<RuntimeHandle> => {
    rt = await startRuntime({ hostile });
    return rt;
  };
  afterEach(async () => {
    await rt?.close();
    rt = undefined;
  });

  it('is off by default: records, lists, errors, event streams and downloads are the plain ones', async () => {
    const r = await start();
    const fileId = await uploadOk(r, 'notes.md', '# Notes\n\nSome text.\n');
    const task = await createTask(r, 'Summarise', [fileId]);
    const reading = await runToEnd(r, task.run_id);
    const files = await listData(r, '/v1/files');
    const tasks = await listData(r, '/v1/tasks');
    const missing = await call(r, 'GET', '/v1/files/file_nope');
    const content = await rawGet(r, `/v1/files/${fileId}/content`);
    for (const text of [reading.raw, textOf(files), textOf(tasks), missing.text]) {
      assert.ok(!text.includes(COMMAND_LINK) && !text.includes(HTML_PAYLOAD), text.slice(0, 200));
    }
    assert.deepStrictEqual(
      files.data.map((f) => (f as Item).filename),
      ['notes.md'],
    );
    assert.strictEqual(files.has_more, false);
    assert.strictEqual(files.next_cursor, null);
    assert.strictEqual(reading.events[0].event, 'plan.created');
    assert.strictEqual(reading.events[0].data.sequence, 1);
    assert.strictEqual(content.headers['content-length'], String(content.body.length));
    assert.strictEqual(content.body.toString(), '# Notes\n\nSome text.\n');

    r.setHostile({ strings: true });
    assert.ok(textOf(await listData(r, '/v1/files')).includes(COMMAND_LINK), 'switched on at run time');
    r.setHostile(false);
    assert.deepStrictEqual(
      (await listData(r, '/v1/files')).data.map((f) => (f as Item).filename),
      ['notes.md'],
      'and off again; the stored record was never touched',
    );
  });

  it('strings: every display string carries a command link, HTML and a rotating payload; every hugeEvery-th record one huge field', async () => {
    const r = await start({ strings: true, hugeFieldBytes: 100_000, hugeEvery: 2 });
    const uploads = [];
    for (const name of ['a.md', 'b.md', 'c.md']) {
      uploads.push((await upload(r, name, `# ${name}\n`)).json);
    }
    // Ordinals follow first appearance: the 1st and 3rd records get the huge field.
    assert.deepStrictEqual(
      uploads.map((f) => (f.filename as string).length >= 100_000),
      [true, false, true],
    );
    const files = (await listData(r, '/v1/files')).data as Item[];
    assert.deepStrictEqual(
      files.map((f) => f.id),
      uploads
        .slice()
        .reverse()
        .map((f) => f.id),
      'ids intact',
    );
    for (const file of files) {
      const name = file.filename as string;
      assert.ok(
        name.startsWith(
          `${['a.md', 'b.md', 'c.md'][uploads.findIndex((u) => u.id === file.id)]} ${COMMAND_LINK} ${HTML_PAYLOAD} `,
        ),
      );
      assert.strictEqual(
        name,
        uploads.find((u) => u.id === file.id)?.filename,
        'the same record gets the same poison every time',
      );
    }
    const task = await createTask(r, 'Summarise', [files[0].id as string]);
    const shownTask = await call(r, 'GET', `/v1/tasks/${task.id}`);
    assert.ok((shownTask.json.objective as string).startsWith(`Summarise ${COMMAND_LINK}`));
    assert.strictEqual(
      shownTask.json.status === 'queued' ||
        shownTask.json.status === 'running' ||
        shownTask.json.status === 'completed',
      true,
      'statuses untouched',
    );
    const rotating = new Set(files.map((f) => ROTATING_PAYLOADS.findIndex((p) => (f.filename as string).includes(p))));
    assert.ok(!rotating.has(-1) && rotating.size > 1, 'payloads rotate between records');
    const reading = await runToEnd(r, task.run_id);
    const plan = reading.events.find((e) => e.event === 'plan.created');
    assert.ok((plan?.data.strategy as string).includes(COMMAND_LINK), 'event data strings too');
  });

  it('names: filename and artifact names are hostile path names, in the records and in Content-Disposition', async () => {
    const r = await start({ names: true });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(await uploadOk(r, `plain-${i}.md`, `# ${i}\n`));
    }
    const files = (await listData(r, '/v1/files')).data as Item[];
    const names = files.map((f) => f.filename as string);
    for (const name of names) {
      assert.ok(HOSTILE_NAMES.includes(name), JSON.stringify(name));
    }
    assert.strictEqual(new Set(names).size, 4, 'a different one per record');
    assert.ok(names.includes('../../etc/passwd') || names.includes('..') || names.includes('CON .txt'));
    const content = await rawGet(r, `/v1/files/${ids[0]}/content`);
    const shown = files.find((f) => f.id === ids[0])?.filename as string;
    assert.ok(String(content.headers['content-disposition']).endsWith(`filename*=UTF-8''${encodeURIComponent(shown)}`));
    assert.strictEqual(content.body.toString(), '# 0\n');
  });

  it('errorMessages: every error message starts with a command link; codes and statuses are unchanged', async () => {
    const r = await start({ errorMessages: true });
    const missing = await call(r, 'GET', '/v1/files/file_nope');
    assert.strictEqual(missing.status, 404);
    assert.strictEqual(errorOf(missing).code, 'not_found');
    assert.ok(errorOf(missing).message?.startsWith(COMMAND_LINK));
    const anonymous = await call(r, 'GET', '/v1/files', { key: null });
    assert.strictEqual(anonymous.status, 401);
    assert.ok(errorOf(anonymous).message?.startsWith(COMMAND_LINK));
    const invalid = await call(r, 'POST', '/v1/tasks', { body: {} });
    assert.strictEqual(errorOf(invalid).param, 'objective');
    assert.ok(errorOf(invalid).message?.startsWith(COMMAND_LINK));
  });

  it('errorEverything: every matching request answers 400 with a command link; others are served', async () => {
    const r = await start({ errorEverything: { pathPrefix: '/v1/tasks' } });
    for (const res of [
      await call(r, 'GET', '/v1/tasks'),
      await call(r, 'POST', '/v1/tasks', { body: { objective: 'x' } }),
    ]) {
      assert.strictEqual(res.status, 400);
      assert.strictEqual(errorOf(res).code, 'hostile');
      assert.ok(errorOf(res).message?.startsWith(COMMAND_LINK));
      assert.strictEqual(errorOf(res).param, HTML_PAYLOAD);
    }
    assert.strictEqual((await call(r, 'GET', '/v1/files')).status, 200);
    r.setHostile({ errorEverything: { status: 409, method: 'GET' } });
    assert.strictEqual((await call(r, 'GET', '/v1/files')).status, 409);
    r.setHostile({ errorEverything: true });
    assert.strictEqual((await upload(r, 'x.md', 'x')).status, 400, 'a POST with a body too (the body is read first)');
  });

  it('listJunk: null first, then the real items, then a number, a string, an array, a numeric id, no id, odd statuses and bytes, and a duplicate', async () => {
    const r = await start({ listJunk: true });
    const ids = [await uploadOk(r, 'one.md', '1'), await uploadOk(r, 'two.md', '2')];
    const data = (await listData(r, '/v1/files')).data;
    assert.strictEqual(data[0], null);
    assert.deepStrictEqual(
      [(data[1] as Item).id, (data[2] as Item).id],
      [ids[1], ids[0]],
      'the real page follows, untouched',
    );
    assert.strictEqual((data[1] as Item).filename, 'two.md', 'no string poisoning with this switch alone');
    const junk = data.slice(3);
    assert.ok(junk.includes(42));
    assert.ok(junk.some((j) => typeof j === 'string'));
    assert.ok(junk.some((j) => Array.isArray(j)));
    const objects = junk.filter((j): j is Item => typeof j === 'object' && j !== null && !Array.isArray(j));
    assert.ok(objects.some((o) => typeof o.id === 'number'));
    assert.ok(objects.some((o) => !('id' in o)));
    assert.ok(objects.some((o) => typeof o.status === 'number' && typeof o.bytes === 'string'));
    assert.ok(objects.some((o) => typeof o.status === 'object'));
    assert.ok(
      objects.some((o) => o.id === ids[1]),
      'a duplicate of the first item',
    );
    const tasks = (await listData(r, '/v1/tasks')).data;
    assert.strictEqual(tasks[0], null, 'every list, even an empty one');

    r.setHostile({ listJunk: true, strings: true, hugeFieldBytes: 100_000 });
    const poisoned = (await listData(r, '/v1/files')).data.filter((f): f is Item => (f as Item | null)?.id === ids[1]);
    assert.strictEqual(poisoned.length, 2);
    assert.ok((poisoned[0].filename as string).length >= 100_000, 'the first record met carries the huge field');
    assert.ok(
      (poisoned[1].filename as string).length < 1000,
      'its duplicate does not, so the page is not twice as big',
    );
    assert.ok((poisoned[1].filename as string).includes(COMMAND_LINK));
  });

  it('cyclingCursor alone: has_more stays true and page 2 leads back to page 1, for ever', async () => {
    const r = await start({ cyclingCursor: true });
    const id = await uploadOk(r, 'only.md', 'x');
    const first = await listData(r, '/v1/files');
    assert.deepStrictEqual(first, { object: 'list', data: first.data, has_more: true, next_cursor: CYCLE_CURSORS[1] });
    assert.strictEqual((first.data[0] as Item).filename, 'only.md', 'nothing else is switched on');
    const second = await listData(r, `/v1/files?after=${CYCLE_CURSORS[1]}`);
    assert.deepStrictEqual(
      second.data.map((f) => (f as Item).id),
      [id],
      'the same items again',
    );
    assert.strictEqual(second.next_cursor, CYCLE_CURSORS[0]);
    const third = await listData(r, `/v1/files?after=${CYCLE_CURSORS[0]}`);
    assert.strictEqual(third.next_cursor, CYCLE_CURSORS[1]);
    assert.strictEqual(third.has_more, true);
    r.setHostile({ cyclingCursor: '/v1/tasks' });
    assert.strictEqual((await listData(r, '/v1/files')).has_more, false, 'a path prefix limits it');
    assert.strictEqual((await listData(r, '/v1/tasks')).next_cursor, CYCLE_CURSORS[1]);
  });

  it('freshCursor: every page has a cursor never given before, whose page is the first page again', async () => {
    const r = await start({ freshCursor: true, cyclingCursor: true });
    const id = await uploadOk(r, 'only.md', 'x');
    const cursors: string[] = [];
    let after = '';
    for (let i = 0; i < 5; i++) {
      const page = await listData(r, `/v1/files${after}`);
      assert.deepStrictEqual(
        page.data.map((f) => (f as Item).id),
        [id],
        'the same items again',
      );
      assert.strictEqual(page.has_more, true);
      assert.ok(
        typeof page.next_cursor === 'string' && page.next_cursor.startsWith(FRESH_CURSOR_PREFIX),
        String(page.next_cursor),
      );
      cursors.push(page.next_cursor);
      after = `?after=${page.next_cursor}`;
    }
    assert.strictEqual(new Set(cursors).size, 5, 'never the same cursor twice');
    r.setHostile({ freshCursor: '/v1/tasks' });
    assert.strictEqual((await listData(r, '/v1/files')).has_more, false, 'a path prefix limits it');
  });

  it('hasMoreWithoutCursor: real pages keep their cursor, the last one says has_more with a null cursor', async () => {
    const r = await start({ hasMoreWithoutCursor: true });
    await uploadOk(r, 'one.md', '1');
    await uploadOk(r, 'two.md', '2');
    const first = await listData(r, '/v1/files?limit=1');
    assert.strictEqual(first.has_more, true);
    assert.strictEqual(typeof first.next_cursor, 'string');
    const last = await listData(r, `/v1/files?limit=1&after=${first.next_cursor as string}`);
    assert.strictEqual(last.has_more, true);
    assert.strictEqual(last.next_cursor, null);
  });

  it('event streams: hostile names, wrong field types, a huge event and many kinds first, big sequences before the terminal', async () => {
    const r = await start({
      eventNames: true,
      eventFieldTypes: true,
      hugeEventBytes: 200_000,
      manyEventKinds: 50,
      bigSequences: true,
      strings: true,
    });
    const runId = await r.createSyntheticRun({ events: 10 });
    const reading = await runToEnd(r, runId);
    const names = reading.events.map((e) => e.event);
    assert.deepStrictEqual(names.slice(0, HOSTILE_EVENT_NAMES.length), [...HOSTILE_EVENT_NAMES]);
    assert.ok(reading.events.some((e) => e.event === 'plan.created' && e.data.steps === '3'));
    assert.ok(reading.events.some((e) => e.event === 'step.started' && e.data.step_id === 42));
    assert.ok(reading.events.some((e) => e.event === 'step.completed' && e.data.duration_ms === '12'));
    assert.ok(reading.events.some((e) => typeof e.data.summary === 'string' && e.data.summary.length === 200_000));
    assert.strictEqual(new Set(names.filter((n) => n.startsWith('hostile.kind.'))).size, 50);
    const opening = reading.events.findIndex(
      (e) => e.event === 'plan.created' && e.data.strategy !== 42 && e.data.strategy !== null,
    );
    assert.deepStrictEqual(
      reading.events.slice(0, opening).map((e) => e.data.sequence),
      Array.from({ length: opening }, (_, i) => i + 1),
      'sequences 1..E',
    );
    const real = reading.events.slice(opening);
    assert.deepStrictEqual(
      real.map((e) => e.data.sequence),
      [...Array.from({ length: 10 }, (_, i) => opening + i + 1), ...BIG_SEQUENCES, opening + 11],
    );
    assert.strictEqual(real[real.length - 1].event, 'run.completed');
    assert.ok(reading.raw.includes(`id: ${2 ** 60}\n`) && reading.raw.includes(`id: ${Number.MAX_SAFE_INTEGER}\n`));
    assert.ok((real[1].data.title as string).includes(COMMAND_LINK), 'real event strings are poisoned too');
    const resumed = await readEvents(r, runId, { after: opening + 10 });
    assert.deepStrictEqual(
      resumed.events.map((e) => e.data.sequence),
      [...BIG_SEQUENCES, opening + 11],
      'a resume in the hostile numbering loses nothing',
    );
  });

  it("budgets: negative and non-numeric costs, a changed currency, a burst of usage.updated and another run's budget events open the stream; records carry a junk budget", async () => {
    const r = await start({ budgets: true, budgetFlood: 1000 });
    const runId = await r.createSyntheticRun({ events: 3 });
    const reading = await runToEnd(r, runId);
    const costs = reading.events.filter((e) => e.event === 'usage.updated').map((e) => e.data.cost as Item);
    assert.ok(costs.length >= 1000 + 6);
    assert.deepStrictEqual(
      costs.slice(0, 3).map((c) => c.amount),
      ['-5.00', 'NaN', 12.5],
    );
    assert.ok(costs.some((c) => c.currency === 'EUR') && costs.some((c) => c.currency === 'USD'));
    const foreign = reading.events.filter((e) => e.event.startsWith('budget.'));
    assert.deepStrictEqual(
      foreign.map((e) => e.data.run_id),
      [OTHER_RUN_ID, OTHER_RUN_ID],
    );
    assert.strictEqual(reading.events.at(-1)?.event, 'run.completed', 'the real run still ends');
    const run = (await call(r, 'GET', `/v1/runs/${runId}`)).json;
    assert.ok(['lots', '-0.50'].includes((run.budget as Item).amount as string));
    assert.strictEqual(((run.usage as Item).cost as Item).currency, 'XTS');
  });

  it('replayAfterDrop: every connection starts again at sequence 1 and is cut N events past its after; a resuming client still finishes', async () => {
    const r = await start({ replayAfterDrop: 3 });
    const runId = await r.createSyntheticRun({ events: 10 });
    const first = await readEvents(r, runId);
    assert.strictEqual(first.outcome, 'cut');
    assert.deepStrictEqual(
      first.events.map((e) => e.data.sequence),
      [1, 2, 3],
    );
    const second = await readEvents(r, runId, { after: 3 });
    assert.strictEqual(second.outcome, 'cut');
    assert.deepStrictEqual(
      second.events.map((e) => e.data.sequence),
      [1, 2, 3, 4, 5, 6],
      'replayed from 1',
    );
    const followed = await followToTerminal(r, runId, 10);
    assert.deepStrictEqual(
      [...new Set(followed.events.map((e) => e.data.sequence))].sort((a, b) => (a as number) - (b as number)),
      Array.from({ length: 11 }, (_, i) => i + 1),
    );
    assert.strictEqual(followed.connections, 4);
  });

  it('conflictEvery: the Nth POSTs answer 409 in_use then reused, and do nothing', async () => {
    const r = await start({ conflictEvery: 2 });
    const statuses = [];
    const codes = [];
    for (let i = 0; i < 4; i++) {
      const res = await call(r, 'POST', '/v1/tasks', {
        body: { objective: `t${i}` },
        headers: { 'Idempotency-Key': `k${i}` },
      });
      statuses.push(res.status);
      codes.push(errorOf(res).code);
    }
    assert.deepStrictEqual(statuses, [201, 409, 201, 409]);
    assert.deepStrictEqual(codes, [undefined, 'idempotency_key_in_use', undefined, 'idempotency_key_reused']);
    r.setHostile(false);
    assert.strictEqual((await listData(r, '/v1/tasks')).data.length, 2);
    r.setHostile({ conflictEvery: 1 });
    const refused = await upload(r, 'big.md', Buffer.alloc(2 * 1024 * 1024, 'x'));
    assert.strictEqual(refused.status, 409, 'an upload body is read, then refused');
  });

  it('redirectEvery: the Nth GET of a record or content is sent to another origin, 302 then 307; lists and streams are not', async () => {
    const r = await start({ redirectEvery: 2 });
    const id = await uploadOk(r, 'x.md', 'x');
    const answers = [];
    for (let i = 0; i < 4; i++) {
      answers.push(await rawGet(r, i % 2 === 0 ? `/v1/files/${id}` : `/v1/files/${id}/content`));
    }
    assert.deepStrictEqual(
      answers.map((a) => a.status),
      [200, 302, 200, 307],
    );
    assert.strictEqual(answers[1].headers.location, `http://127.0.0.2:${r.port}/v1/files/${id}/content`);
    assert.strictEqual(answers[3].headers.location, `https://evil.example/v1/files/${id}/content`);
    for (let i = 0; i < 3; i++) {
      assert.strictEqual((await rawGet(r, '/v1/files')).status, 200);
    }
  });

  it('chunkedDownloads and endlessDownloadBytes: content without Content-Length that goes on past the real end', async () => {
    const r = await start({ chunkedDownloads: true, endlessDownloadBytes: 300_000 });
    const id = await uploadOk(r, 'x.md', 'real content\n');
    const content = await rawGet(r, `/v1/files/${id}/content`);
    assert.strictEqual(content.status, 200);
    assert.strictEqual(content.headers['content-length'], undefined);
    assert.strictEqual(content.headers['transfer-encoding'], 'chunked');
    assert.strictEqual(content.body.length, 'real content\n'.length + 300_000);
    assert.ok(content.body.subarray(0, 13).equals(Buffer.from('real content\n')));
    r.setHostile({ endlessDownloadBytes: 10 });
    const announced = await rawGet(r, `/v1/files/${id}/content`);
    assert.strictEqual(
      announced.headers['content-length'],
      String('real content\n'.length + 10),
      'without chunking the length counts the extra bytes',
    );
  });

  it('/__admin/hostile: GET, POST (options, true, all plus overrides) and DELETE, with the admin key only', async () => {
    const r = await start();
    const admin = { Authorization: `Bearer ${r.adminKey}`, 'Content-Type': 'application/json' };
    const post = async (body: string) =>
      (await fetch(`${r.baseUrl}/__admin/hostile`, { method: 'POST', headers: admin, body })).json() as Promise<Item>;
    assert.deepStrictEqual(await (await fetch(`${r.baseUrl}/__admin/hostile`, { headers: admin })).json(), {
      enabled: false,
      options: {},
    });
    assert.deepStrictEqual(await post('{"listJunk":true}'), { enabled: true, options: { listJunk: true } });
    assert.strictEqual((await listData(r, '/v1/files')).data[0], null);
    const all = await post('{"all":true,"hugeFieldBytes":1000}');
    assert.strictEqual((all.options as Item).hugeFieldBytes, 1000);
    assert.strictEqual((all.options as Item).strings, true);
    assert.strictEqual(((await post('true')).options as Item).hugeFieldBytes, 10 * 1024 * 1024);
    const off = await fetch(`${r.baseUrl}/__admin/hostile`, { method: 'DELETE', headers: admin });
    assert.deepStrictEqual(await off.json(), { enabled: false, options: {} });
    assert.deepStrictEqual((await listData(r, '/v1/files')).data, []);
    const withApiKey = await fetch(`${r.baseUrl}/__admin/hostile`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${r.apiKey}` },
      body: 'true',
    });
    assert.strictEqual(withApiKey.status, 401);
  });

  it('with every family on, the service still works end to end: upload, create a task, follow its run to the end, list and download its artifacts', async () => {
    const r = await start({
      all: true,
      hugeFieldBytes: 50_000,
      hugeEventBytes: 50_000,
      manyEventKinds: 100,
      budgetFlood: 20,
      replayAfterDrop: 40,
      endlessDownloadBytes: 10_000,
    });
    const fileId = await uploadRetrying(r, 'notes.md', '# Notes\n\n## Decisions\n\nShip it.\n');
    const task = await createTaskRetrying(r, 'Summarise the notes', [fileId]);
    const followed = await followToTerminal(r, task.run_id, 20);
    const terminal = followed.events.find((e) => e.event.startsWith('run.'));
    assert.strictEqual(terminal?.event, 'run.completed');
    assert.ok(followed.events.some((e) => e.event === HOSTILE_EVENT_NAMES[0]));
    assert.ok(followed.connections > 1, 'the stream was cut and replayed on the way');

    const tasks = (await listData(r, '/v1/tasks')).data;
    assert.ok(tasks.some((t) => (t as Item | null)?.id === task.id));
    const artifacts = ((await listData(r, `/v1/runs/${task.run_id}/artifacts`)).data as (Item | null)[]).filter(
      (a) => typeof a?.id === 'string' && a.id.startsWith('art_') && a.run_id === task.run_id,
    );
    // report.md, summary.json, the revised notes.md and changes.patch (the built-in agent revises text attachments).
    assert.strictEqual(new Set(artifacts.map((a) => a?.id)).size, 4);
    let content: Raw | undefined;
    for (let attempt = 0; attempt < 3 && content?.status !== 200; attempt++) {
      content = await rawGet(r, `/v1/files/${artifacts[0]?.file_id as string}/content`);
    }
    assert.strictEqual(content?.status, 200, 'a retry gets past a redirect');
    assert.strictEqual(content?.headers['content-length'], undefined);
    assert.ok((content?.body.length ?? 0) > 10_000);
  });
});

describe('runtime: sandbox CLI --hostile', function () {
  this.timeout(30000);
  let child: ChildProcess | undefined;
  let dataDir: string;
  beforeEach(() => {
    dataDir = tempDir();
  });
  afterEach(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts in hostile mode: seeded files come back with hostile names among junk items', async () => {
    const cli = path.join(__dirname, '..', 'cli.js');
    const started = spawn(
      process.execPath,
      [cli, '--port', '0', '--quiet', '--hostile', '--data-dir', dataDir, '--key', 'k'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    let out = '';
    started.stdout.on('data', (d: Buffer) => (out += d.toString()));
    started.stderr.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(
      () => /listening on (http:\/\/\S+)/.test(out) || started.exitCode !== null,
      'the sandbox to start',
      20000,
    );
    const baseUrl = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    assert.ok(baseUrl, out);
    assert.match(out, /Hostile mode: on/);
    const page = (await (await fetch(`${baseUrl}/v1/files`, { headers: { Authorization: 'Bearer k' } })).json()) as {
      data: unknown[];
      next_cursor: unknown;
    };
    assert.strictEqual(page.data[0], null);
    const seeded = page.data.filter(
      (f): f is Item => typeof f === 'object' && f !== null && /^file_[0-9a-f]{32}$/.test(String((f as Item).id)),
    );
    assert.ok(seeded.length >= 3);
    const names = seeded.map((f) => f.filename as string);
    assert.ok(!names.some((n) => /^(welcome|meeting-notes|sales)\./.test(n)), 'no seeded name shows through');
    assert.ok(
      names.filter((n) => HOSTILE_NAMES.includes(n)).length >= 2,
      JSON.stringify(names.map((n) => n.slice(0, 40))),
    );
    assert.strictEqual(page.next_cursor, CYCLE_CURSORS[1]);
  });
});
