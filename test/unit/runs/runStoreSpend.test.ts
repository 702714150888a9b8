// The run store and a streamed run's spend: the row and the status bar read the stream's newest
// cost and cap in the run's record, announced at most once per SPEND_NOTE_MS whatever the flood,
// and a newer record takes over again.
import * as assert from 'node:assert/strict';
import { type RunChange, RunStore, SPEND_NOTE_MS } from '../../../src/runs/runStore';
import { CapturingLogger } from '../api/fixtures';
import { ManualSchedule } from '../common/manualSchedule';

const usd = (amount: string) => ({ amount, currency: 'USD' });

function store() {
  const clock = new ManualSchedule();
  const changes: RunChange[] = [];
  const runs = new RunStore({
    fetchRun: async () => assert.fail('no request'),
    log: new CapturingLogger(),
    schedule: clock.schedule,
  });
  runs.onDidChange((c) => void changes.push(c));
  return { runs, clock, changes };
}

describe('runs/runStore: spend from a stream', () => {
  it("puts the stream's newest cost and cap in the record, announced once for a flood", () => {
    const { runs, clock, changes } = store();
    runs.noteRecord({ id: 'run_1', status: 'running', budget: usd('0.05'), usage: { cost: usd('0.00') } });
    const stream = runs.stream('run_1');
    changes.length = 0;
    for (let i = 1; i <= 1000; i++) {
      runs.noteStreamSpend('run_1', { cost: usd((i / 100000).toFixed(5)), cap: usd('0.05') });
    }
    assert.equal(changes.length, 0, 'nothing announced per note');
    assert.deepEqual(clock.armed, [SPEND_NOTE_MS], 'one timer for the whole flood');
    assert.deepEqual((runs.get('run_1')?.record?.usage as { cost: unknown }).cost, usd('0.01000'), 'kept at once');
    clock.fire();
    assert.equal(changes.length, 1);
    assert.deepEqual(changes[0].facts.record?.usage, { cost: usd('0.01000') });
    assert.deepEqual(changes[0].facts.record?.budget, usd('0.05'));
    assert.equal(changes[0].statusChanged, false);
    assert.deepEqual(clock.armed, [], 'no timer while nothing new came');
    // The cap raised in the stream.
    runs.noteStreamSpend('run_1', { cost: usd('0.05'), cap: usd('0.10') });
    clock.fire();
    assert.deepEqual(runs.get('run_1')?.record?.budget, usd('0.10'));
    // An older record read while the stream goes on does not take the row back.
    runs.noteRecord({ id: 'run_1', status: 'running', budget: usd('0.05'), usage: { cost: usd('0.01') } });
    assert.deepEqual(runs.get('run_1')?.record?.budget, usd('0.10'));
    stream.dispose();
    runs.dispose();
  });

  it('a record read after the end (or once nobody streams) is the last word', () => {
    const { runs, clock } = store();
    runs.noteRecord({ id: 'run_1', status: 'running', budget: usd('0.05') });
    const stream = runs.stream('run_1');
    runs.noteStreamSpend('run_1', { cost: usd('0.04'), cap: usd('0.05') });
    clock.fire();
    runs.noteRecord({ id: 'run_1', status: 'completed', budget: usd('0.05'), usage: { cost: usd('0.03') } });
    assert.deepEqual(runs.get('run_1')?.record?.usage, { cost: usd('0.03') });
    stream.dispose();
    runs.dispose();
  });

  it('a spend note for a run of a service left behind is dropped with it', () => {
    const { runs, clock, changes } = store();
    runs.noteRecord({ id: 'run_1', status: 'running' });
    runs.noteStreamSpend('run_1', { cost: usd('0.04') });
    runs.reset();
    changes.length = 0;
    assert.deepEqual(clock.armed, []);
    assert.equal(runs.get('run_1'), undefined);
    runs.dispose();
  });
});

describe('runs/runStore: a cap the service did not keep', () => {
  it("is the record's cap while the record and the stream have none, for the rows and the panel", () => {
    const { runs, clock, changes } = store();
    runs.noteRecord({ id: 'run_1', status: 'running', usage: { cost: usd('0.01') } });
    changes.length = 0;
    runs.noteLocalCap('run_1', usd('0.05'));
    assert.equal(changes.length, 1, 'announced');
    assert.deepEqual(runs.get('run_1')?.record?.budget, usd('0.05'));
    runs.noteStreamSpend('run_1', { cost: usd('0.03') });
    clock.fire();
    assert.deepEqual(runs.get('run_1')?.record?.budget, usd('0.05'), 'a cost without a cap keeps it');
    assert.deepEqual(runs.withLocalCap({ id: 'run_1', status: 'running' }).budget, usd('0.05'));
    assert.deepEqual(runs.withLocalCap({ id: 'run_1', status: 'running', budget: usd('1.00') }).budget, usd('1.00'));
    assert.equal(runs.withLocalCap({ id: 'run_2', status: 'running' }).budget, undefined);
  });
});
