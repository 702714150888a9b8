// The run panel's view model: events in stream order become rows nested under their steps.
import * as assert from 'node:assert';
import { applyEvents, initialState, kindsSeen, OTHER_KINDS, reduce, setFilter, type TimelineState } from '../../../src/webview/reducer';
import { RunModel } from '../../../src/runPanel/runModel';
import { DEFAULT_UI_STRINGS } from '../../../src/runPanel/protocol';
import { ev, recordedRun } from './fixtures';

const RUN = 'run_test';

function rowsOf(state: TimelineState): string[] {
  return state.visible.map((r) => `${'  '.repeat(r.depth)}${r.event || r.kind}#${r.sequence}`);
}

function reset(state: TimelineState, model: RunModel): void {
  reduce(state, {
    type: 'reset',
    snapshot: model.snapshot(),
    info: { runId: RUN },
    connection: { state: 'live' },
    artifacts: { state: 'none' },
    strings: { ...DEFAULT_UI_STRINGS },
  });
}

describe('webview reducer', () => {
  it('keeps events in stream order with tool calls, observations and completion nested under their step', () => {
    const state = initialState(RUN);
    applyEvents(state, recordedRun({ steps: 2, toolsPerStep: 1 }));
    assert.deepStrictEqual(rowsOf(state), [
      'plan.created#1',
      'step.started#2',
      '  tool.called#3',
      '  observation.recorded#4',
      '  step.completed#5',
      'step.started#6',
      '  tool.called#7',
      '  observation.recorded#8',
      '  step.completed#9',
      'run.completed#10',
    ]);
  });

  it('nests a late event under its own step even when another step started since', () => {
    const state = initialState(RUN);
    applyEvents(state, [
      ev('step.started', 1, { step_id: 'a', title: 'A' }),
      ev('step.started', 2, { step_id: 'b', title: 'B' }),
      ev('tool.called', 3, { step_id: 'a', tool: 'x' }),
      ev('observation.recorded', 4, { step_id: 'b', summary: 'y' }),
    ]);
    assert.deepStrictEqual(rowsOf(state), ['step.started#1', '  tool.called#3', 'step.started#2', '  observation.recorded#4']);
  });

  it('shows unknown kinds as rows of their own, nested when they name a known step', () => {
    const state = initialState(RUN);
    applyEvents(state, [
      ev('approval.requested', 1, { reason: 'needs a human' }),
      ev('step.started', 2, { step_id: 's', title: 'S' }),
      ev('token.usage', 3, { step_id: 's', tokens: 5 }),
      ev('tool.called', 4, { step_id: 'nowhere', tool: 't' }),
    ]);
    assert.deepStrictEqual(rowsOf(state), ['approval.requested#1', 'step.started#2', '  token.usage#3', 'tool.called#4']);
    assert.strictEqual(state.visible[0].kind, 'unknown');
    assert.deepStrictEqual(kindsSeen(state).sort(), ['approval.requested', 'step.started', 'token.usage', 'tool.called']);
  });

  it('records the terminal event and its status', () => {
    const state = initialState(RUN);
    applyEvents(state, recordedRun({ steps: 1, terminal: 'failed' }));
    assert.strictEqual(state.model.terminalEvent?.status, 'failed');
    assert.strictEqual(state.visible[state.visible.length - 1].kind, 'terminal');
  });

  it('takes a terminal event without a status field from its name', () => {
    const state = initialState(RUN);
    applyEvents(state, [ev('run.cancelled', 1)]);
    assert.strictEqual(state.model.terminalEvent?.status, 'cancelled');
  });

  it('counts completed steps against the plan and keeps step durations', () => {
    const state = initialState(RUN);
    applyEvents(state, recordedRun({ steps: 3, terminal: null }).slice(0, -3));
    assert.strictEqual(state.model.plan?.steps, 3);
    assert.strictEqual(state.model.completedStepCount, 2);
    assert.strictEqual(state.model.step('step_1')?.durationMs, 1201);
    assert.strictEqual(state.model.step('step_3')?.state, 'running');
  });

  it('ignores repeated events after a resume: nothing twice, nothing skipped', () => {
    const all = recordedRun({ steps: 3 });
    const state = initialState(RUN);
    applyEvents(state, all.slice(0, 8));
    // A resumed stream may repeat what was already shown; only the new part is taken.
    const change = applyEvents(state, all.slice(5, 12));
    assert.strictEqual(change.rows, true);
    applyEvents(state, all.slice(0, all.length));
    const sequences = state.rows.map((r) => r.sequence).sort((a, b) => a - b);
    assert.deepStrictEqual(sequences, all.map((e) => e.data.sequence));
  });

  it('reports no change for a batch of repeats', () => {
    const state = initialState(RUN);
    applyEvents(state, [ev('step.started', 1, { step_id: 'a', title: 'A' })]);
    assert.strictEqual(applyEvents(state, [ev('step.started', 1, { step_id: 'a', title: 'A' })]).rows, false);
  });

  it('rebuilds from a compacted snapshot and continues after its last sequence without duplicates', () => {
    const all = recordedRun({ steps: 50, toolsPerStep: 2 });
    const model = new RunModel(RUN, { recent: 20, steps: 1000 });
    model.apply(all.slice(0, 200));
    const state = initialState(RUN);
    reset(state, model);
    assert.strictEqual(state.rows[0].kind, 'omitted');
    assert.strictEqual(state.rows[0].count, 200 - 20);
    // Steps whose start fell out of the raw window are still rows, drawn from their aggregate.
    const stepRows = state.rows.filter((r) => r.kind === 'step');
    assert.ok(stepRows.length >= 28 && stepRows.every((r) => r.stepId !== undefined));
    assert.ok(stepRows.slice(0, 5).every((r) => r.raw === undefined));
    applyEvents(state, all.slice(150));
    const seqs = state.rows.filter((r) => r.kind !== 'omitted').map((r) => r.sequence);
    assert.strictEqual(new Set(seqs).size, seqs.length, 'no sequence twice');
    assert.strictEqual(state.model.lastSequence, all.length);
    assert.strictEqual(state.model.totalEvents, all.length);
    assert.ok(seqs.includes(201) && seqs.includes(all.length));
  });

  it('filters by event kind and by search text, and keeps filtering rows that arrive later', () => {
    const state = initialState(RUN);
    applyEvents(state, recordedRun({ steps: 2, toolsPerStep: 2, terminal: null }));
    setFilter(state, { kind: 'tool.called', text: '' });
    assert.ok(state.visible.length === 4 && state.visible.every((r) => r.event === 'tool.called'));
    setFilter(state, { kind: '', text: 'READ_FILE' });
    assert.deepStrictEqual(state.visible.map((r) => r.event), ['tool.called', 'tool.called']);
    applyEvents(state, [ev('tool.called', 100, { step_id: 'step_2', tool: 'read_file' }), ev('tool.called', 101, { step_id: 'step_2', tool: 'other' })]);
    assert.deepStrictEqual(state.visible.map((r) => r.sequence).slice(-1), [100]);
    setFilter(state, { kind: '', text: '' });
    assert.strictEqual(state.visible, state.rows);
  });

  it('takes header facts and artifacts from their messages', () => {
    const state = initialState(RUN);
    reduce(state, { type: 'info', info: { runId: RUN, objective: 'Summarise', status: 'running' } });
    reduce(state, { type: 'connection', connection: { state: 'reconnecting', attempt: 2, delayMs: 3000, reason: 'reset' } });
    const change = reduce(state, { type: 'artifacts', artifacts: { state: 'loaded', truncated: false, artifacts: [{ id: 'art_1', name: 'report.md' }] } });
    assert.strictEqual(change.artifacts, true);
    assert.strictEqual(state.info.objective, 'Summarise');
    assert.strictEqual(state.connection.state, 'reconnecting');
  });

  it('stays fast and bounded in its model over 100,000 events', () => {
    const state = initialState(RUN);
    const all = recordedRun({ steps: 10_000, toolsPerStep: 4 });
    for (let i = 0; i < all.length; i += 1000) applyEvents(state, all.slice(i, i + 1000));
    assert.strictEqual(state.rows.length, all.length);
    const snap = state.model.snapshot();
    assert.ok(snap.recent.length <= 1000 && snap.steps.length <= 5000);
    assert.strictEqual(snap.eventsOmitted + snap.recent.length, all.length);
  });
});

describe('kind filter past the kind cap', () => {
  it('offers the counted kinds and one "other kinds" choice that shows the rest', () => {
    const state = initialState('run_k');
    const events = [ev('plan.created', 1, { steps: 0 })];
    for (let i = 0; i < 200; i++) events.push(ev(`custom.${i}`, events.length + 1));
    applyEvents(state, events);
    const kinds = kindsSeen(state);
    assert.strictEqual(kinds.length, 1 + 64 + 1);
    assert.strictEqual(kinds[kinds.length - 1], OTHER_KINDS);
    setFilter(state, { kind: OTHER_KINDS, text: '' });
    assert.deepStrictEqual(state.visible.map((r) => r.event), events.slice(1 + 64).map((e) => e.event));
  });
});
