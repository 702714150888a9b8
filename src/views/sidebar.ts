// The sidebar as one object for the composition root: both providers, the filters over their top
// levels, their tree views (with drag-and-drop upload and multi-select), the shared context keys,
// disposed together.
import * as vscode from 'vscode';
import { DisposableStore } from '../common/disposableStore';
import { ContextKeys, ViewIds } from '../common/ids';
import { inert } from '../common/inertText';
import { setContextCommand } from '../common/setContext';
import { SidebarContextKeys } from './contextKeys';
import { FilesTreeProvider } from './filesProvider';
import { fileFilterFields, taskFilterFields } from './filterQuery';
import { FileNode, LoadMoreNode, TaskNode, type TreeNode } from './nodes';
import { SidebarSelection } from './sidebarSelection';
import { TasksTreeProvider } from './tasksProvider';
import { UploadDropController } from './uploadDropController';
import type { SidebarDeps } from './viewDeps';
import { ViewFilter } from './viewFilter';

export class Sidebar extends DisposableStore {
  readonly files: FilesTreeProvider;
  readonly tasks: TasksTreeProvider;
  /** The filters over the views' top levels; the tree views draw through them. */
  readonly filesFilter: ViewFilter;
  readonly tasksFilter: ViewFilter;
  readonly filesView: vscode.TreeView<TreeNode>;
  readonly tasksView: vscode.TreeView<TreeNode>;
  /** The rows selected in the views now: what a command invoked without a row acts on. */
  readonly selection: SidebarSelection<TreeNode>;

  private readonly reachability = this.own(new vscode.EventEmitter<boolean>());
  /** Fires true/false when the views find the service reachable or not. */
  readonly onDidChangeReachability = this.reachability.event;

  constructor(deps: SidebarDeps) {
    super();
    // Context keys also tell the status bar whether the service can be reached.
    const contextKeys = new SidebarContextKeys((key, value) => {
      setContextCommand(key, value);
      if (key === ContextKeys.unreachable) {
        this.reachability.fire(!value);
      }
    });
    this.files = this.own(new FilesTreeProvider(deps, contextKeys));
    this.tasks = this.own(new TasksTreeProvider(deps, deps.runs, { contextKeys }));
    const filter = { state: deps.workspaceState, setContext: setContextCommand, pageSize: deps.pageSize };
    this.filesFilter = this.own(
      new ViewFilter(this.files, {
        ...filter,
        view: 'files',
        contextKey: ContextKeys.filesFiltered,
        fields: (node) => (node instanceof FileNode ? fileFilterFields(node.file) : []),
      }),
    );
    this.tasksFilter = this.own(
      new ViewFilter(this.tasks, {
        ...filter,
        view: 'tasks',
        contextKey: ContextKeys.tasksFiltered,
        fields: (node) => (node instanceof TaskNode ? taskFilterFields(node.task, vscode.l10n.t) : []),
      }),
    );
    const drop = new UploadDropController((uris) => deps.uploadUris(uris), deps.log);
    this.filesView = this.own(
      vscode.window.createTreeView(ViewIds.files, {
        treeDataProvider: this.filesFilter,
        dragAndDropController: drop,
        canSelectMany: true,
      }),
    );
    this.tasksView = this.own(
      vscode.window.createTreeView(ViewIds.tasks, {
        treeDataProvider: this.tasksFilter,
        dragAndDropController: drop,
        canSelectMany: true,
        showCollapseAll: true,
      }),
    );
    this.selection = this.own(new SidebarSelection({ files: this.filesView, tasks: this.tasksView }));
    this.files.attach(this.filesView);
    this.tasks.attach(this.tasksView);
    this.filesFilter.attach(this.filesView);
    this.tasksFilter.attach(this.tasksView);
    this.own(
      this.tasks.onDidChangeProjectScope((scope) =>
        this.tasksFilter.setScope(scope ? vscode.l10n.t('Project: {0}', inert(scope.label, 60)) : undefined),
      ),
    );
  }

  /** Both views start over from their first page (sign-in, sign-out, settings changed). */
  refresh(): void {
    this.files.refresh();
    this.tasks.refresh();
  }

  /** A row's "Refresh": re-reads that row (and forgets its loaded children) in its own view. */
  refreshNode(node: TreeNode): Promise<void> {
    const inFiles = node instanceof FileNode || (node instanceof LoadMoreNode && node.view === 'files');
    return inFiles ? this.files.refreshNode(node) : this.tasks.refreshNode(node);
  }

  /** The `agentRuntime.loadMore` command's handler: the row knows its view. */
  loadMore(node: LoadMoreNode): Promise<void> {
    return node.view === 'files' ? this.filesFilter.loadMore(node) : this.tasksFilter.loadMore(node);
  }
}
