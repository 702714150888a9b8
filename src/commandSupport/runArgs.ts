// Which run a command acts on, the one rule for every run command (steering, review, links, the
// run log): what it was given (a run id, `{ runId, ... }` from the run panel, a link or a test, a
// run row or record), else the first run row selected in the Tasks view (the Command Palette or a
// keybinding), else the run of the active run panel; when those two name different runs it asks
// the person to choose where they act instead. Ids are checked as the panel checks them.
import * as vscode from 'vscode';
import { isRunId } from '../runEvents/ids';
import { UserFacingError } from './commandErrors';
import { rowObjective, runOf } from './nodeArgs';

export interface ResolvedRun {
  runId: string;
  /** What the caller passed besides the run (instructions, a sequence...): {} for a row or an id. */
  given: Record<string, unknown>;
  /** Where the run came from. */
  via: 'argument' | 'selection' | 'panel';
  /**
   * The objective of the run's task (raw text) when the row that named the run knows it (a run
   * row of the Tasks view): a question can name the run without reading it from the service.
   */
  objective?: string;
}

export interface RunContext {
  /** The rows selected in the Tasks view now (CommandDeps.selection('tasks')). */
  selection?: readonly unknown[];
  /** The run of the active run panel, if one is open (CommandDeps.activeRunPanel). */
  activePanel?: () => string | undefined;
}

/** The run named by one value (an id, `{ runId }`, a row or record), or undefined. */
export function runNamedBy(arg: unknown): Omit<ResolvedRun, 'via'> | undefined {
  if (typeof arg === 'string') {
    return isRunId(arg) ? { runId: arg, given: {} } : undefined;
  }
  if (typeof arg !== 'object' || arg === null) {
    return undefined;
  }
  const given = arg as Record<string, unknown>;
  let named: Omit<ResolvedRun, 'via'>;
  if ('runId' in given) {
    if (!isRunId(given.runId)) {
      return undefined;
    }
    named = { runId: given.runId, given };
  } else {
    const run = runOf(arg);
    if (!run || !isRunId(run.id)) {
      return undefined;
    }
    named = { runId: run.id, given: {} };
  }
  // A row of ours (the Tasks view's RunNode, which has both `runId` and `run`) also names its task.
  const objective = rowObjective(arg, named.runId);
  return objective === undefined ? named : { ...named, objective };
}

/**
 * The run a command acts on. A value that was given but names no run is not replaced by the
 * selection or the panel: the caller says what it expected instead of acting on another run.
 */
export function resolveRun(arg: unknown, context: RunContext = {}): ResolvedRun | undefined {
  // A button in a webview's title bar (the run panel's Export, Transcript) passes the panel's
  // `webview-panel:` URI: that names the panel in front, as no argument does.
  if (isWebviewPanelUri(arg)) {
    arg = undefined;
  }
  if (arg !== undefined) {
    const named = runNamedBy(arg);
    return named && { ...named, via: 'argument' };
  }
  let selected: ResolvedRun | undefined;
  for (const row of context.selection ?? []) {
    const named = runNamedBy(row);
    if (named && runOf(row)) {
      selected = { ...named, via: 'selection' };
      break;
    }
  }
  const panelRun = context.activePanel?.();
  const inPanel: ResolvedRun | undefined = isRunId(panelRun) ? { runId: panelRun, given: {}, via: 'panel' } : undefined;
  // The selection outlives a move into a panel: when the two name different runs, which one the
  // person means is not known, so nothing is acted on (never the run they are not looking at).
  if (selected && inPanel && selected.runId !== inPanel.runId) {
    throw new UserFacingError(
      vscode.l10n.t(
        "Two runs could be meant: {0}, selected in the Tasks view, and {1}, in the run panel. Use the run panel's button or the run's row in the Tasks view.",
        selected.runId,
        inPanel.runId,
      ),
    );
  }
  return selected ?? inPanel;
}

/** The URI VS Code passes to a command run from a webview panel's title bar. */
function isWebviewPanelUri(arg: unknown): boolean {
  return typeof arg === 'object' && arg !== null && (arg as { scheme?: unknown }).scheme === 'webview-panel';
}
