// The one rule for what a sidebar command acts on: the row(s) it was given, else the view's
// current selection (the palette, a keybinding).
import '../views/vscodeStub';
import * as assert from 'node:assert';
import { fileOf, nodeOf, runOf, selectionOf } from '../../../src/commandSupport/nodeArgs';

const file = (id: string) => ({ file: { id } });
const run = (id: string) => ({ run: { id } });
const task = (id: string) => ({ task: { id } });

describe('selectionOf', () => {
  it("takes the multi-selection, else the clicked row, over the view's selection", () => {
    const current = [file('file_sel')];
    assert.deepStrictEqual(selectionOf(file('file_a'), [file('file_a'), file('file_b')], current), [
      file('file_a'),
      file('file_b'),
    ]);
    assert.deepStrictEqual(selectionOf(file('file_a'), undefined, current), [file('file_a')]);
    assert.deepStrictEqual(selectionOf(file('file_a'), [], current), [file('file_a')]);
  });

  it("given no row, acts on the view's current selection", () => {
    assert.deepStrictEqual(selectionOf(undefined, undefined, [file('file_x'), file('file_y')]), [
      file('file_x'),
      file('file_y'),
    ]);
    assert.deepStrictEqual(selectionOf(undefined, undefined, []), []);
    assert.deepStrictEqual(selectionOf(undefined, undefined), []);
  });
});

describe('nodeOf', () => {
  it('takes what it was given (a row, a run id, { runId }) over the selection', () => {
    const current = [run('run_sel')];
    assert.deepStrictEqual(nodeOf(run('run_a'), current, runOf), run('run_a'));
    assert.strictEqual(nodeOf('run_b', current, runOf), 'run_b');
    assert.deepStrictEqual(nodeOf({ runId: 'run_c' }, current, runOf), { runId: 'run_c' });
  });

  it('given nothing, takes the first selected row of the kind the command needs', () => {
    assert.deepStrictEqual(nodeOf(undefined, [task('task_1'), run('run_2'), run('run_3')], runOf), run('run_2'));
    assert.deepStrictEqual(nodeOf(undefined, [file('file_1')], fileOf), file('file_1'));
  });

  it('given nothing and no row of that kind selected, has nothing (the command says "Choose ... first.")', () => {
    assert.strictEqual(nodeOf(undefined, [task('task_1')], runOf), undefined);
    assert.strictEqual(nodeOf(undefined, [], runOf), undefined);
  });
});
