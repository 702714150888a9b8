// Which rows are selected in the Files and Tasks views now (TreeView.selection): what a command
// acts on when it was invoked without a row (the Command Palette, a keybinding).
import type * as vscode from 'vscode';
import type { SelectionView } from '../commandSupport/commandDeps';

/** What SidebarSelection reads of a tree view (a vscode.TreeView is one). */
export interface SelectableView<T> {
  readonly selection: readonly T[];
  readonly onDidChangeSelection: vscode.Event<vscode.TreeViewSelectionChangeEvent<T>>;
}

export class SidebarSelection<T> implements vscode.Disposable {
  /** The view the user last selected rows in. */
  private last: 'files' | 'tasks' = 'files';
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly views: Record<'files' | 'tasks', SelectableView<T>>) {
    this.subscriptions = (['files', 'tasks'] as const).map((view) =>
      views[view].onDidChangeSelection((e) => {
        if (e.selection.length > 0) {
          this.last = view;
        }
      }),
    );
  }

  current(view: SelectionView): readonly T[] {
    if (view !== 'any') {
      return this.views[view].selection;
    }
    const other = this.last === 'files' ? 'tasks' : 'files';
    const last = this.views[this.last].selection;
    return last.length > 0 ? last : this.views[other].selection;
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) {
      s.dispose();
    }
  }
}
