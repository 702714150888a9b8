// Which run a command acts on, the one rule for every run command (steering, review, links, the
// run log): what it was given (a run id, `{ runId, ... }` from the run panel, a link or a test, a
// run row or record), else the first run row selected in the Tasks view (the Command Palette or a
// keybinding), else the run of the active run panel. Ids are checked as the panel checks them.
import { isRunId } from '../runEvents/ids';
import { runOf } from './nodeArgs';

export interface ResolvedRun {
  runId: string;
  /** What the caller passed besides the run (instructions, a sequence...): {} for a row or an id. */
  given: Record<string, unknown>;
  /** Where the run came from. */
  via: 'argument' | 'selection' | 'panel';
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
  if ('runId' in given) {
    return isRunId(given.runId) ? { runId: given.runId, given } : undefined;
  }
  const run = runOf(arg);
  return run && isRunId(run.id) ? { runId: run.id, given: {} } : undefined;
}

/**
 * The run a command acts on. A value that was given but names no run is not replaced by the
 * selection or the panel: the caller says what it expected instead of acting on another run.
 */
export function resolveRun(arg: unknown, context: RunContext = {}): ResolvedRun | undefined {
  if (arg !== undefined) {
    const named = runNamedBy(arg);
    return named && { ...named, via: 'argument' };
  }
  for (const row of context.selection ?? []) {
    const named = runNamedBy(row);
    if (named && runOf(row)) {
      return { ...named, via: 'selection' };
    }
  }
  const panelRun = context.activePanel?.();
  return isRunId(panelRun) ? { runId: panelRun, given: {}, via: 'panel' } : undefined;
}
