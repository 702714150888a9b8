// Which rows are selected in the Files and Tasks views now (TreeView.selection): what a command
// acts on when it was invoked without a row (the Command Palette, a keybinding, or a right-click
// whose row handle VS Code dropped while the whole view refreshed).
import type * as vscode from 'vscode';

/** The view a command's rows live in; `any`: the one the user last selected rows in. */
export type SelectionView = 'files' | 'tasks' | 'any';

/** What SidebarSelection reads of a tree view (a vscode.TreeView is one). */
export interface SelectableView<T> {
  readonly selection: readonly T[];
  readonly onDidChangeSelection: vscode.Event<vscode.TreeViewSelectionChangeEvent<T>>;
}

export class SidebarSelection<T> implements vscode.Disposable {
  constructor(private readonly views: Record<'files' | 'tasks', SelectableView<T>>) {}

  current(view: SelectionView): readonly T[] {
    return view === 'any' ? [] : this.views[view].selection.slice(0, 0);
  }

  dispose(): void {}
}
