// Spend: each agent run carries its cost; GET /v1/usage sums this month's and shows the quota.
import * as assert from 'node:assert';
import { type RuntimeHandle, startRuntime } from '../index';
import { call, createTask, runToEnd, uploadOk } from './runtimeTestKit';

describe('runtime: usage and spend', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime();
  });
  afterEach(() => rt.close());

  it('starts at zero spend with the default quota, for the current calendar month (UTC)', async () => {
    const usage = (await call(rt, 'GET', '/v1/usage')).json;
    assert.strictEqual(usage.object, 'usage');
    assert.deepStrictEqual(usage.spend, { amount: '0.00', currency: 'USD' });
    assert.deepStrictEqual(usage.quota, { amount: '100.00', currency: 'USD' });
    const start = new Date(usage.period_start as string);
    const end = new Date(usage.period_end as string);
    assert.strictEqual(start.toISOString(), usage.period_start, 'RFC 3339 UTC');
    assert.strictEqual(start.getUTCDate(), 1);
    assert.strictEqual(end.getUTCDate(), 1);
    assert.ok(start.getTime() <= Date.now() && Date.now() < end.getTime());
  });

  it('charges each completed step and tool call on the run record and sums the runs into the spend', async () => {
    const fileId = await uploadOk(rt, 'a.md', '# A\n');
    const first = await createTask(rt, 'Three steps', [fileId]);
    await runToEnd(rt, first.run_id);
    const run = (await call(rt, 'GET', `/v1/runs/${first.run_id}`)).json;
    assert.deepStrictEqual(
      run.usage,
      { cost: { amount: '0.11', currency: 'USD' } },
      'read, revise, report at 0.02 each, and five tool calls at 0.01',
    );
    const second = await createTask(rt, 'One step');
    await runToEnd(rt, second.run_id);
    assert.deepStrictEqual((await call(rt, 'GET', '/v1/usage')).json.spend, { amount: '0.14', currency: 'USD' });
    const synthetic = await rt.createSyntheticRun({ events: 5 });
    assert.strictEqual(
      (await call(rt, 'GET', `/v1/runs/${synthetic}`)).json.usage,
      undefined,
      'a run may carry no usage at all',
    );
    assert.deepStrictEqual((await call(rt, 'GET', '/v1/usage')).json.spend, { amount: '0.14', currency: 'USD' });
  });

  it('lets a synthetic run (admin) carry a given cost, counted in the spend', async () => {
    const created = await call(rt, 'POST', '/__admin/runs', { key: rt.adminKey, body: { events: 2, cost: '12.40' } });
    assert.strictEqual(created.status, 201);
    assert.deepStrictEqual((await call(rt, 'GET', `/v1/runs/${created.json.run_id}`)).json.usage, {
      cost: { amount: '12.40', currency: 'USD' },
    });
    await rt.createSyntheticRun({ events: 1, cost: '0.60' });
    assert.deepStrictEqual((await call(rt, 'GET', '/v1/usage')).json.spend, { amount: '13.00', currency: 'USD' });
    assert.strictEqual(
      (await call(rt, 'POST', '/__admin/runs', { key: rt.adminKey, body: { events: 1, cost: 12.4 } })).status,
      400,
    );
  });

  it('reports the quota given in the options, or null for none', async () => {
    const none = await startRuntime({ quota: null });
    const custom = await startRuntime({ quota: { amount: '12.40', currency: 'EUR' } });
    try {
      assert.strictEqual((await call(none, 'GET', '/v1/usage')).json.quota, null);
      assert.deepStrictEqual((await call(custom, 'GET', '/v1/usage')).json.quota, { amount: '12.40', currency: 'EUR' });
    } finally {
      await none.close();
      await custom.close();
    }
  });
});
