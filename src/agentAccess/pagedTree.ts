// One tree of a resource listed page by page ("Load more…"), bounded in rows, that shows a message
// naming what a service without the resource does not offer (404/405) instead of failing.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { Page } from '../api/types';
import { describeErrorForUser } from '../commandSupport/errorText';
import { inert } from '../common/inertText';
import type { Translate } from '../common/translate';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

/** Rows one view holds at most. */
export const MAX_ROWS = 2000;

export type PagedNode<T, C = never> =
  { kind: 'record'; record: T } | { kind: 'child'; parent: T; child: C } | { kind: 'more' };

export interface PagedTreeSpec<T extends { id: string }, C> {
  /** What the service does not offer, for the message ("tools", "connectors"...). */
  what: string;
  /** The list endpoint, for the message ("GET /v1/tools"). */
  endpoint: string;
  loadMoreCommand: string;
  fetchPage(after: string | undefined, limit: number): Promise<Page<T>>;
  item(record: T): vscode.TreeItem;
  children?(record: T): C[];
  childItem?(parent: T, child: C): vscode.TreeItem;
  emptyMessage(): string;
  isSignedIn(): boolean;
  pageSize(): number;
  log: vscode.LogOutputChannel;
  onAuthError(err: unknown): void;
}

export class PagedTree<T extends { id: string }, C = never>
  implements vscode.TreeDataProvider<PagedNode<T, C>>, vscode.Disposable
{
  private records: T[] = [];
  private cursor: string | undefined;
  private hasMore = false;
  private loaded = false;
  private loading: Promise<void> | undefined;
  private generation = 0;
  private readonly changed = new vscode.EventEmitter<PagedNode<T, C> | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  view: vscode.TreeView<PagedNode<T, C>> | undefined;

  constructor(private readonly spec: PagedTreeSpec<T, C>) {}

  dispose(): void {
    this.changed.dispose();
  }

  get entries(): readonly T[] {
    return this.records;
  }

  refresh(): void {
    this.generation++;
    this.records = [];
    this.cursor = undefined;
    this.hasMore = false;
    this.loaded = false;
    this.loading = undefined;
    this.changed.fire(undefined);
  }

  replace(record: T): void {
    const at = this.records.findIndex((r) => r.id === record.id);
    if (at >= 0) {
      this.records[at] = record;
    } else if (this.loaded) {
      this.records.unshift(record);
    }
    this.changed.fire(undefined);
  }

  remove(id: string): void {
    this.records = this.records.filter((r) => r.id !== id);
    this.changed.fire(undefined);
  }

  async getChildren(node?: PagedNode<T, C>): Promise<PagedNode<T, C>[]> {
    if (node?.kind === 'record') {
      return (this.spec.children?.(node.record) ?? [])
        .slice(0, 500)
        .map((child) => ({ kind: 'child', parent: node.record, child }));
    }
    if (node) {
      return [];
    }
    if (!this.spec.isSignedIn()) {
      this.setMessage(undefined);
      return [];
    }
    if (!this.loaded) {
      await this.loadPage();
    }
    const rows: PagedNode<T, C>[] = this.records.map((record) => ({ kind: 'record', record }));
    if (this.hasMore && this.records.length < MAX_ROWS) {
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

  async loadMore(): Promise<void> {
    if (!this.hasMore || this.records.length >= MAX_ROWS) {
      return;
    }
    await this.loadPage();
    this.changed.fire(undefined);
  }

  private loadPage(): Promise<void> {
    this.loading ??= this.fetch().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async fetch(): Promise<void> {
    const generation = this.generation;
    try {
      const page = await this.spec.fetchPage(this.cursor, this.spec.pageSize());
      if (generation !== this.generation) {
        return;
      }
      const seen = new Set(this.records.map((r) => r.id));
      for (const record of page.data) {
        if (seen.has(record.id) || this.records.length >= MAX_ROWS) {
          continue;
        }
        seen.add(record.id);
        this.records.push(record);
      }
      const next = page.has_more && page.next_cursor && page.next_cursor !== this.cursor ? page.next_cursor : undefined;
      this.hasMore = next !== undefined && page.data.length > 0;
      this.cursor = next;
      this.loaded = true;
      this.setMessage(this.records.length === 0 ? this.spec.emptyMessage() : undefined);
    } catch (err) {
      if (generation !== this.generation) {
        return;
      }
      this.loaded = true;
      this.hasMore = false;
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
  }

  private setMessage(message: string | undefined): void {
    if (this.view) {
      this.view.message = message === undefined ? undefined : inert(message, 400);
    }
  }
}
