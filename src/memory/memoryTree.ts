// The Memory view: entries newest first, page by page ("Load more"), filtered by tag or project.
// A service without memory (404/405) shows a message naming what it does not offer; the rest of
// the extension is not affected. Every string of a record is data (inert labels, plain tooltips).
import * as vscode from 'vscode';
import type { ApiClient } from '../api/client';
import { isApiError } from '../api/errors';
import type { MemoryRecord } from '../api/resourceTypes';
import { describeErrorForUser } from '../commandSupport/errorText';
import { Commands } from '../common/ids';
import { inert } from '../common/inertText';
import type { Translate } from '../common/translate';
import { memoryDescription, memoryLabel, memoryTooltip } from './memoryText';
import { memoryUri } from './memoryUris';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

/** Entries the view holds at most (every list fed by the server has a bound). */
export const MAX_MEMORY_ROWS = 2000;

export type MemoryNode = { kind: 'entry'; record: MemoryRecord } | { kind: 'more' };

export interface MemoryFilter {
  tag?: string;
  project_id?: string;
}

export interface MemoryTreeDeps {
  getClient(): ApiClient;
  isSignedIn(): boolean;
  pageSize(): number;
  log: vscode.LogOutputChannel;
  onAuthError(err: unknown): void;
}

export class MemoryTree implements vscode.TreeDataProvider<MemoryNode>, vscode.Disposable {
  private records: MemoryRecord[] = [];
  private cursor: string | undefined;
  private hasMore = false;
  private loaded = false;
  private loading: Promise<void> | undefined;
  private generation = 0;
  private filterValue: MemoryFilter = {};
  private readonly changed = new vscode.EventEmitter<MemoryNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Set by the owner once the TreeView exists (its message line). */
  view: vscode.TreeView<MemoryNode> | undefined;

  constructor(private readonly deps: MemoryTreeDeps) {}

  dispose(): void {
    this.changed.dispose();
  }

  get filter(): MemoryFilter {
    return this.filterValue;
  }

  /** The entries shown now (tests, the filter picker's suggestions). */
  get entries(): readonly MemoryRecord[] {
    return this.records;
  }

  setFilter(filter: MemoryFilter): void {
    this.filterValue = filter;
    this.refresh();
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

  async getChildren(node?: MemoryNode): Promise<MemoryNode[]> {
    if (node) {
      return [];
    }
    if (!this.deps.isSignedIn()) {
      this.setMessage(undefined);
      return [];
    }
    if (!this.loaded) {
      await this.loadPage();
    }
    const rows: MemoryNode[] = this.records.map((record) => ({ kind: 'entry', record }));
    if (this.hasMore && this.records.length < MAX_MEMORY_ROWS) {
      rows.push({ kind: 'more' });
    }
    return rows;
  }

  getTreeItem(node: MemoryNode): vscode.TreeItem {
    if (node.kind === 'more') {
      const item = new vscode.TreeItem(t('Load more…'));
      item.command = { command: Commands.loadMoreMemory, title: t('Load more…') };
      item.contextValue = 'memoryMore';
      return item;
    }
    const { record } = node;
    const item = new vscode.TreeItem(memoryLabel(record, t));
    item.id = `memory:${record.id}`;
    item.description = memoryDescription(record);
    item.tooltip = memoryTooltip(record, t);
    item.iconPath = new vscode.ThemeIcon('lightbulb');
    item.contextValue = 'memoryEntry';
    item.command = { command: 'vscode.open', title: t('Open Memory'), arguments: [memoryUri(record.id)] };
    return item;
  }

  /** The next page after what is shown. */
  async loadMore(): Promise<void> {
    if (!this.hasMore || this.records.length >= MAX_MEMORY_ROWS) {
      return;
    }
    await this.loadPage();
    this.changed.fire(undefined);
  }

  /** Puts a changed or new entry in place (front for new ones) without a reload. */
  upsert(record: MemoryRecord): void {
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

  private loadPage(): Promise<void> {
    this.loading ??= this.fetchPage().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async fetchPage(): Promise<void> {
    const generation = this.generation;
    try {
      const page = await this.deps
        .getClient()
        .listMemory({ ...this.filterValue, limit: this.deps.pageSize(), after: this.cursor });
      if (generation !== this.generation) {
        return;
      }
      const seen = new Set(this.records.map((r) => r.id));
      for (const record of page.data) {
        if (seen.has(record.id) || this.records.length >= MAX_MEMORY_ROWS) {
          continue;
        }
        seen.add(record.id);
        this.records.push(record);
      }
      // A cursor we already followed, or none, ends the walk (a cycling server stops here).
      const next = page.has_more && page.next_cursor && page.next_cursor !== this.cursor ? page.next_cursor : undefined;
      this.hasMore = next !== undefined && page.data.length > 0;
      this.cursor = next;
      this.loaded = true;
      this.setMessage(this.filterMessage());
    } catch (err) {
      if (generation !== this.generation) {
        return;
      }
      this.loaded = true;
      this.hasMore = false;
      if (isApiError(err, 'not_supported')) {
        this.setMessage(
          t(
            'This service does not offer memory (it answered {0} to {1}). The rest of Agent Runtime works as usual.',
            err.status ?? '404',
            'GET /v1/memory',
          ),
        );
        return;
      }
      if (isApiError(err, 'authentication')) {
        this.deps.onAuthError(err);
      }
      this.deps.log.warn(`Memory: ${describeErrorForUser(err)}`);
      this.setMessage(t('Memory could not be loaded: {0}', describeErrorForUser(err)));
    }
  }

  private filterMessage(): string | undefined {
    const parts: string[] = [];
    if (this.filterValue.tag) {
      parts.push(t('tag {0}', inert(this.filterValue.tag, 60)));
    }
    if (this.filterValue.project_id) {
      parts.push(t('project {0}', inert(this.filterValue.project_id, 60)));
    }
    if (parts.length === 0) {
      return this.records.length === 0
        ? t('No memories yet. Select text in an editor and use Remember Selection.')
        : undefined;
    }
    return t('Showing memories with {0}.', parts.join(', '));
  }

  private setMessage(message: string | undefined): void {
    if (this.view) {
      this.view.message = message === undefined ? undefined : inert(message, 400);
    }
  }
}
