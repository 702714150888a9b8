// The "Go to…" quick pick: the row under the input says what the typed text names (or why it
// names nothing) as it is typed; Enter reads that record by id with the pick busy, Escape cancels
// the read. A record that is not there is said in the pick, which stays open to fix the id.
// Empty, it offers an id on the clipboard and the records gone to lately.
import * as vscode from 'vscode';
import { isAbort } from '../api/errors';
import { inert } from '../common/inertText';
import type { Translate } from '../common/translate';
import { type GoToTarget, parseGoToInput } from '../links/goToInput';
import { type GoToClient, type GoToFound, resolveGoTo } from '../links/goToResolve';
import { echo, kindText, notFoundText, problemText, stoppedLookingText } from '../links/linkText';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

/** A record gone to before: its id and the words people know it by. */
export interface RecentTarget {
  input: string;
  label: string;
}

interface GoToItem extends vscode.QuickPickItem {
  /** What Enter opens; undefined for a row that only explains. */
  input?: string;
}

export interface PickedTarget {
  target: GoToTarget;
  found: GoToFound;
}

/** The row for what is typed: what it will open, or the problem in words. */
function itemFor(value: string): GoToItem {
  const parsed = parseGoToInput(value);
  if (!parsed.ok) {
    return { label: t('Cannot go there: {0}', problemText(parsed.problem, t)), alwaysShow: true };
  }
  return { label: describeTarget(parsed.target), alwaysShow: true, input: value };
}

export function describeTarget(target: GoToTarget): string {
  const kind = kindText(target.kind, t);
  if (target.kind === 'run' && target.sequence !== undefined) {
    return t('Open {0} {1} at event {2}', kind, target.id, target.sequence);
  }
  if (target.kind === 'artifact' && target.runId !== undefined) {
    return t('Open {0} {1} of run {2}', kind, target.id, target.runId);
  }
  return t('Open {0} {1}', kind, target.id);
}

function suggestions(clipboard: string, recent: readonly RecentTarget[]): GoToItem[] {
  const items: GoToItem[] = [];
  const fromClipboard = clipboard.length <= 2048 ? parseGoToInput(clipboard) : undefined;
  if (fromClipboard?.ok) {
    items.push({
      label: describeTarget(fromClipboard.target),
      description: t('from the clipboard'),
      input: clipboard,
      alwaysShow: true,
    });
  }
  if (recent.length > 0) {
    items.push({ label: t('Recently opened'), kind: vscode.QuickPickItemKind.Separator });
  }
  for (const r of recent) {
    items.push({ label: inert(r.label), description: inert(r.input), input: r.input, alwaysShow: true });
  }
  return items;
}

/**
 * Shows the pick until a record is found (resolves it) or the pick is closed (undefined). An
 * error other than "not found" closes the pick and rejects, for the command's error edge.
 */
export function pickGoToTarget(
  client: () => GoToClient,
  clipboard: string,
  recent: readonly RecentTarget[],
): Promise<PickedTarget | undefined> {
  return new Promise((resolve, reject) => {
    const pick = vscode.window.createQuickPick<GoToItem>();
    let reading: AbortController | undefined;
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) {
        return;
      }
      settled = true;
      fn();
      pick.hide();
    };
    pick.title = t('Go to a Task, Run, File or Artifact');
    pick.placeholder = t('Paste an id (task_…, run_…, file_…, art_…) or a run link');
    pick.ignoreFocusOut = true;
    const refresh = () => {
      pick.items = pick.value.trim() === '' ? suggestions(clipboard, recent) : [itemFor(pick.value)];
    };
    pick.onDidChangeValue(() => {
      reading?.abort();
      pick.busy = false;
      refresh();
    });
    pick.onDidAccept(async () => {
      const input = (pick.selectedItems[0] ?? pick.activeItems[0])?.input;
      if (input === undefined || pick.busy) {
        return;
      }
      const parsed = parseGoToInput(input);
      if (!parsed.ok) {
        return;
      }
      const controller = new AbortController();
      reading = controller;
      pick.busy = true;
      try {
        const result = await resolveGoTo(parsed.target, client(), controller.signal);
        if (controller.signal.aborted) {
          return;
        }
        if ('found' in result) {
          return settle(() => resolve({ target: parsed.target, found: result.found }));
        }
        const text =
          'needsRun' in result
            ? t(
                'An artifact is found through its run: paste the run id with it ("run_… {0}"), or open the run and pick it there.',
                echo(parsed.target.id),
              )
            : 'stoppedLooking' in result
              ? stoppedLookingText(parsed.target.id, result.stoppedLooking.searched, t)
              : notFoundText(parsed.target.kind, parsed.target.id, t);
        pick.items = [{ label: text, alwaysShow: true }];
      } catch (err) {
        if (controller.signal.aborted || isAbort(err)) {
          return;
        }
        settle(() => reject(err));
      } finally {
        if (reading === controller) {
          pick.busy = false;
        }
      }
    });
    pick.onDidHide(() => {
      reading?.abort();
      pick.dispose();
      if (!settled) {
        settled = true;
        resolve(undefined);
      }
    });
    refresh();
    pick.show();
  });
}
