// What a paged level of the tree shows: its items, then a message row for a failure, an empty
// level or a list the pager's caps cut, then one "Load more" (or "Retry") row; and the view's
// progress bar around a load.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { describeErrorForUser } from '../commandSupport/errorText';
import { Commands } from '../common/ids';
import { LoadMoreNode, MessageNode, type RunNode, type SidebarView, type TaskNode, type TreeNode } from './nodes';
import type { PagedList } from './pagedList';

/** Connection and timeout failures: the "service unreachable" welcome view, not a row. */
export function isUnreachable(err: unknown): boolean {
  return isApiError(err, 'connection') || isApiError(err, 'timeout') || isApiError(err, 'proxy');
}

export interface RowsOptions {
  view: SidebarView;
  parent?: TaskNode | RunNode;
  /** Shown as a row when the first page is empty; undefined shows nothing. */
  emptyText?: string;
}

export function listRows<T extends TreeNode>(list: PagedList<T>, options: RowsOptions): TreeNode[] {
  const rows: TreeNode[] = [...list.items];
  const { parent, view } = options;
  if (list.error !== undefined) {
    const auth = isApiError(list.error, 'authentication');
    rows.push(
      new MessageNode(list.messageId('error'), describeErrorForUser(list.error), {
        parent,
        severity: 'error',
        command: auth ? { command: Commands.signIn, title: vscode.l10n.t('Sign In') } : undefined,
      }),
    );
  } else if (list.isEmpty && options.emptyText !== undefined) {
    rows.push(new MessageNode(list.messageId('empty'), options.emptyText, { parent }));
  } else if (list.cut !== undefined) {
    rows.push(
      new MessageNode(
        list.messageId('cut'),
        vscode.l10n.t('Showing the first {0}; the service lists more.', list.items.length),
        { parent },
      ),
    );
  }
  if (list.hasMore || list.error !== undefined) {
    rows.push(new LoadMoreNode(list.moreId(), view, parent, list.generation, list.error !== undefined));
  }
  return rows;
}

/** Shows the view's progress bar while `work` runs. */
export function withViewProgress<T>(viewId: string, work: () => Promise<T>): Promise<T> {
  return Promise.resolve(vscode.window.withProgress({ location: { viewId } }, work));
}
