// The sidebar as one object for the composition root: both providers, their tree views (with
// drag-and-drop upload and multi-select), the shared context keys, disposed together.
import * as vscode from 'vscode';
import { SidebarContextKeys } from './contextKeys';
import { DisposableStore } from './disposableStore';
import { FilesTreeProvider } from './filesProvider';
import { FILES_VIEW_ID, TASKS_VIEW_ID, type LoadMoreNode, type TreeNode } from './nodes';
import { setContextCommand } from './setContext';
import { TasksTreeProvider } from './tasksProvider';
import { UploadDropController } from './uploadDropController';
import type { SidebarDeps } from './viewDeps';

export class Sidebar extends DisposableStore {
  readonly files: FilesTreeProvider;
  readonly tasks: TasksTreeProvider;
  readonly filesView: vscode.TreeView<TreeNode>;
  readonly tasksView: vscode.TreeView<TreeNode>;

  constructor(deps: SidebarDeps) {
    super();
    const contextKeys = new SidebarContextKeys(setContextCommand);
    this.files = this.own(new FilesTreeProvider(deps, contextKeys));
    this.tasks = this.own(new TasksTreeProvider(deps, { contextKeys }));
    const drop = new UploadDropController((uris) => deps.uploadUris(uris), deps.log);
    this.filesView = this.own(
      vscode.window.createTreeView(FILES_VIEW_ID, { treeDataProvider: this.files, dragAndDropController: drop, canSelectMany: true }),
    );
    this.tasksView = this.own(
      vscode.window.createTreeView(TASKS_VIEW_ID, { treeDataProvider: this.tasks, dragAndDropController: drop, canSelectMany: true, showCollapseAll: true }),
    );
    this.files.attach(this.filesView);
    this.tasks.attach(this.tasksView);
  }

  /** Both views start over from their first page (sign-in, sign-out, settings changed). */
  refresh(): void {
    this.files.refresh();
    this.tasks.refresh();
  }

  /** The `agentRuntime.loadMore` command's handler: the row knows its view. */
  loadMore(node: LoadMoreNode): Promise<void> {
    return node.view === 'files' ? this.files.loadMore(node) : this.tasks.loadMore(node);
  }
}
