// The Memory view: entries newest first, page by page ("Load more"), filtered by tag or project;
// a PagedTree (src/views/pagedTree.ts) that keeps the filter and says on its message line which
// one applies. Every string of a record is data (inert labels, plain tooltips).
import * as vscode from 'vscode';
import type { ApiClient } from '../api/client';
import type { MemoryRecord } from '../api/resourceTypes';
import { Commands, ViewIds } from '../common/ids';
import { inert } from '../common/inertText';
import type { Translate } from '../common/translate';
import { type PagedNode, PagedTree, type PagedTreeDeps } from '../views/pagedTree';
import { memoryDescription, memoryLabel, memoryTooltip } from './memoryText';
import { memoryUri } from './memoryUris';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

export type MemoryNode = PagedNode<MemoryRecord>;

export interface MemoryFilter {
  tag?: string;
  project_id?: string;
}

export interface MemoryTreeDeps extends PagedTreeDeps {
  getClient(): ApiClient;
}

export class MemoryTree extends PagedTree<MemoryRecord> {
  private readonly current: { filter: MemoryFilter };

  constructor(deps: MemoryTreeDeps) {
    const current: { filter: MemoryFilter } = { filter: {} };
    super({
      ...deps,
      what: t('memory'),
      endpoint: 'GET /v1/memory',
      viewId: ViewIds.memory,
      refreshCommand: Commands.refreshMemory,
      loadMoreCommand: Commands.loadMoreMemory,
      fetchPage: (params, signal) => deps.getClient().listMemory({ ...current.filter, ...params }, { signal }),
      item: memoryItem,
      note: (shown) => filterNote(current.filter, shown),
      matches: (record) => matchesFilter(current.filter, record),
    });
    this.current = current;
  }

  get filter(): MemoryFilter {
    return this.current.filter;
  }

  setFilter(filter: MemoryFilter): void {
    this.current.filter = filter;
    this.refresh();
  }
}

function memoryItem(record: MemoryRecord): vscode.TreeItem {
  const item = new vscode.TreeItem(memoryLabel(record, t));
  item.id = `memory:${record.id}`;
  item.description = memoryDescription(record);
  item.tooltip = memoryTooltip(record, t);
  item.iconPath = new vscode.ThemeIcon('lightbulb');
  item.contextValue = 'memoryEntry';
  item.command = { command: 'vscode.open', title: t('Open Memory'), arguments: [memoryUri(record.id)] };
  return item;
}

/** The service's rule for GET /v1/memory?tag&project_id: the entry has the tag and is in the project. */
export function matchesFilter(filter: MemoryFilter, record: MemoryRecord): boolean {
  return (
    (!filter.tag || record.tags.includes(filter.tag)) && (!filter.project_id || record.project_id === filter.project_id)
  );
}

function filterNote(filter: MemoryFilter, shown: number): string | undefined {
  const parts: string[] = [];
  if (filter.tag) {
    parts.push(t('tag {0}', inert(filter.tag, 60)));
  }
  if (filter.project_id) {
    parts.push(t('project {0}', inert(filter.project_id, 60)));
  }
  if (parts.length === 0) {
    return shown === 0 ? t('No memories yet. Select text in an editor and use Remember Selection.') : undefined;
  }
  return t('Showing memories with {0}.', parts.join(', '));
}
