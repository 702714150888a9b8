// What rows and header facts say: durations, placeholders, live elapsed time, unknown kinds.
import * as assert from 'node:assert';
import { clockMatters, elapsedMs, fieldsText, rowView, statusIcon, totalDurationMs } from '../../../src/webview/format';
import { applyEvents, initialState } from '../../../src/webview/reducer';
import { ev } from './fixtures';

describe('webview format', () => {
  it('gives unknown statuses a neutral icon (the text stays verbatim)', () => {
    assert.strictEqual(statusIcon('completed').icon, 'pass');
    assert.strictEqual(statusIcon('paused_for_approval').icon, 'question');
  });

  it('shows a running step with its live elapsed time and a completed one with duration_ms', () => {
    const state = initialState('run_f');
    applyEvents(state, [{ ...ev('step.started', 1, { step_id: 'a', title: 'Read' }), receivedAt: 10_000 }]);
    const running = rowView(state, state.rows[0], 12_500);
    assert.deepStrictEqual([running.label, running.meta, running.tone], ['Read', '2.5 s', 'spin']);
    applyEvents(state, [ev('step.completed', 2, { step_id: 'a', duration_ms: 800 })]);
    const done = rowView(state, state.rows[0], 99_000);
    assert.deepStrictEqual([done.icon, done.meta], ['pass', '800 ms']);
    assert.strictEqual(rowView(state, state.rows[1], 0).meta, '800 ms');
  });

  it('shows an unknown kind by its name with all its fields', () => {
    const state = initialState('run_f');
    applyEvents(state, [ev('approval.requested', 1, { reason: 'needs a human', level: 2, extra: { a: 1 } })]);
    const view = rowView(state, state.rows[0], 0);
    assert.strictEqual(view.label, 'approval.requested');
    assert.strictEqual(view.detail, 'reason: needs a human  ·  level: 2  ·  extra: {"a":1}');
  });

  it('cuts very long field text', () => {
    assert.ok(fieldsText({ sequence: 1, summary: 'x'.repeat(5000) }).length <= 401);
  });

  it('takes the elapsed and total time from the run record when it has them, else from the events', () => {
    const state = initialState('run_f');
    applyEvents(state, [
      { ...ev('step.started', 1, { step_id: 'a' }), receivedAt: 1000 },
      ev('step.completed', 2, { step_id: 'a', duration_ms: 300 }),
    ]);
    assert.strictEqual(elapsedMs(state, 4000), 3000);
    assert.strictEqual(totalDurationMs(state), 300);
    state.info = { runId: 'run_f', startedAt: '2026-01-01T00:00:00Z', completedAt: '2026-01-01T00:01:00Z' };
    assert.strictEqual(elapsedMs(state, 0), 60_000);
    assert.strictEqual(totalDurationMs(state), 60_000);
  });

  it('the clock redraws a running run or a countdown, never an ended run', () => {
    const state = initialState('run_c');
    applyEvents(state, [ev('step.started', 1, { step_id: 'a' })]);
    assert.strictEqual(clockMatters(state, false), true, 'a running run: its times grow');
    applyEvents(state, [ev('run.completed', 2, {})]);
    assert.strictEqual(clockMatters(state, false), false, 'an ended run: nothing changes with the clock');
    assert.strictEqual(clockMatters(state, true), true, 'a reconnect countdown still counts');
    const recorded = initialState('run_r');
    recorded.info = { runId: 'run_r', startedAt: '2026-01-01T00:00:00Z', completedAt: '2026-01-01T00:01:00Z' };
    assert.strictEqual(clockMatters(recorded, false), false, 'ended by its record');
  });
});
