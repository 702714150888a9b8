// The Files view: the workspace's files, a page at a time. When the server cannot list files
// (ApiError 'not_supported'), it shows the files uploaded from this machine instead, each
// refreshed through GET /v1/files/{id} and forgotten when the server no longer has it.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import type { FileRecord, Page, PageParams } from '../api/types';
import { DisposableStore } from '../common/disposableStore';
import { ViewIds } from '../common/ids';
import { mapLimited } from '../common/mapLimited';
import { setContextCommand } from '../common/setContext';
import { SidebarContextKeys } from './contextKeys';
import { isUnreachable, listRows, withViewProgress } from './listRows';
import { FileNode, type LoadMoreNode, type TreeNode } from './nodes';
import { mapPage, PagedList, type PageFetcher, pageOfIds } from './pagedList';
import type { ViewApiClient, ViewDeps } from './viewDeps';

/** How many GET /v1/files/{id} the local fallback sends at once. */
const LOCAL_REFRESH_CONCURRENCY = 4;

export class FilesTreeProvider extends DisposableStore implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = this.own(new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  private generation = 0;
  private root: PagedList<FileNode> | undefined;
  /** Set once listFiles answered 'not_supported' in this listing: the ids of the local index. */
  private localIds: readonly string[] | undefined;
  private treeView: vscode.TreeView<TreeNode> | undefined;

  constructor(
    private readonly deps: ViewDeps,
    private readonly contextKeys: SidebarContextKeys = new SidebarContextKeys(setContextCommand),
  ) {
    super();
  }

  /** True while the view shows the locally remembered files (the server has no file list). */
  get showingLocalFiles(): boolean {
    return this.localIds !== undefined;
  }

  /** Lets the provider write the view's message line (the local-files notice). */
  attach(treeView: vscode.TreeView<TreeNode>): void {
    this.treeView = treeView;
    this.updateMessage();
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (node !== undefined) {
      return [];
    }
    await this.deps.ready;
    if (!this.deps.isSignedIn()) {
      this.reset();
      this.contextKeys.clear('files');
      return [];
    }
    const root = this.ensureRoot();
    if (!root.started) {
      await this.load(root);
    }
    if (root !== this.root) {
      return this.getChildren();
    } // refreshed meanwhile: answer for the new listing
    const unreachable = root.items.length === 0 && isUnreachable(root.error);
    this.contextKeys.report('files', { unreachable, empty: root.isEmpty });
    // With nothing to show and no server, the "unreachable" welcome view says it better.
    if (unreachable) {
      return [];
    }
    this.deps.onFirstRows?.('files', root.items.length);
    return listRows(root, { view: 'files' });
  }

  /** Fetches the next page (or retries the failed one) of the row's level and shows it. */
  async loadMore(node: LoadMoreNode): Promise<void> {
    const root = this.root;
    if (!root || node.generation !== root.generation || node.view !== 'files') {
      return;
    }
    await this.load(root);
    this.changed.fire(undefined);
  }

  /** Forgets every page: the next look at the view starts from the first one. */
  refresh(): void {
    this.contextKeys.forgetUnreachable('files');
    this.reset();
    this.changed.fire(undefined);
  }

  /** Re-reads one file (its row's "Refresh"); a file the server no longer has leaves the view. */
  async refreshNode(node: TreeNode): Promise<void> {
    if (!(node instanceof FileNode)) {
      return this.refresh();
    }
    try {
      const file = await withViewProgress(ViewIds.files, () => this.deps.getClient().getFile(node.entityId));
      if (node.update(file)) {
        this.changed.fire(node);
      }
    } catch (err) {
      if (!isApiError(err, 'not_found')) {
        this.reportError(err);
        throw err;
      }
      if (this.localIds !== undefined) {
        await this.deps.localFiles.remove(node.entityId);
      }
      this.removeFile(node.entityId);
    }
  }

  /** Takes a deleted file off the view without reloading the pages already shown. */
  removeFile(fileId: string): void {
    if (this.root?.remove(fileId)) {
      this.contextKeys.report('files', { unreachable: false, empty: this.root.isEmpty });
      this.changed.fire(undefined);
    }
  }

  override dispose(): void {
    this.root?.dispose();
    super.dispose();
  }

  private reset(): void {
    if (!this.root && this.localIds === undefined) {
      return;
    }
    this.root?.dispose();
    this.root = undefined;
    this.localIds = undefined;
    this.generation++;
    this.updateMessage();
  }

  private ensureRoot(): PagedList<FileNode> {
    this.root ??= new PagedList<FileNode>({
      parentKey: 'files',
      generation: this.generation,
      key: (n) => n.entityId,
      merge: (shown, incoming) => void shown.update(incoming.file),
    });
    return this.root;
  }

  private async load(list: PagedList<FileNode>): Promise<void> {
    await withViewProgress(ViewIds.files, () => list.loadNext(this.fetchFiles, this.deps.pageSize()));
    if (list.error !== undefined) {
      this.reportError(list.error);
    }
  }

  private readonly fetchFiles: PageFetcher<FileNode> = async (params, signal) => {
    const client = this.deps.getClient();
    if (this.localIds === undefined) {
      try {
        return mapPage(await client.listFiles(params, { signal }), (file) => new FileNode(file));
      } catch (err) {
        if (!isApiError(err, 'not_supported')) {
          throw err;
        }
        this.deps.log.info('Files: the server has no file list; showing the files uploaded from this machine.');
        this.localIds = [...this.deps.localFiles.list()];
        this.updateMessage();
        params = { limit: params.limit };
      }
    }
    return this.fetchLocalPage(client, this.localIds, params, signal);
  };

  private async fetchLocalPage(
    client: ViewApiClient,
    ids: readonly string[],
    params: PageParams,
    signal: AbortSignal,
  ): Promise<Page<FileNode>> {
    const page = pageOfIds(ids, params);
    const records = await mapLimited(
      page.data,
      LOCAL_REFRESH_CONCURRENCY,
      async (id): Promise<FileRecord | undefined> => {
        try {
          return await client.getFile(id, { signal });
        } catch (err) {
          if (!isApiError(err, 'not_found')) {
            throw err;
          }
          this.deps.log.info(`Files: ${id} is gone from the server; forgetting it.`);
          await this.deps.localFiles.remove(id);
          return undefined;
        }
      },
    );
    const data = records.filter((r): r is FileRecord => r !== undefined).map((file) => new FileNode(file));
    return { ...page, data };
  }

  private reportError(err: unknown): void {
    this.deps.log.warn(`Files: ${describeError(err)}`);
    if (isApiError(err, 'authentication')) {
      this.deps.onAuthError(err);
    }
  }

  private updateMessage(): void {
    if (!this.treeView) {
      return;
    }
    this.treeView.message =
      this.localIds !== undefined
        ? vscode.l10n.t('This server cannot list files: showing the files uploaded from this machine.')
        : undefined;
  }
}
