// What a hostile server can make the host's run model hold: events of many megabytes, and
// hundreds of thousands of distinct event kinds. Both stay within the model's budgets.
import * as assert from 'node:assert';
import { DEFAULT_LIMITS, RunModel } from '../../../src/runEvents/runModel';
import { parsePersistedState } from '../../../src/runPanel/persistedState';
import { ev } from '../webview/fixtures';

const MB = 1024 * 1024;

describe('RunModel budgets', () => {
  it('keeps 40 events of 8 MB within its byte budget, each one cut with a visible mark', () => {
    // One string shared by every event: the test itself holds 8 MB, the model's accounting counts each event.
    const big = 'x'.repeat(8 * MB);
    const model = new RunModel('run_a');
    for (let i = 1; i <= 40; i++) {
      model.apply([ev('observation.recorded', i, { step_id: 's', summary: big, note: 'kept' })]);
    }
    assert.ok(model.retainedBytes() <= DEFAULT_LIMITS.recentBytes, `retains ${model.retainedBytes()} bytes`);
    const snap = model.snapshot();
    assert.strictEqual(snap.eventCount, 40);
    let snapshotBytes = 0;
    for (const event of snap.recent) {
      const json = JSON.stringify(event.data);
      snapshotBytes += json.length;
      assert.ok(json.length <= 20 * 1024, `event ${event.data.sequence} keeps ${json.length} characters`);
      assert.match(String(event.data.summary), /… \(truncated, 8388608 bytes\)$/);
      assert.strictEqual(event.data.note, 'kept');
    }
    assert.ok(snapshotBytes <= DEFAULT_LIMITS.recentBytes, `the snapshot's events take ${snapshotBytes} characters`);
  });

  it('caps the distinct event kinds it counts: 200,000 kinds give a short kind list and a small snapshot', () => {
    const model = new RunModel('run_a');
    const events = Array.from({ length: 200_000 }, (_, i) => ev(`kind.${i}`, i + 1));
    model.apply(events);
    assert.ok(model.kindCounts().size <= 100, `${model.kindCounts().size} kinds kept`);
    const json = JSON.stringify(model.snapshot());
    assert.ok(json.length < 1 * MB, `the snapshot is ${json.length} characters`);
  });
});

describe('RunModel kind cap', () => {
  it('counts the spec kinds by name always, 64 others by name, and the rest together; a restore keeps the cap', () => {
    const model = new RunModel('run_a');
    const events = [ev('plan.created', 1, { steps: 1 })];
    for (let i = 0; i < 1000; i++) {
      events.push(ev(`custom.${i}`, events.length + 1));
    }
    events.push(ev('step.started', events.length + 1, { step_id: 's' }), ev('run.completed', events.length + 2));
    model.apply(events);
    const kinds = model.kindCounts();
    assert.ok(kinds.has('plan.created') && kinds.has('step.started') && kinds.has('run.completed'));
    assert.strictEqual(kinds.size, 3 + 64);
    assert.strictEqual(model.otherKindCount, 1000 - 64);
    const counted = [...kinds.values()].reduce((a, b) => a + b, 0) + model.otherKindCount;
    assert.strictEqual(counted, events.length);
    const restored = new RunModel('run_a', { kinds: 10 }, JSON.parse(JSON.stringify(model.snapshot())));
    assert.ok(restored.kindCounts().size <= 3 + 10);
    assert.strictEqual(
      [...restored.kindCounts().values()].reduce((a, b) => a + b, 0) + restored.otherKindCount,
      events.length,
    );
  });

  it('keeps step ids, titles and the plan strategy short however long the server makes them', () => {
    const model = new RunModel('run_a');
    const id = 'i'.repeat(100_000);
    model.apply([
      ev('plan.created', 1, { steps: 1, strategy: 's'.repeat(100_000) }),
      ev('step.started', 2, { step_id: id, title: 't'.repeat(100_000) }),
    ]);
    const [step] = [...model.stepSummaries()];
    assert.ok(step.stepId.length <= 256 && step.title.length <= 256 && (model.plan?.strategy.length ?? 0) <= 256);
    assert.ok(model.retainedBytes() < 64 * 1024);
  });
});

describe('a saved snapshot with too many kinds', () => {
  it('is read back with a capped kind list and the rest counted together', () => {
    const kinds: Record<string, number> = {};
    for (let i = 0; i < 10_000; i++) {
      kinds[`k${i}`] = 2;
    }
    const state = parsePersistedState({
      runId: 'run_a',
      lastSequence: 5,
      snapshot: { runId: 'run_a', lastSequence: 5, eventCount: 20_000, steps: [], recent: [], kinds },
    });
    const snap = state?.snapshot;
    assert.ok(snap && Object.keys(snap.kinds).length <= 200);
    assert.strictEqual(Object.values(snap.kinds).reduce((a, b) => a + b, 0) + (snap.otherKinds ?? 0), 20_000);
    const model = new RunModel('run_a', {}, snap);
    assert.ok(model.kindCounts().size <= 64);
  });
});
