// The run panel's view model: events in stream order become rows nested under their steps.
import * as assert from 'node:assert';
import { RunModel } from '../../../src/runEvents/runModel';
import type { WireEvent } from '../../../src/runEvents/wire';
import { DEFAULT_UI_STRINGS } from '../../../src/runPanel/protocol';
import {
  applyEvents,
  applyPage,
  firstSequence,
  initialState,
  kindsSeen,
  MAX_WINDOW_ROWS,
  NO_FILTER,
  OTHER_KINDS,
  reduce,
  setFilter,
  type TimelineState,
} from '../../../src/webview/reducer';
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
    assert.deepStrictEqual(rowsOf(state), [
      'step.started#1',
      '  tool.called#3',
      'step.started#2',
      '  observation.recorded#4',
    ]);
  });

  it('shows unknown kinds as rows of their own, nested when they name a known step', () => {
    const state = initialState(RUN);
    applyEvents(state, [
      ev('approval.requested', 1, { reason: 'needs a human' }),
      ev('step.started', 2, { step_id: 's', title: 'S' }),
      ev('token.usage', 3, { step_id: 's', tokens: 5 }),
      ev('tool.called', 4, { step_id: 'nowhere', tool: 't' }),
    ]);
    assert.deepStrictEqual(rowsOf(state), [
      'approval.requested#1',
      'step.started#2',
      '  token.usage#3',
      'tool.called#4',
    ]);
    assert.strictEqual(state.visible[0].kind, 'unknown');
    assert.deepStrictEqual(kindsSeen(state).sort(), [
      'approval.requested',
      'step.started',
      'token.usage',
      'tool.called',
    ]);
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
    assert.deepStrictEqual(
      sequences,
      all.map((e) => e.data.sequence),
    );
  });

  it('reports no change for a batch of repeats', () => {
    const state = initialState(RUN);
    applyEvents(state, [ev('step.started', 1, { step_id: 'a', title: 'A' })]);
    assert.strictEqual(applyEvents(state, [ev('step.started', 1, { step_id: 'a', title: 'A' })]).rows, false);
  });

  it('rebuilds from a compacted snapshot as a window with a way up, and continues without duplicates', () => {
    const all = recordedRun({ steps: 50, toolsPerStep: 2 });
    const model = new RunModel(RUN, { recent: 20, steps: 1000 });
    model.apply(all.slice(0, 200));
    const state = initialState(RUN);
    reset(state, model);
    // The window is contiguous: the summarised part is paged in from the host on the way up.
    assert.strictEqual(state.window.hasBefore, true);
    assert.deepStrictEqual(
      state.rows.map((r) => r.sequence),
      all.slice(180, 200).map((e) => e.data.sequence),
    );
    applyEvents(state, all.slice(150));
    const seqs = state.rows.map((r) => r.sequence);
    assert.strictEqual(new Set(seqs).size, seqs.length, 'no sequence twice');
    assert.strictEqual(state.model.lastSequence, all.length);
    assert.strictEqual(state.model.totalEvents, all.length);
    assert.ok(seqs.includes(201) && seqs.includes(all.length));
  });

  it('filters by kind, tool, step and status combined (logQuery.ts), and keeps filtering rows that arrive later', () => {
    const state = initialState(RUN);
    applyEvents(state, recordedRun({ steps: 2, toolsPerStep: 2, terminal: null }));
    setFilter(state, { ...NO_FILTER, kind: 'tool.called' });
    assert.ok(state.visible.length === 4 && state.visible.every((r) => r.event === 'tool.called'));
    setFilter(state, { ...NO_FILTER, kind: 'tool.called', tool: 'read_file', stepId: 'step_2' });
    assert.deepStrictEqual(
      state.visible.map((r) => r.sequence),
      [11],
    );
    applyEvents(state, [
      ev('tool.called', 100, { step_id: 'step_2', tool: 'read_file' }),
      ev('tool.called', 101, { step_id: 'step_2', tool: 'other' }),
    ]);
    assert.deepStrictEqual(
      state.visible.map((r) => r.sequence),
      [11, 100],
    );
    setFilter(state, { ...NO_FILTER, status: 'problems' });
    assert.strictEqual(state.visible.length, 0);
    applyEvents(state, [
      ev('tool.called', 102, { step_id: 'step_2', tool: 'x', status: 'failed' }),
      ev('run.failed', 103, { status: 'failed' }),
    ]);
    assert.deepStrictEqual(
      state.visible.map((r) => r.sequence),
      [102, 103],
    );
    setFilter(state, NO_FILTER);
    assert.strictEqual(state.visible, state.rows);
    assert.strictEqual(state.rows.length, 13 + 4);
  });

  it('pages: before goes on top, after at the bottom, the window stays bounded and away from the end only counts', () => {
    const state = initialState(RUN);
    const all = recordedRun({ steps: 1000, toolsPerStep: 4 });
    const model = new RunModel(RUN);
    model.apply(all.slice(0, 9000));
    reset(state, model);
    assert.strictEqual(state.window.hasBefore, true);
    const first = state.rows[0].sequence;
    const page = (from: number, to: number) => all.filter((e) => e.data.sequence >= from && e.data.sequence < to);
    // Up: pages of 250 before the first row, until the bound drops the live end.
    let top = first;
    for (let i = 0; i < 10; i++) {
      const { addedTop } = applyPage(state, 'before', { events: page(top - 250, top), before: true, after: false });
      assert.strictEqual(addedTop, 250);
      top -= 250;
      assert.ok(state.rows.length <= MAX_WINDOW_ROWS);
    }
    assert.strictEqual(state.window.hasAfter, true, 'the live end was dropped');
    const lastRow = state.rows[state.rows.length - 1].sequence;
    applyEvents(state, all.slice(9000, 9010));
    assert.strictEqual(
      state.rows[state.rows.length - 1].sequence,
      lastRow,
      'away from the end, live events are not appended',
    );
    assert.strictEqual(state.window.newAway, 10);
    // Down again to the end of the host's log: the window follows the stream again.
    let bottom = lastRow;
    while (bottom < 9010) {
      const events = page(bottom + 1, Math.min(bottom + 251, 9011));
      const last = events[events.length - 1]?.data.sequence ?? bottom;
      applyPage(state, 'after', { events, before: true, after: last < 9010 });
      bottom = last;
      assert.ok(state.rows.length <= MAX_WINDOW_ROWS);
    }
    assert.strictEqual(state.window.hasAfter, false);
    applyEvents(state, all.slice(9010, 9011));
    assert.strictEqual(state.rows[state.rows.length - 1].sequence, 9011);
    const seqs = state.rows.map((r) => r.sequence);
    assert.strictEqual(new Set(seqs).size, seqs.length, 'no sequence twice');
  });

  it('takes header facts and artifacts from their messages', () => {
    const state = initialState(RUN);
    reduce(state, { type: 'info', info: { runId: RUN, objective: 'Summarise', status: 'running' } });
    reduce(state, {
      type: 'connection',
      connection: { state: 'reconnecting', attempt: 2, delayMs: 3000, reason: 'reset' },
    });
    const change = reduce(state, {
      type: 'artifacts',
      artifacts: { state: 'loaded', truncated: false, artifacts: [{ id: 'art_1', name: 'report.md' }] },
    });
    assert.strictEqual(change.artifacts, true);
    assert.strictEqual(state.info.objective, 'Summarise');
    assert.strictEqual(state.connection.state, 'reconnecting');
  });

  it('stays fast and bounded in its model over 100,000 events', () => {
    const state = initialState(RUN);
    const all = recordedRun({ steps: 10_000, toolsPerStep: 4 });
    for (let i = 0; i < all.length; i += 1000) {
      applyEvents(state, all.slice(i, i + 1000));
    }
    assert.ok(state.rows.length <= MAX_WINDOW_ROWS, `${state.rows.length} rows held`);
    assert.strictEqual(state.rows[state.rows.length - 1].sequence, all.length);
    const snap = state.model.snapshot();
    assert.ok(snap.recent.length <= 1000 && snap.steps.length <= 5000);
    assert.strictEqual(snap.eventsOmitted + snap.recent.length, all.length);
  });
});

describe('kind filter past the kind cap', () => {
  it('offers the counted kinds and one "other kinds" choice that shows the rest', () => {
    const state = initialState('run_k');
    const events = [ev('plan.created', 1, { steps: 0 })];
    for (let i = 0; i < 200; i++) {
      events.push(ev(`custom.${i}`, events.length + 1));
    }
    applyEvents(state, events);
    const kinds = kindsSeen(state);
    assert.strictEqual(kinds.length, 1 + 64 + 1);
    assert.strictEqual(kinds[kinds.length - 1], OTHER_KINDS);
    setFilter(state, { ...NO_FILTER, kind: OTHER_KINDS });
    assert.deepStrictEqual(
      state.visible.map((r) => r.event),
      events.slice(1 + 64).map((e) => e.event),
    );
  });
});

describe('paging back under a filter', () => {
  /** The host's `before` page (src/runLog/logPages.ts): the last `limit` events before a sequence. */
  function hostBefore(
    all: WireEvent[],
    sequence: number,
    limit: number,
  ): { events: WireEvent[]; before: boolean; after: boolean } {
    const earlier = all.filter((e) => e.data.sequence < sequence);
    const events = earlier.slice(Math.max(0, earlier.length - limit));
    return { events, before: earlier.length > events.length, after: all.some((e) => e.data.sequence >= sequence) };
  }

  it('keeps paging back through pages holding none of the "other kinds" until the log says nothing is earlier', () => {
    const state = initialState('run_o');
    // Kinds past the model's cap first, then far more than one page of the spec's kinds.
    const all = [ev('plan.created', 1, { steps: 0 })];
    for (let i = 0; i < 200; i++) {
      all.push(ev(`custom.${i}`, all.length + 1));
    }
    for (let i = 0; i < 1500; i++) {
      all.push(ev('tool.called', all.length + 1, { tool: 'search' }));
    }
    const model = new RunModel('run_o');
    model.apply(all);
    reset(state, model);
    setFilter(state, { ...NO_FILTER, kind: OTHER_KINDS });
    assert.strictEqual(state.visible.length, 0, 'the kept recent events hold no other kinds');
    assert.strictEqual(state.window.hasBefore, true);
    // OTHER_KINDS has no host form: the host answers unfiltered pages and the reducer filters them.
    for (let i = 0; i < 50 && state.window.hasBefore; i++) {
      applyPage(state, 'before', hostBefore(all, firstSequence(state), 250));
    }
    assert.strictEqual(state.window.hasBefore, false, 'the log was paged back to its start');
    assert.deepStrictEqual(
      state.visible.map((r) => r.event),
      all.filter((e) => e.event.startsWith('custom.') && !state.model.kindCounts().has(e.event)).map((e) => e.event),
    );
  });
});
