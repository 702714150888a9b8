// A filter over a view's top level (tasks, files), across pages. It sits between the provider and
// the TreeView: rows below the top level, refresh, reveal and the provider's own paging stay as
// they are. While fewer than a page of rows match, it asks the provider for further pages, at
// most MAX_PAGES_PER_ROUND per search, so an endless (or hostile) listing never keeps it loading;
// then its "Load more" row says how many rows were searched. The query survives a reload.
import * as vscode from 'vscode';
import { DisposableStore } from '../common/disposableStore';
import { Commands } from '../common/ids';
import type { SetContext } from '../common/setContext';
import { echo } from '../links/linkText';
import { matchesFilter, normalizeFilter } from './filterQuery';
import { type EntityNode, isEntityNode, LoadMoreNode, MessageNode, type SidebarView, type TreeNode } from './nodes';

/** Pages one search loads at most before it waits for the user's "Load more". */
export const MAX_PAGES_PER_ROUND = 10;

/** What the filter needs of a provider (FilesTreeProvider and TasksTreeProvider have it). */
export interface FilterableProvider {
  readonly onDidChangeTreeData: vscode.Event<TreeNode | TreeNode[] | undefined>;
  getChildren(node?: TreeNode): Promise<TreeNode[]>;
  getParent(node: TreeNode): TreeNode | undefined;
  getTreeItem(node: TreeNode): vscode.TreeItem;
  loadMore(node: LoadMoreNode): Promise<void>;
}

export interface ViewFilterOptions {
  view: SidebarView;
  /** Where the query is kept across reloads (the workspace's state). */
  state: Pick<vscode.Memento, 'get' | 'update'>;
  /** The context key that is true while a filter is set (shows "Clear Filter"). */
  contextKey: string;
  setContext: SetContext;
  pageSize(): number;
  /** The texts of a top-level row the query is matched against. */
  fields(node: EntityNode): ReadonlyArray<string | undefined>;
  maxPagesPerRound?: number;
}

/** One search: load until `target` rows match or `pagesLeft` runs out. */
interface Round {
  target: number;
  pagesLeft: number;
  /** The provider's listing it searches; a refresh starts another listing and another round. */
  generation: number | undefined;
}

/** The filtered view's "Load more": searches further pages and says how many rows were searched. */
export class FilterMoreNode extends LoadMoreNode {
  constructor(inner: LoadMoreNode, searched: number) {
    super(`${inner.id}:filter`, inner.view, inner.parent, inner.generation, false);
    const label = vscode.l10n.t('Load more… ({0} searched)', searched);
    this.label = label;
    this.accessibilityInformation = { label, role: 'button' };
    this.command = { command: Commands.loadMore, title: label, arguments: [this] };
  }
}

export class ViewFilter extends DisposableStore implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = this.own(new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  private current: string | undefined;
  private round: Round;
  private filling: Promise<void> | undefined;
  private treeView: vscode.TreeView<TreeNode> | undefined;
  /** What the provider itself narrows the view to ("Project: x"), said first in the description. */
  private scope: string | undefined;
  private lastCounts: { matched: number; loaded: number; more: boolean } | undefined;
  private readonly maxPages: number;
  private readonly stateKey: string;

  constructor(
    private readonly inner: FilterableProvider,
    private readonly options: ViewFilterOptions,
  ) {
    super();
    this.maxPages = Math.max(1, options.maxPagesPerRound ?? MAX_PAGES_PER_ROUND);
    this.stateKey = `agentRuntime.filter.${options.view}`;
    this.current = normalizeFilter(options.state.get<unknown>(this.stateKey));
    this.round = this.freshRound(undefined);
    options.setContext(options.contextKey, this.current !== undefined);
    this.own(inner.onDidChangeTreeData((e) => this.changed.fire(e)));
  }

  /** The query in effect, undefined when the view is not filtered. */
  get query(): string | undefined {
    return this.current;
  }

  /** Writes the view's description ("Filtered: …"). */
  attach(treeView: vscode.TreeView<TreeNode>): void {
    this.treeView = treeView;
    this.describe(undefined);
  }

  /** Says in the description what the provider narrows the view to (made inert by the caller). */
  setScope(text: string | undefined): void {
    this.scope = text;
    this.describe(this.lastCounts);
  }

  /** Sets (or with an empty text, clears) the filter; remembered for the workspace. */
  async setQuery(text: string | undefined): Promise<void> {
    const query = normalizeFilter(text);
    if (query === this.current) {
      return;
    }
    this.current = query;
    this.round = this.freshRound(undefined);
    this.options.setContext(this.options.contextKey, query !== undefined);
    this.describe(undefined);
    this.changed.fire(undefined);
    await this.options.state.update(this.stateKey, query);
  }

  /** True when the filter keeps this top-level row out of the view (a reveal would not find it). */
  hides(node: TreeNode): boolean {
    return (
      this.current !== undefined && isEntityNode(node) && node.parent === undefined && !this.matches(node, this.current)
    );
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return this.inner.getTreeItem(node);
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return this.inner.getParent(node);
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (node !== undefined || this.current === undefined) {
      if (node === undefined) {
        this.describe(undefined);
      }
      return this.inner.getChildren(node);
    }
    await this.search();
    return this.present(await this.inner.getChildren());
  }

  /** The view's "Load more": a filtered search goes on for another page of matches. */
  async loadMore(node: LoadMoreNode): Promise<void> {
    if (!(node instanceof FilterMoreNode) || this.current === undefined) {
      return this.inner.loadMore(node);
    }
    const shown = this.matchedCount(await this.inner.getChildren());
    this.round = { target: shown + this.pageSize(), pagesLeft: this.maxPages, generation: node.generation };
    await this.search();
    this.changed.fire(undefined);
  }

  /** Runs the current round; concurrent callers (the tree asks again on every page) share it. */
  search(): Promise<void> {
    this.filling ??= this.runRound().finally(() => (this.filling = undefined));
    return this.filling;
  }

  private async runRound(): Promise<void> {
    while (this.current !== undefined) {
      const rows = await this.inner.getChildren();
      const more = rows.find((r): r is LoadMoreNode => r instanceof LoadMoreNode);
      const round = this.round;
      if (more && round.generation !== undefined && more.generation !== round.generation) {
        // Refreshed meanwhile: search the new listing from its start.
        this.round = this.freshRound(more.generation);
        continue;
      }
      if (more) {
        round.generation = more.generation;
      }
      if (!more || more.retry || round.pagesLeft <= 0 || this.matchedCount(rows) >= round.target) {
        return;
      }
      round.pagesLeft--;
      await this.inner.loadMore(more);
    }
  }

  private present(rows: TreeNode[]): TreeNode[] {
    const query = this.current;
    if (query === undefined) {
      return rows;
    }
    const entities = rows.filter(isEntityNode);
    const matched = entities.filter((n) => this.matches(n, query));
    const errors = rows.filter((r) => r instanceof MessageNode);
    const more = rows.find((r): r is LoadMoreNode => r instanceof LoadMoreNode);
    this.describe({ matched: matched.length, loaded: entities.length, more: more !== undefined });
    // Signed out or unreachable: the welcome view says it better than a filter row.
    if (rows.length === 0) {
      return [];
    }
    const out: TreeNode[] = [...matched, ...errors];
    if (matched.length === 0 && errors.length === 0) {
      const text = more
        ? vscode.l10n.t('Nothing matches "{0}" among the {1} loaded so far.', echo(query), entities.length)
        : vscode.l10n.t('Nothing matches "{0}".', echo(query));
      out.push(new MessageNode(`message:filter:${this.options.view}:${more?.generation ?? ''}:none`, text));
    }
    if (more) {
      out.push(more.retry ? more : new FilterMoreNode(more, entities.length));
    }
    return out;
  }

  private matches(node: EntityNode, query: string): boolean {
    return matchesFilter(query, this.options.fields(node));
  }

  private matchedCount(rows: readonly TreeNode[]): number {
    const query = this.current;
    if (query === undefined) {
      return 0;
    }
    return rows.filter((r) => isEntityNode(r) && this.matches(r, query)).length;
  }

  private pageSize(): number {
    return Math.max(1, Math.floor(this.options.pageSize()) || 1);
  }

  private freshRound(generation: number | undefined): Round {
    return { target: this.pageSize(), pagesLeft: this.maxPages, generation };
  }

  /** "Filtered: 'abc' · 12 of 340 loaded" while a filter is set; nothing otherwise. */
  private describe(counts: { matched: number; loaded: number; more: boolean } | undefined): void {
    if (!this.treeView) {
      return;
    }
    this.lastCounts = counts;
    const query = this.current;
    const filtered =
      query === undefined
        ? undefined
        : counts === undefined
          ? vscode.l10n.t('Filtered: "{0}"', echo(query))
          : counts.more
            ? vscode.l10n.t('Filtered: "{0}" · {1} of {2} loaded', echo(query), counts.matched, counts.loaded)
            : vscode.l10n.t('Filtered: "{0}" · {1} of {2}', echo(query), counts.matched, counts.loaded);
    const parts = [this.scope, filtered].filter((p): p is string => p !== undefined);
    this.treeView.description = parts.length > 0 ? parts.join(' · ') : undefined;
  }
}
