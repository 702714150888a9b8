// The one "Search ..." quick pick over a service list (Search Tools, Search Memory): asks the
// service as the user types (debounced, the request before cancelled), shows its answer as it
// ranked it (no filtering again), a line for no match, a service without the resource or a
// failure, and opens the chosen record.
import * as vscode from 'vscode';
import { isAbort, isApiError } from '../api/errors';
import { inert } from '../common/inertText';
import type { CommandDeps } from './commandDeps';
import { describeErrorForUser } from './errorText';

/** How long typing pauses before the pick asks the service. */
export const SEARCH_DEBOUNCE_MS = 250;

export type SearchItem = vscode.QuickPickItem & { id?: string };

export interface SearchPickSpec {
  title: string;
  placeholder: string;
  /** The rows for what was typed, in the service's order. */
  search(query: string, signal: AbortSignal): Promise<SearchItem[]>;
  /** The one row when the answer is empty. */
  noMatch(query: string): string;
  /** The one row when the service does not offer the resource (404/405). */
  unsupported: string;
  /** Opens the chosen record; `openName` names it in the log when that fails. */
  open(id: string): Promise<void>;
  openName: string;
}

/**
 * The row under a search's answer when the service sent more than was asked for (src/api/parse.ts
 * keeps at most the page asked): the rest is not kept nor shown, and the pick says so.
 */
export function overflowRows(page: { overflow?: number }, asked: number): SearchItem[] {
  const left = page.overflow ?? 0;
  return left > 0
    ? [{ label: vscode.l10n.t('The service sent {0} more than the {1} asked for; they are not shown.', left, asked) }]
    : [];
}

/** Shows the pick (after signing in) and resolves once the first answer is in. */
export async function showSearchPick(
  deps: Pick<CommandDeps, 'ensureSignedIn' | 'log'>,
  spec: SearchPickSpec,
): Promise<void> {
  if (!(await deps.ensureSignedIn())) {
    return;
  }
  const pick = vscode.window.createQuickPick<SearchItem>();
  pick.title = spec.title;
  pick.placeholder = spec.placeholder;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | undefined;
  const run = async (query: string): Promise<void> => {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    pick.busy = true;
    try {
      const items = await spec.search(query, controller.signal);
      if (controller.signal.aborted) {
        return;
      }
      // alwaysShow: the service ranked them; the quick pick must not filter its answer again.
      pick.items =
        items.length > 0
          ? items.map((item) => ({ ...item, alwaysShow: true }))
          : [{ label: spec.noMatch(query), alwaysShow: true }];
    } catch (err) {
      if (controller.signal.aborted || isAbort(err)) {
        return;
      }
      const text = isApiError(err, 'not_supported') ? spec.unsupported : describeErrorForUser(err);
      pick.items = [{ label: inert(text, 200), alwaysShow: true }];
    } finally {
      if (inFlight === controller) {
        pick.busy = false;
      }
    }
  };
  pick.onDidChangeValue((value) => {
    if (timer) {
      clearTimeout(timer);
    }
    timer = setTimeout(() => void run(value), SEARCH_DEBOUNCE_MS);
  });
  pick.onDidAccept(() => {
    const id = pick.selectedItems[0]?.id;
    if (!id) {
      return;
    }
    pick.hide();
    void spec.open(id).catch((err: unknown) => deps.log.warn(`${spec.openName}: ${String(err)}`));
  });
  pick.onDidHide(() => {
    if (timer) {
      clearTimeout(timer);
    }
    inFlight?.abort();
    pick.dispose();
  });
  pick.show();
  await run('');
}
