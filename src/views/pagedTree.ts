// One tree of a server resource listed page by page ("Load more…") on a PagedList, so it keeps
// the bounded pager's caps; it shows on the view's message line what a service without the
// resource does not offer (404/405), a failure, the owner's note (empty, filtered) and a cut list,
// instead of failing. Memory, Tools, Connectors and Webhooks are each one of these;
// `registerPagedTree` gives one its view and its Refresh and Load More commands.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { Page, PageParams } from '../api/types';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { describeErrorForUser } from '../commandSupport/errorText';
import type { CommandId } from '../common/ids';
import { inert } from '../common/inertText';
import type { Translate } from '../common/translate';
import { PagedList } from './pagedList';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

/** Child rows one record shows at most (a connector's grants). */
const MAX_CHILDREN = 500;

export type PagedNode<T, C = never> =
  { kind: 'record'; record: T } | { kind: 'child'; parent: T; child: C } | { kind: 'more' };

export interface PagedTreeSpec<T extends { id: string }, C> {
  /** What the service does not offer, for the message ("tools", "memory"...). */
  what: string;
  /** The list endpoint, for the message and the log ("GET /v1/tools"). */
  endpoint: string;
  viewId: string;
  refreshCommand: CommandId;
  loadMoreCommand: CommandId;
  fetchPage(params: PageParams, signal: AbortSignal): Promise<Page<T>>;
  item(record: T): vscode.TreeItem;
  children?(record: T): C[];
  childItem?(parent: T, child: C): vscode.TreeItem;
  /** The message line after a page arrived, given how many records are shown (empty, filtered). */
  note(shown: number): string | undefined;
  /**
   * Whether a record belongs in the list as it is filtered now (the Memory view's tag/project);
   * `upsert` shows only those. Absent: every record does.
   */
  matches?(record: T): boolean;
  isSignedIn(): boolean;
  pageSize(): number;
  log: vscode.LogOutputChannel;
  onAuthError(err: unknown): void;
}

export class PagedTree<T extends { id: string }, C = never>
  implements vscode.TreeDataProvider<PagedNode<T, C>>, vscode.Disposable
{
  private generation = 0;
  private list: PagedList<T>;
  private readonly changed = new vscode.EventEmitter<PagedNode<T, C> | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Set by the owner once the TreeView exists (its message line). */
  view: vscode.TreeView<PagedNode<T, C>> | undefined;

  constructor(readonly spec: PagedTreeSpec<T, C>) {
    this.list = this.newList();
  }

  dispose(): void {
    this.list.dispose();
    this.changed.dispose();
  }

  /** The records shown now. */
  get entries(): readonly T[] {
    return this.list.items;
  }

  refresh(): void {
    this.list.dispose();
    this.generation++;
    this.list = this.newList();
    this.changed.fire(undefined);
  }

  /**
   * Puts a changed record in place, or a new one first, without a reload; only one that matches
   * the list's filter (spec.matches): one that does not is taken out if shown, else left unshown.
   */
  upsert(record: T): void {
    if (this.spec.matches && !this.spec.matches(record)) {
      if (this.list.remove(record.id)) {
        this.changed.fire(undefined);
      }
      return;
    }
    if (!this.list.replace(record) && this.list.started) {
      this.list.prepend(record);
    }
    this.changed.fire(undefined);
  }

  remove(id: string): void {
    this.list.remove(id);
    this.changed.fire(undefined);
  }

  async getChildren(node?: PagedNode<T, C>): Promise<PagedNode<T, C>[]> {
    if (node?.kind === 'record') {
      return (this.spec.children?.(node.record) ?? [])
        .slice(0, MAX_CHILDREN)
        .map((child) => ({ kind: 'child', parent: node.record, child }));
    }
    if (node) {
      return [];
    }
    if (!this.spec.isSignedIn()) {
      this.setMessage(undefined);
      return [];
    }
    const list = this.list;
    if (!list.started) {
      await this.load(list);
    }
    const rows: PagedNode<T, C>[] = list.items.map((record) => ({ kind: 'record', record }));
    // After a failure the message says so; Refresh starts again.
    if (list.hasMore && list.error === undefined) {
      rows.push({ kind: 'more' });
    }
    return rows;
  }

  getTreeItem(node: PagedNode<T, C>): vscode.TreeItem {
    if (node.kind === 'more') {
      const item = new vscode.TreeItem(t('Load more…'));
      item.command = { command: this.spec.loadMoreCommand, title: t('Load more…') };
      return item;
    }
    if (node.kind === 'child') {
      return this.spec.childItem ? this.spec.childItem(node.parent, node.child) : new vscode.TreeItem('');
    }
    return this.spec.item(node.record);
  }

  /** The next page after what is shown (nothing once the list ended or a cap cut it). */
  async loadMore(): Promise<void> {
    const list = this.list;
    if (!list.hasMore || list.error !== undefined) {
      return;
    }
    await this.load(list);
    this.changed.fire(undefined);
  }

  private newList(): PagedList<T> {
    return new PagedList<T>({ parentKey: this.spec.viewId, generation: this.generation, key: (r) => r.id });
  }

  private async load(list: PagedList<T>): Promise<void> {
    await list.loadNext((params, signal) => this.spec.fetchPage(params, signal), this.spec.pageSize());
    if (list !== this.list) {
      return; // refreshed meanwhile: the new list draws itself
    }
    const err = list.error;
    if (err === undefined) {
      const cut = list.cut ? t('Showing the first {0}; the service lists more.', list.items.length) : undefined;
      const parts = [this.spec.note(list.items.length), cut].filter((p): p is string => p !== undefined);
      this.setMessage(parts.length > 0 ? parts.join(' ') : undefined);
      return;
    }
    if (isApiError(err, 'not_supported')) {
      this.setMessage(
        t(
          'This service does not offer {0} (it answered {1} to {2}). The rest of Agent Runtime works as usual.',
          this.spec.what,
          err.status ?? '404',
          this.spec.endpoint,
        ),
      );
      return;
    }
    if (isApiError(err, 'authentication')) {
      this.spec.onAuthError(err);
    }
    this.spec.log.warn(`${this.spec.endpoint}: ${describeErrorForUser(err)}`);
    this.setMessage(t('Could not load {0}: {1}', this.spec.what, describeErrorForUser(err)));
  }

  private setMessage(message: string | undefined): void {
    if (this.view) {
      this.view.message = message === undefined ? undefined : inert(message, 400);
    }
  }
}

/** What every paged tree takes from the command deps: signed in, page size, log, a 401. */
export type PagedTreeDeps = Pick<
  PagedTreeSpec<{ id: string }, never>,
  'isSignedIn' | 'pageSize' | 'log' | 'onAuthError'
>;

export function pagedTreeDeps(deps: CommandDeps, onAuthError: (err: unknown) => void): PagedTreeDeps {
  return {
    isSignedIn: () => deps.service.isSignedIn,
    pageSize: () => deps.settings().pageSize,
    log: deps.log,
    onAuthError,
  };
}

/**
 * The tree's view and its commands: Refresh, Load More (guarded), a fresh list when the service
 * changes. Returns what to dispose, the tree and its view included.
 */
export function registerPagedTree<T extends { id: string }, C>(
  tree: PagedTree<T, C>,
  deps: Pick<CommandDeps, 'guard' | 'service'>,
): vscode.Disposable[] {
  const spec = tree.spec;
  const view = vscode.window.createTreeView(spec.viewId, { treeDataProvider: tree });
  tree.view = view;
  return [
    tree,
    view,
    vscode.commands.registerCommand(spec.refreshCommand, () => tree.refresh()),
    vscode.commands.registerCommand(
      spec.loadMoreCommand,
      deps.guard(`Load more (${spec.endpoint})`, () => tree.loadMore()),
    ),
    deps.service.onDidChange(() => tree.refresh()),
  ];
}
