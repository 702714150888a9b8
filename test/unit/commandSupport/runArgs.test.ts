// resolveRun: the one rule for which run a command acts on.
import '../views/vscodeStub';
import * as assert from 'node:assert/strict';
import { resolveRun } from '../../../src/commandSupport/runArgs';

const runRow = (id: string) => ({ run: { id, status: 'running' } });
const taskRow = { task: { id: 'task_1', objective: 'x' } };

describe('commandSupport/runArgs: resolveRun', () => {
  it('takes what it was given: an id, { runId, ... } with the rest kept, a run row', () => {
    assert.deepEqual(resolveRun('run_1'), { runId: 'run_1', given: {}, via: 'argument' });
    assert.deepEqual(resolveRun({ runId: 'run_2', sequence: 4 }), {
      runId: 'run_2',
      given: { runId: 'run_2', sequence: 4 },
      via: 'argument',
    });
    assert.deepEqual(resolveRun(runRow('run_3')), { runId: 'run_3', given: {}, via: 'argument' });
  });

  it('refuses a given value that names no valid run, rather than acting on another run', () => {
    const context = { selection: [runRow('run_sel')], activePanel: () => 'run_panel' };
    for (const bad of ['', 'task_1', 'run_/../x', { runId: 'run_a/b' }, { runId: 7 }, taskRow, 42, null]) {
      assert.equal(resolveRun(bad, context), undefined, JSON.stringify(bad));
    }
  });

  it('without an argument: the first run row selected, then the active run panel', () => {
    assert.deepEqual(resolveRun(undefined, { selection: [taskRow, runRow('run_sel')], activePanel: () => undefined }), {
      runId: 'run_sel',
      given: {},
      via: 'selection',
    });
    assert.deepEqual(resolveRun(undefined, { selection: [runRow('run_same')], activePanel: () => 'run_same' }), {
      runId: 'run_same',
      given: {},
      via: 'selection',
    });
    assert.deepEqual(resolveRun(undefined, { selection: [taskRow], activePanel: () => 'run_panel' }), {
      runId: 'run_panel',
      given: {},
      via: 'panel',
    });
    assert.equal(resolveRun(undefined, { selection: [], activePanel: () => undefined }), undefined);
    assert.equal(resolveRun(undefined, { activePanel: () => 'not a run' }), undefined);
    assert.equal(resolveRun(undefined), undefined);
  });

  it('acts on neither when the selected row and the run panel name different runs, and says both', () => {
    assert.throws(
      () => resolveRun(undefined, { selection: [runRow('run_sel')], activePanel: () => 'run_panel' }),
      (err: Error) => /run_sel/.test(err.message) && /run_panel/.test(err.message),
    );
  });
});
