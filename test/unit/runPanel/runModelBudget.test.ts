// What a hostile server can make the host's run model hold: events of many megabytes, and
// hundreds of thousands of distinct event kinds. Both stay within the model's budgets.
import * as assert from 'assert';
import { RunModel, DEFAULT_LIMITS } from '../../../src/runPanel/runModel';
import { ev } from '../webview/fixtures';

const MB = 1024 * 1024;

describe('RunModel budgets', () => {
  it('keeps 40 events of 8 MB within its byte budget, each one cut with a visible mark', () => {
    // One string shared by every event: the test itself holds 8 MB, the model's accounting counts each event.
    const big = 'x'.repeat(8 * MB);
    const model = new RunModel('run_a');
    for (let i = 1; i <= 40; i++) model.apply([ev('observation.recorded', i, { step_id: 's', summary: big, note: 'kept' })]);
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
