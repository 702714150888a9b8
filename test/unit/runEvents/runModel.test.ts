// The compacted run model: per-step aggregates, a bounded raw window, no event counted twice.
import * as assert from 'node:assert';
import { fieldText, RunModel } from '../../../src/runEvents/runModel';
import { ev, recordedRun } from '../webview/fixtures';

describe('RunModel', () => {
  it('aggregates each step: title, state, duration, tool and observation counts', () => {
    const model = new RunModel('run_a');
    model.apply(recordedRun({ steps: 2, toolsPerStep: 3, terminal: null }));
    const step = model.step('step_1');
    assert.deepStrictEqual(
      {
        title: step?.title,
        state: step?.state,
        duration: step?.durationMs,
        tools: step?.toolCalls,
        obs: step?.observations,
      },
      { title: 'Step 1: read the inputs', state: 'completed', duration: 1201, tools: 3, obs: 3 },
    );
    assert.strictEqual(model.completedStepCount, 2);
    assert.strictEqual(model.ended, false);
  });

  it('keeps only a bounded window of raw events and counts the rest as summarised', () => {
    const model = new RunModel('run_a', { recent: 50, steps: 10 });
    const all = recordedRun({ steps: 100, toolsPerStep: 2 });
    model.apply(all);
    const snap = model.snapshot();
    assert.strictEqual(snap.recent.length, 50);
    assert.deepStrictEqual(
      snap.recent.map((e) => e.data.sequence),
      all.slice(-50).map((e) => e.data.sequence),
    );
    assert.strictEqual(snap.eventsOmitted, all.length - 50);
    assert.strictEqual(snap.steps.length, 10);
    assert.strictEqual(snap.steps[9].stepId, 'step_100');
    assert.strictEqual(snap.stepsOmitted, 90);
    assert.strictEqual(snap.completedSteps, 100);
  });

  it('drops events at or below the last sequence (a resumed stream repeating itself)', () => {
    const model = new RunModel('run_a');
    const accepted1 = model.apply([
      ev('step.started', 1, { step_id: 's', title: 'S' }),
      ev('tool.called', 2, { step_id: 's', tool: 't' }),
    ]);
    const accepted2 = model.apply([
      ev('tool.called', 2, { step_id: 's', tool: 't' }),
      ev('tool.called', 3, { step_id: 's', tool: 'u' }),
    ]);
    assert.strictEqual(accepted1.length, 2);
    assert.deepStrictEqual(
      accepted2.map((e) => e.data.sequence),
      [3],
    );
    assert.strictEqual(model.step('s')?.toolCalls, 2);
    assert.strictEqual(model.totalEvents, 3);
  });

  it('restores from its snapshot with the same figures and carries on after its last sequence', () => {
    const all = recordedRun({ steps: 20 });
    const first = new RunModel('run_a', { recent: 30, steps: 100 });
    first.apply(all.slice(0, 60));
    const restored = new RunModel('run_a', { recent: 30, steps: 100 }, JSON.parse(JSON.stringify(first.snapshot())));
    const plain = (m: RunModel) => JSON.parse(JSON.stringify(m.snapshot())) as unknown;
    assert.deepStrictEqual(plain(restored), plain(first));
    restored.apply(all);
    first.apply(all);
    assert.deepStrictEqual(plain(restored), plain(first));
    assert.strictEqual(restored.totalEvents, all.length);
  });

  it('tighter limits make a smaller snapshot for persisting', () => {
    const model = new RunModel('run_a');
    model.apply(recordedRun({ steps: 100 }));
    const snap = model.snapshot({ recent: 10, steps: 5 });
    assert.strictEqual(snap.recent.length, 10);
    assert.strictEqual(snap.steps.length, 5);
    assert.strictEqual(snap.eventsOmitted + 10, model.totalEvents);
  });

  for (const [name, status] of [
    ['run.completed', 'completed'],
    ['run.failed', 'failed'],
    ['run.cancelled', 'cancelled'],
  ] as const) {
    it(`ends the run at ${name}`, () => {
      const model = new RunModel('run_t');
      model.apply([ev('step.started', 1, { step_id: 's', title: 'Go' })]);
      assert.strictEqual(model.ended, false);
      model.apply([ev(name, 2, { status })]);
      assert.strictEqual(model.ended, true, `${name} ends the run`);
      assert.strictEqual(model.terminalEvent?.status, status);
    });
  }

  it('shows non-string fields as JSON text', () => {
    assert.strictEqual(fieldText({ a: '<b>' }), '{"a":"<b>"}');
    assert.strictEqual(fieldText(undefined), '');
    assert.strictEqual(fieldText('x'), 'x');
  });
});
