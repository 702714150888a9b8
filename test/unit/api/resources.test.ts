// Memory, tools, connectors and webhooks through ApiClient against the reference runtime over HTTP.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isApiError } from '../../../src/api/errors';
import { conflictMemory } from '../../../src/api/resources';
import { HOSTILE_SECRET } from '../../runtime/hostile';
import { QUICK_BACKOFF, rejectionOf, type RuntimeWithClient, startRuntimeWithClient, waitFor } from './fixtures';

async function collect<T>(walk: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of walk) {
    out.push(item);
  }
  return out;
}

describe('api/resources', () => {
  let ctx: RuntimeWithClient;
  before(async () => {
    ctx = await startRuntimeWithClient({ allowLoopbackWebhooks: true }, { backoff: QUICK_BACKOFF });
  });
  after(async () => ctx.close());
  afterEach(() => {
    ctx.runtime.clearFaults();
    ctx.runtime.setHostile(false);
  });

  it('memory: create, get, update with the version; a stale version is version_conflict, answered once, with the current record', async () => {
    const created = await ctx.client.createMemory({ content: 'Builds run on Node 20.', tags: ['build'] });
    assert.equal(created.version, 1);
    assert.deepEqual(created.tags, ['build']);
    const updated = await ctx.client.updateMemory(created.id, { content: 'Builds run on Node 22.', version: 1 });
    assert.equal(updated.version, 2);
    ctx.logger.lines.length = 0;
    const err = await rejectionOf(ctx.client.updateMemory(created.id, { content: 'Mine', version: 1 }));
    assert.ok(isApiError(err, 'conflict'), String(err));
    assert.equal(err.code, 'version_conflict');
    assert.equal(ctx.logger.lines.filter((l) => l.includes('PATCH')).length, 1, 'a version conflict is not retried');
    const current = conflictMemory(err);
    assert.equal(current?.version, 2);
    assert.equal(current?.content, 'Builds run on Node 22.');
    assert.equal((await ctx.client.getMemory(created.id)).content, 'Builds run on Node 22.');
    assert.equal((await ctx.client.deleteMemory(created.id)).deleted, true);
    assert.ok(
      isApiError(await rejectionOf(ctx.client.getMemory(created.id)), 'not_found'),
      'a deleted entry is not_found, not not_supported',
    );
  });

  it('memory: over 64 KiB is refused before sending, with the size', async () => {
    ctx.logger.lines.length = 0;
    const err = await rejectionOf(ctx.client.createMemory({ content: 'é'.repeat(40000) }));
    assert.ok(isApiError(err, 'validation'));
    assert.equal(err.limit, 64 * 1024);
    assert.match(err.message, /80000 bytes/);
    assert.equal(ctx.logger.lines.length, 0, 'nothing was sent');
  });

  it('memory: search by query, filter by tag, and a bounded walk over fresh cursors for ever', async () => {
    for (let i = 0; i < 5; i++) {
      await ctx.client.createMemory({ content: `Fact ${i} about releases`, tags: i % 2 ? ['odd'] : ['even'] });
    }
    const found = await ctx.client.listMemory({ query: 'releases fact' });
    assert.ok(found.data.length >= 5 && found.data.every((m) => typeof m.score === 'number'));
    const odd = await collect(ctx.client.iterateMemory({ tag: 'odd', limit: 1 }));
    assert.equal(odd.length, 2);
    ctx.runtime.setHostile({ freshCursor: '/v1/memory' });
    const walk = ctx.client.iterateMemory({ limit: 2 }, { maxPages: 5 });
    const items = await collect(walk);
    assert.equal(walk.cut?.reason, 'pages');
    assert.ok(items.length <= 10);
  });

  it('tools: list with search, one tool, and the invocation record a tool.called names', async () => {
    const tools = await collect(ctx.client.iterateTools({ query: 'approval' }));
    const all = await collect(ctx.client.iterateTools());
    assert.ok(all.find((t) => t.name === 'write_file')?.requires_approval);
    assert.equal((await ctx.client.getTool('tool_read_file')).name, 'read_file');
    assert.ok(Array.isArray(tools));
    const task = await ctx.client.createTask({ objective: 'Short' });
    const runId = task.run_id!;
    await waitFor(() => ctx.runtime.eventLog(runId).some((e) => e.event === 'run.completed'), 'the run to end');
    const page = await ctx.client.listInvocations({ run_id: runId });
    assert.equal(page.data.length, 1);
    const record = await ctx.client.getInvocation(page.data[0].id);
    assert.equal(record.tool, 'write_file');
    assert.equal(record.run_id, runId);
    assert.deepEqual(record.arguments, { paths: ['report.md', 'summary.json'] });
    assert.equal(record.output_truncated, false);
  });

  it('connectors: take back one grant, then revoke the whole connector', async () => {
    const connectors = await collect(ctx.client.iterateConnectors());
    const github = connectors.find((c) => c.kind === 'github')!;
    const [first, ...rest] = github.grants;
    const after = await ctx.client.removeGrant(github.id, first.id);
    assert.deepEqual(
      after.grants.map((g) => g.id),
      rest.map((g) => g.id),
    );
    const revoked = await ctx.client.revokeConnector(github.id);
    assert.equal(revoked.status, 'revoked');
    assert.deepEqual(revoked.grants, []);
    const again = await rejectionOf(ctx.client.revokeConnector(github.id));
    assert.ok(isApiError(again, 'conflict'));
  });

  it('webhooks: https only before sending; the secret comes once and is never logged; a test delivery reports status and time', async () => {
    ctx.logger.lines.length = 0;
    assert.ok(
      isApiError(
        await rejectionOf(ctx.client.createWebhook({ url: 'http://example.com/h', events: ['run.completed'] })),
        'validation',
      ),
    );
    assert.equal(ctx.logger.lines.length, 0, 'nothing was sent');
    const created = await ctx.client.createWebhook({
      url: 'https://example.com/hook',
      events: ['run.completed', 'run.failed'],
    });
    assert.match(created.secret ?? '', /^whsec_/);
    assert.equal('secret' in created.webhook, false);
    assert.ok(!ctx.logger.lines.some((l) => l.includes(created.secret!)));
    const listed = await collect(ctx.client.iterateWebhooks());
    assert.ok(listed.some((w) => w.id === created.webhook.id && !('secret' in w)));

    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(201).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      // The client only sends https URLs; the loopback receiver is registered directly.
      const res = await fetch(`${ctx.runtime.baseUrl}/v1/webhooks`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ctx.runtime.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: `http://127.0.0.1:${port}/h`, events: ['*'] }),
      });
      const hook = (await res.json()) as { id: string };
      const delivery = await ctx.client.testWebhook(hook.id);
      assert.equal(delivery.status_code, 201);
      assert.ok(typeof delivery.duration_ms === 'number');
      assert.equal((await ctx.client.deleteWebhook(hook.id)).deleted, true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('hostile: a webhook secret in an error message or a delivery error never reaches the caller', async () => {
    const hook = await ctx.client.createWebhook({ url: 'https://example.com/h2', events: ['*'] });
    ctx.runtime.setHostile({ secretInErrors: true, errorMessages: true });
    const err = await rejectionOf(ctx.client.getMemory('mem_unknown'));
    assert.ok(isApiError(err));
    assert.ok(!err.message.includes(HOSTILE_SECRET), err.message);
    assert.match(err.message, /whsec_\*\*\*/);
    const delivery = await ctx.client.testWebhook(hook.webhook.id);
    assert.ok(delivery.error && !delivery.error.message.includes(HOSTILE_SECRET));
    assert.ok(!ctx.logger.lines.some((l) => l.includes(HOSTILE_SECRET)), 'nor the log');
  });

  it('hostile: a search answered with far more records than asked keeps the page asked for and counts the rest', async () => {
    await ctx.client.createMemory({ content: 'Searchable: the deploy runs at noon.', tags: ['huge'] });
    ctx.runtime.setHostile({ hugeListItems: 50_000 });
    const memory = await ctx.client.listMemory({ query: 'Searchable', limit: 20 });
    assert.equal(memory.data.length, 20);
    assert.ok((memory.overflow ?? 0) >= 50_000 - 19, `overflow counted: ${memory.overflow}`);
    const tools = await ctx.client.listTools({ query: 'a', limit: 20 });
    assert.ok(tools.data.length <= 20, `tools kept: ${tools.data.length}`);
    // A quarter of a million is past the bound on a JSON answer's size: refused, not parsed.
    ctx.runtime.setHostile({ hugeListItems: 250_000 });
    const err = await rejectionOf(ctx.client.listMemory({ query: 'Searchable', limit: 20 }));
    assert.ok(isApiError(err), String(err));
    assert.match(err.message, /larger than/);
  });

  for (const status of [404, 405] as const) {
    it(`a server without the resources (${status}) is not_supported for each call`, async () => {
      ctx.runtime.setFaults({
        missingEndpoints: ['memory', 'tools', 'connectors', 'webhooks'],
        missingEndpointStatus: status,
      });
      const calls = [
        () => ctx.client.listMemory(),
        () => ctx.client.getMemory('mem_x'),
        () => ctx.client.createMemory({ content: 'x' }),
        () => ctx.client.updateMemory('mem_x', { content: 'x', version: 1 }),
        () => ctx.client.deleteMemory('mem_x'),
        () => ctx.client.listTools(),
        () => ctx.client.getInvocation('inv_x'),
        () => ctx.client.listConnectors(),
        () => ctx.client.revokeConnector('conn_x'),
        () => ctx.client.listWebhooks(),
        () => ctx.client.testWebhook('wh_x'),
      ];
      for (const call of calls) {
        const err = await rejectionOf(call());
        assert.ok(isApiError(err, 'not_supported'), String(err));
      }
    });
  }
});
