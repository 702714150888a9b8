// A capped run's spend on the host side, against the reference runtime over HTTP: the info the
// webview gets carries the run's newest cost and cap, the run store hears of them per batch (not
// per event), and the hostile runtime's bad amounts and flood arrive as received.
import * as assert from 'node:assert/strict';
import type { SpendSeen } from '../../../src/runEvents/spendMeter';
import type { HostMessage, RunInfo } from '../../../src/runPanel/protocol';
import { until } from './fakes';
import { SessionRig } from './sessionFixture';

function infos(posted: HostMessage[]): RunInfo[] {
  return posted.flatMap((m) => (m.type === 'info' || m.type === 'reset' ? [m.info] : []));
}

describe('RunSession: spend against the cap', function () {
  this.timeout(60_000);
  const rig = new SessionRig();
  afterEach(() => rig.stop());

  it("a capped run's info carries its cap and newest cost; the run store hears them per batch", async () => {
    await rig.start({ eventDelayMs: 0 });
    const task = await rig.client.createTask({
      objective: 'Spend a little',
      budget: { amount: '0.05', currency: 'USD' },
    });
    const runId = task.run_id as string;
    const noted: SpendSeen[] = [];
    let batches = 0;
    const { posted, session } = rig.watch(runId, {
      onSpend: (spend) => noted.push({ ...spend }),
      onEvents: () => batches++,
    });
    await until(() => session.connectionState.state === 'ended', 'the run ended', 20);
    await until(
      () => infos(posted).some((i) => i.status === 'completed' && i.spent?.amount === '0.03'),
      'the final info',
      20,
    );
    const last = infos(posted).at(-1);
    assert.deepEqual(last?.budget, { amount: '0.05', currency: 'USD' });
    assert.deepEqual(last?.spent, { amount: '0.03', currency: 'USD' });
    // The log has a usage.updated per charge; the store heard the newest once per batch at most.
    const usageEvents = rig.runtime.eventLog(runId).filter((e) => e.event === 'usage.updated').length;
    assert.ok(usageEvents >= 2, `usage events: ${usageEvents}`);
    assert.ok(noted.length > 0 && noted.length <= batches, `${noted.length} notes for ${batches} batches`);
    assert.deepEqual(noted.at(-1), {
      cost: { amount: '0.03', currency: 'USD' },
      cap: { amount: '0.05', currency: 'USD' },
    });
  });

  it('the header says the run waits at its cap, and running again once the cap is raised', async () => {
    await rig.start({ eventDelayMs: 0 });
    const task = await rig.client.createTask({ objective: 'Pause', budget: { amount: '0.01', currency: 'USD' } });
    const runId = task.run_id as string;
    const { posted, session } = rig.watch(runId);
    await until(() => infos(posted).some((i) => i.status === 'awaiting_budget'), 'the info to say awaiting_budget', 20);
    await rig.client.raiseBudget(runId, { amount: '1.00', currency: 'USD' }, 'raise-once');
    await until(() => session.connectionState.state === 'ended', 'the run ended', 20);
    // The info that says so follows the end (the run's record is read once it ended).
    await until(() => infos(posted).at(-1)?.status === 'completed', 'the info to say completed', 20);
    const statuses = infos(posted).map((i) => i.status);
    const paused = statuses.indexOf('awaiting_budget');
    assert.ok(statuses.slice(paused).includes('running'), statuses.join(', '));
  });

  it("hostile spend: bad amounts arrive as received, another run's budget events are not taken, a flood is one note per batch", async () => {
    await rig.start({ eventDelayMs: 0, hostile: { budgets: true, budgetFlood: 1000 } });
    const task = await rig.client.createTask({ objective: 'Spend oddly', budget: { amount: '0.05', currency: 'USD' } });
    const runId = task.run_id as string;
    let notes = 0;
    let batches = 0;
    const caps: unknown[] = [];
    const named: (string | undefined)[] = [];
    const { posted, session } = rig.watch(runId, {
      onSpend: (spend) => {
        notes++;
        caps.push(spend.cap);
      },
      onEvents: (_sequence, name) => {
        batches++;
        named.push(name);
      },
    });
    await until(() => session.connectionState.state === 'ended', 'the run ended', 20);
    const events = posted.flatMap((m) =>
      m.type === 'events' ? m.events : m.type === 'reset' ? m.snapshot.recent : [],
    );
    const usage = events.filter((e) => e.event === 'usage.updated');
    assert.ok(usage.length >= 1000, `usage.updated delivered: ${usage.length}`);
    assert.ok(notes <= batches, `${notes} notes for ${batches} batches`);
    // budget.reached / budget.raised naming run_someone_else never set this run's cap.
    assert.ok(!caps.some((c) => JSON.stringify(c).includes('"-1"')), JSON.stringify(caps.slice(0, 5)));
    // Nor do they say where this run is (the run store would show it waiting at a cap).
    const reached = posted
      .flatMap((m) => (m.type === 'events' ? m.events : []))
      .filter((e) => e.event === 'budget.reached');
    assert.ok(reached.length > 0, 'the hostile stream sent a budget.reached for another run');
    assert.ok(!named.includes('budget.reached'), named.filter((n) => n?.startsWith('budget')).join(', '));
    // Whatever the info carries is bounded.
    for (const info of infos(posted)) {
      assert.ok(JSON.stringify(info.spent ?? null).length < 200, JSON.stringify(info.spent));
      assert.ok(JSON.stringify(info.budget ?? null).length < 200, JSON.stringify(info.budget));
    }
  });
});
