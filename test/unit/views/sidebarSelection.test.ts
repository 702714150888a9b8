// Which view's selection a command without a row acts on: its own view's, or for a command of
// both views (Copy ID) the view the user last selected rows in.
import './vscodeStub';
import * as assert from 'node:assert';
import type * as vscode from 'vscode';
import { type SelectableView, SidebarSelection } from '../../../src/views/sidebarSelection';
import { EventEmitter } from './vscodeStub';

class FakeView implements SelectableView<string> {
  selection: readonly string[] = [];
  private readonly changed = new EventEmitter<vscode.TreeViewSelectionChangeEvent<string>>();
  readonly onDidChangeSelection = this.changed.event as unknown as vscode.Event<
    vscode.TreeViewSelectionChangeEvent<string>
  >;
  select(...rows: string[]): void {
    this.selection = rows;
    this.changed.fire({ selection: rows });
  }
}

describe('SidebarSelection', () => {
  let files: FakeView;
  let tasks: FakeView;
  let selection: SidebarSelection<string>;
  beforeEach(() => {
    files = new FakeView();
    tasks = new FakeView();
    selection = new SidebarSelection({ files, tasks });
  });
  afterEach(() => selection.dispose());

  it("gives a view's own selection as it is now", () => {
    files.select('file_1', 'file_2');
    tasks.select('run_1');
    assert.deepStrictEqual(selection.current('files'), ['file_1', 'file_2']);
    assert.deepStrictEqual(selection.current('tasks'), ['run_1']);
    files.select();
    assert.deepStrictEqual(selection.current('files'), []);
  });

  it('for either view, gives the one the user last selected rows in', () => {
    files.select('file_1');
    tasks.select('task_1');
    assert.deepStrictEqual(selection.current('any'), ['task_1']);
    files.select('file_2');
    assert.deepStrictEqual(selection.current('any'), ['file_2']);
  });

  it('for either view, falls back to the other when the last one has nothing selected now', () => {
    tasks.select('task_1');
    files.select('file_1');
    files.select();
    assert.deepStrictEqual(selection.current('any'), ['task_1']);
    tasks.select();
    assert.deepStrictEqual(selection.current('any'), []);
  });
});
