// Memory, tools, connectors and webhooks in the reference runtime, over HTTP (docs/PROTOCOL.md, Memory to Webhooks).
import * as assert from 'node:assert';
import { createHmac } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BIDI_OVERRIDE, COMMAND_LINK, HOSTILE_SECRET } from '../hostile';
import { type RuntimeHandle, startRuntime } from '../index';
import { call, createTask, errorOf, runToEnd, uploadOk } from './runtimeTestKit';

type Json = Record<string, unknown>;
const items = (res: { json: Json }): Json[] => res.json.data as Json[];

/** A loopback receiver that records every request (raw body and headers) and answers `status`. */
async function receiver(
  status = 204,
): Promise<{ url: string; got: { headers: http.IncomingHttpHeaders; body: string }[]; close(): Promise<void> }> {
  const got: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('runtime: memory', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime();
  });
  afterEach(() => rt.close());

  it('creates, gets, patches with the current version, and answers 409 version_conflict with the current record otherwise', async () => {
    const created = await call(rt, 'POST', '/v1/memory', {
      body: { content: 'The deploy needs VPN.', tags: ['ops'], project_id: 'proj_1' },
    });
    assert.strictEqual(created.status, 201);
    const mem = created.json;
    assert.match(mem.id as string, /^mem_/);
    assert.strictEqual(mem.object, 'memory');
    assert.strictEqual(mem.version, 1);
    assert.deepStrictEqual(mem.tags, ['ops']);
    assert.strictEqual(mem.project_id, 'proj_1');
    const patched = await call(rt, 'PATCH', `/v1/memory/${mem.id}`, {
      body: { content: 'The deploy needs the VPN and a token.', version: 1 },
    });
    assert.strictEqual(patched.status, 200);
    assert.strictEqual(patched.json.version, 2);
    assert.deepStrictEqual(patched.json.tags, ['ops'], 'tags kept when not sent');
    const stale = await call(rt, 'PATCH', `/v1/memory/${mem.id}`, { body: { content: 'mine', version: 1 } });
    assert.strictEqual(stale.status, 409);
    assert.strictEqual(errorOf(stale).code, 'version_conflict');
    const current = (stale.json.error as Json).memory as Json;
    assert.strictEqual(current.version, 2);
    assert.strictEqual(current.content, 'The deploy needs the VPN and a token.');
    assert.strictEqual(
      (await call(rt, 'GET', `/v1/memory/${mem.id}`)).json.content,
      current.content,
      'nothing changed by the refused PATCH',
    );
    assert.strictEqual(
      (await call(rt, 'PATCH', `/v1/memory/${mem.id}`, { body: { content: 'x' } })).status,
      400,
      'version is required',
    );
    const deleted = await call(rt, 'DELETE', `/v1/memory/${mem.id}`);
    assert.deepStrictEqual(deleted.json, { id: mem.id, object: 'memory', deleted: true });
    assert.strictEqual((await call(rt, 'GET', `/v1/memory/${mem.id}`)).status, 404);
    assert.strictEqual(
      (await call(rt, 'PATCH', `/v1/memory/${mem.id}`, { body: { content: 'x', version: 2 } })).status,
      404,
    );
  });

  it('refuses content over 64 KiB (content_too_large) and empty content', async () => {
    const big = await call(rt, 'POST', '/v1/memory', { body: { content: 'a'.repeat(64 * 1024 + 1) } });
    assert.strictEqual(big.status, 400);
    assert.strictEqual(errorOf(big).code, 'content_too_large');
    assert.strictEqual(errorOf(big).param, 'content');
    assert.strictEqual(
      (await call(rt, 'POST', '/v1/memory', { body: { content: 'a'.repeat(64 * 1024) } })).status,
      201,
      'exactly 64 KiB is fine',
    );
    assert.strictEqual((await call(rt, 'POST', '/v1/memory', { body: { content: ' ' } })).status, 400);
    assert.strictEqual((await call(rt, 'POST', '/v1/memory', { body: { content: 'x', tags: 'ops' } })).status, 400);
  });

  it('lists newest updated first, filters by project and tag, searches by query with a score, and pages with after', async () => {
    const make = async (content: string, tags: string[], project_id?: string) =>
      (await call(rt, 'POST', '/v1/memory', { body: { content, tags, project_id } })).json;
    const a = await make('Release checklist: run the smoke tests', ['release'], 'proj_a');
    const b = await make('Deploys go through the staging cluster', ['ops'], 'proj_a');
    const c = await make('The smoke tests live in test/smoke', ['release', 'tests'], 'proj_b');
    assert.deepStrictEqual(
      items(await call(rt, 'GET', '/v1/memory')).map((m) => m.id),
      [c.id, b.id, a.id],
    );
    await call(rt, 'PATCH', `/v1/memory/${a.id}`, {
      body: { content: 'Release checklist: run the smoke tests first', version: 1 },
    });
    assert.deepStrictEqual(
      items(await call(rt, 'GET', '/v1/memory')).map((m) => m.id),
      [a.id, c.id, b.id],
      'an update moves it to the front',
    );
    assert.deepStrictEqual(
      items(await call(rt, 'GET', '/v1/memory?project_id=proj_a')).map((m) => m.id),
      [a.id, b.id],
    );
    assert.deepStrictEqual(
      items(await call(rt, 'GET', '/v1/memory?tag=release')).map((m) => m.id),
      [a.id, c.id],
    );
    assert.deepStrictEqual(
      items(await call(rt, 'GET', '/v1/memory?tag=release&tag=tests')).map((m) => m.id),
      [c.id],
    );
    const found = items(await call(rt, 'GET', '/v1/memory?query=smoke%20tests%20live'));
    assert.deepStrictEqual(
      found.map((m) => m.id),
      [c.id, a.id],
      'by relevance',
    );
    assert.strictEqual(found[0].score, 1);
    assert.ok((found[1].score as number) > 0 && (found[1].score as number) < 1);
    const first = await call(rt, 'GET', '/v1/memory?limit=2');
    assert.strictEqual(first.json.has_more, true);
    const second = await call(rt, 'GET', `/v1/memory?limit=2&after=${first.json.next_cursor}`);
    assert.deepStrictEqual(
      items(second).map((m) => m.id),
      [b.id],
    );
    assert.strictEqual(second.json.next_cursor, null);
  });

  it('the built-in agent recalls relevant memory and writes one when asked to remember (memory.recalled / memory.written)', async () => {
    const known = (
      await call(rt, 'POST', '/v1/memory', {
        body: { content: 'Quarterly summaries use the house style.', tags: ['style'] },
      })
    ).json;
    const fileId = await uploadOk(rt, 'q.md', '# Q3\nNumbers.\n');
    const task = await createTask(rt, 'Remember the quarterly summary', [fileId]);
    const { events } = await runToEnd(rt, task.run_id);
    const recalled = events.find((e) => e.event === 'memory.recalled');
    assert.ok(recalled, 'memory.recalled');
    assert.deepStrictEqual(recalled.data.memory_ids, [known.id]);
    assert.strictEqual(recalled.data.step_id, 'step_3');
    const written = events.find((e) => e.event === 'memory.written');
    assert.ok(written, 'memory.written');
    const mem = (await call(rt, 'GET', `/v1/memory/${written.data.memory_id}`)).json;
    assert.match(mem.content as string, /^Report on "Remember the quarterly summary": 1 document/);
    assert.deepStrictEqual(mem.source, { run_id: task.run_id });
    const plain = await createTask(rt, 'Nothing in common');
    const quiet = await runToEnd(rt, plain.run_id);
    assert.ok(
      !quiet.events.some((e) => e.event.startsWith('memory.')),
      'no recall without relevant memory, no write unless asked',
    );
  });
});

describe('runtime: tools and invocation records', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime();
  });
  afterEach(() => rt.close());

  it('serves the registry with search, and one tool by id', async () => {
    const all = items(await call(rt, 'GET', '/v1/tools?limit=100'));
    const names = all.map((t) => t.name);
    for (const name of ['read_file', 'edit_files', 'write_file', 'create_issue']) {
      assert.ok(names.includes(name), name);
    }
    const edit = all.find((t) => t.name === 'edit_files') as Json;
    assert.strictEqual(edit.requires_approval, true);
    assert.strictEqual((edit.input_schema as Json).type, 'object');
    const issue = all.find((t) => t.name === 'create_issue') as Json;
    assert.match(issue.connector_id as string, /^conn_/);
    assert.deepStrictEqual(
      items(await call(rt, 'GET', '/v1/tools?query=slack')).map((t) => t.name),
      ['post_message'],
    );
    assert.deepStrictEqual((await call(rt, 'GET', `/v1/tools/${edit.id}`)).json, edit);
    assert.strictEqual((await call(rt, 'GET', '/v1/tools/tool_none')).status, 404);
  });

  it('gives every tool.called of the built-in agent an invocation_id whose record has arguments, status, output, duration', async () => {
    const fileId = await uploadOk(rt, 'n.md', '# N\nHello there.\n');
    const task = await createTask(rt, 'Summarise', [fileId]);
    const { events } = await runToEnd(rt, task.run_id);
    const calls = events.filter((e) => e.event === 'tool.called');
    assert.strictEqual(calls.length, 5);
    for (const c of calls) {
      assert.match(c.data.invocation_id as string, /^inv_/);
      assert.strictEqual(c.data.arguments, undefined, 'arguments live in the record, not the event');
      const inv = (await call(rt, 'GET', `/v1/tools/invocations/${c.data.invocation_id}`)).json;
      assert.strictEqual(inv.object, 'tool_invocation');
      assert.strictEqual(inv.tool, c.data.tool);
      assert.strictEqual(inv.run_id, task.run_id);
      assert.strictEqual(inv.step_id, c.data.step_id);
      assert.strictEqual(inv.sequence, c.data.sequence);
      assert.strictEqual(inv.status, 'succeeded');
      assert.ok(Number.isInteger(inv.duration_ms) && inv.completed_at);
    }
    const read = (await call(rt, 'GET', `/v1/tools/invocations/${calls[0].data.invocation_id}`)).json;
    assert.deepStrictEqual(read.arguments, { file_id: fileId });
    assert.match(read.output as string, /^Read n\.md: /);
    const listed = items(await call(rt, 'GET', `/v1/tools/invocations?run_id=${task.run_id}&tool=read_file`));
    assert.deepStrictEqual(
      listed.map((i) => i.id),
      [calls[0].data.invocation_id],
    );
    assert.strictEqual((await call(rt, 'GET', '/v1/tools/invocations?status=maybe')).status, 400);
  });
});

describe('runtime: connectors', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime();
  });
  afterEach(() => rt.close());

  it('lists connectors with grants; takes back one grant; revokes a whole connector', async () => {
    const list = items(await call(rt, 'GET', '/v1/connectors'));
    const github = list.find((c) => c.kind === 'github') as Json;
    assert.strictEqual(github.status, 'active');
    assert.strictEqual(github.account, 'octo-org');
    const grants = github.grants as Json[];
    assert.strictEqual(grants.length, 3);
    const without = await call(rt, 'DELETE', `/v1/connectors/${github.id}/grants/${grants[0].id}`);
    assert.strictEqual(without.status, 200);
    assert.deepStrictEqual(
      (without.json.grants as Json[]).map((g) => g.id),
      grants.slice(1).map((g) => g.id),
    );
    assert.strictEqual((await call(rt, 'DELETE', `/v1/connectors/${github.id}/grants/${grants[0].id}`)).status, 404);
    const revoked = await call(rt, 'POST', `/v1/connectors/${github.id}/revoke`);
    assert.strictEqual(revoked.status, 200);
    assert.strictEqual(revoked.json.status, 'revoked');
    assert.deepStrictEqual(revoked.json.grants, []);
    assert.strictEqual((await call(rt, 'GET', `/v1/connectors/${github.id}`)).json.status, 'revoked');
  });
});

describe('runtime: webhooks', () => {
  let rt: RuntimeHandle;
  afterEach(() => rt.close());

  it('refuses a non-https or loopback URL (invalid_url) and unknown events', async () => {
    rt = await startRuntime();
    for (const url of [
      'http://example.com/h',
      'https://127.0.0.1/h',
      'https://localhost/h',
      'ftp://example.com',
      'nope',
    ]) {
      const res = await call(rt, 'POST', '/v1/webhooks', { body: { url, events: ['run.completed'] } });
      assert.strictEqual(res.status, 400, url);
      assert.strictEqual(errorOf(res).code, 'invalid_url', url);
    }
    const events = await call(rt, 'POST', '/v1/webhooks', {
      body: { url: 'https://example.com/h', events: ['run.exploded'] },
    });
    assert.strictEqual(errorOf(events).param, 'events');
  });

  it('returns the secret once at creation; signs test deliveries and run events with it; deletes', async () => {
    rt = await startRuntime({ allowLoopbackWebhooks: true });
    const hook = await receiver(202);
    try {
      const created = await call(rt, 'POST', '/v1/webhooks', { body: { url: hook.url, events: ['run.completed'] } });
      assert.strictEqual(created.status, 201);
      const secret = created.json.secret as string;
      assert.match(secret, /^whsec_/);
      const id = created.json.id as string;
      const again = await call(rt, 'GET', `/v1/webhooks/${id}`);
      assert.strictEqual(again.json.secret, undefined, 'never returned again');
      assert.ok(!items(await call(rt, 'GET', '/v1/webhooks')).some((w) => 'secret' in w));

      const delivery = await call(rt, 'POST', `/v1/webhooks/${id}/test`);
      assert.strictEqual(delivery.status, 200);
      assert.strictEqual(delivery.json.object, 'webhook_delivery');
      assert.strictEqual(delivery.json.status_code, 202);
      assert.ok(Number.isInteger(delivery.json.duration_ms));
      assert.strictEqual(hook.got.length, 1);
      const verify = (got: { headers: http.IncomingHttpHeaders; body: string }) => {
        const header = String(got.headers['agent-runtime-signature']);
        const found = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
        assert.ok(found, header);
        assert.strictEqual(found[2], createHmac('sha256', secret).update(`${found[1]}.${got.body}`).digest('hex'));
        return JSON.parse(got.body) as Json;
      };
      assert.strictEqual(verify(hook.got[0]).type, 'webhook.test');

      const task = await createTask(rt, 'Hello');
      await runToEnd(rt, task.run_id);
      await rt.close(); // waits for the deliveries in flight
      const runEvent = verify(hook.got[1]);
      assert.strictEqual(runEvent.type, 'run.completed');
      assert.strictEqual((runEvent.data as Json).run_id, task.run_id);
      rt = await startRuntime({ allowLoopbackWebhooks: true });
      const other = (await call(rt, 'POST', '/v1/webhooks', { body: { url: hook.url, events: ['*'] } })).json;
      assert.deepStrictEqual((await call(rt, 'DELETE', `/v1/webhooks/${other.id}`)).json, {
        id: other.id,
        object: 'webhook',
        deleted: true,
      });
      assert.strictEqual((await call(rt, 'POST', `/v1/webhooks/${other.id}/test`)).status, 404);
    } finally {
      await hook.close();
    }
  });

  it('reports an unreachable receiver as a delivery error, not a failed request', async () => {
    rt = await startRuntime({ allowLoopbackWebhooks: true });
    const hook = await receiver();
    await hook.close();
    const created = (await call(rt, 'POST', '/v1/webhooks', { body: { url: hook.url, events: ['*'] } })).json;
    const delivery = await call(rt, 'POST', `/v1/webhooks/${created.id}/test`);
    assert.strictEqual(delivery.status, 200);
    assert.strictEqual(delivery.json.status_code, undefined);
    assert.strictEqual((delivery.json.error as Json).message, 'The receiver could not be reached.');
  });
});

describe('runtime: the new resources on a server without them, and in hostile mode', () => {
  let rt: RuntimeHandle;
  afterEach(() => rt.close());

  it('answers 404 (or 405) for each missing resource', async () => {
    rt = await startRuntime({ faults: { missingEndpoints: ['memory', 'tools', 'connectors', 'webhooks'] } });
    for (const p of ['/v1/memory', '/v1/tools', '/v1/tools/invocations', '/v1/connectors', '/v1/webhooks']) {
      assert.strictEqual((await call(rt, 'GET', p)).status, 404, p);
    }
    rt.setFaults({ missingEndpoints: ['memory'], missingEndpointStatus: 405 });
    assert.strictEqual((await call(rt, 'GET', '/v1/memory')).status, 405);
    assert.strictEqual((await call(rt, 'GET', '/v1/tools')).status, 200);
  });

  it('poisons names and contents, makes outputs huge, duplicates ids, and puts a secret in error messages', async () => {
    rt = await startRuntime({
      hostile: {
        strings: true,
        names: true,
        listJunk: true,
        hugeOutputs: true,
        secretInErrors: true,
        errorMessages: true,
      },
    });
    await call(rt, 'POST', '/v1/memory', { body: { content: 'plain words' } });
    const mem = items(await call(rt, 'GET', '/v1/memory'));
    const real = mem.filter(
      (m) =>
        typeof m === 'object' && m !== null && typeof m.id === 'string' && m.id.startsWith('mem_') && m.version === 1,
    );
    assert.strictEqual(real.length, 2, 'the real item and its duplicate');
    assert.ok((real[0].content as string).includes(COMMAND_LINK));
    const tools = items(await call(rt, 'GET', '/v1/tools?limit=100')).filter(
      (t) => t && typeof t === 'object' && typeof t.name === 'string',
    );
    assert.ok(
      tools.some((t) => t.name === BIDI_OVERRIDE || (t.description as string | undefined)?.includes(COMMAND_LINK)),
    );
    const fileId = await uploadOk(rt, 'a.md', '# A\n');
    const task = await createTask(rt, 'x', [fileId]);
    await runToEnd(rt, task.run_id);
    const inv = items(await call(rt, 'GET', `/v1/tools/invocations?run_id=${task.run_id}`)).find(
      (i) => i && typeof i.id === 'string' && i.id.startsWith('inv_'),
    ) as Json;
    assert.strictEqual(Buffer.byteLength(inv.output as string), 1024 * 1024);
    assert.strictEqual(inv.output_truncated, true);
    const missing = await call(rt, 'GET', '/v1/webhooks/wh_none');
    assert.ok(errorOf(missing).message?.includes(HOSTILE_SECRET));
  });
});
