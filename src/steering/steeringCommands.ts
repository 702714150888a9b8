// Steering a run: Cancel (confirmed first), Resume a failed or cancelled run, Fork from a point
// with follow-up instructions. From a tree row, the run panel, the status bar, or automation:
//   agentRuntime.cancelRun  { runId, confirm?: false }   (confirm: false only in the test run)
//   agentRuntime.resumeRun  { runId, instructions? }      (instructions: no input box, test run only)
//   agentRuntime.forkRun    { runId, sequence?, instructions? }   (the same)
// A new run (resume, fork) is followed, opens in the run panel, and the tree shows its origin.
import * as vscode from 'vscode';
import { ApiError, isApiError } from '../api/errors';
import { SteeringConflict } from '../api/steering';
import type { RunRecord } from '../api/types';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { questionSkipped } from '../commandSupport/questionSkip';
import { type ResolvedRun, resolveRun } from '../commandSupport/runArgs';
import { lastSequenceOf } from '../commandSupport/runEnd';
import { shortenText } from '../common/format';
import { Commands, ContextKeys } from '../common/ids';
import { inert } from '../common/inertText';
import { askModal, notify } from '../common/notify';
import { isTerminalStatus } from '../runEvents/runStatus';
import { steeringSupport } from '../runPanel/steeringSupport';
import type { RunStore } from '../runs/runStore';

export interface SteeringDeps {
  runs: RunStore;
  /** The "Needs you" list: a decision or a cancel changes what waits. */
  approvals: { refresh(): void };
  /** Sets a context key (agentRuntime.steeringUnsupported). */
  setContext(key: string, value: boolean): void;
}

/** Which run: the argument, else the selected run row, else the active run panel (resolveRun). */
const targetOf = (deps: CommandDeps, arg: unknown): ResolvedRun | undefined =>
  resolveRun(arg, { selection: deps.selection('tasks'), activePanel: deps.activeRunPanel });

/**
 * A server without the endpoint: say so, and hide the actions from now on. Given the service (a
 * steering command), it is remembered for it: its run panels hide Cancel/Resume/Fork, and so do
 * the menus until the service changes. Every refused action is answered: the user just asked.
 */
export function reportUnsupported(err: unknown, steering: SteeringDeps, what: string, service?: string): boolean {
  if (!isApiError(err, 'not_supported')) {
    return false;
  }
  steering.setContext(ContextKeys.steeringUnsupported, true);
  if (service !== undefined) {
    steeringSupport.markNotOffered(service);
  }
  void notify.warn(vscode.l10n.t('This server does not offer {0}.', what));
  return true;
}

export function registerSteeringCommands(deps: CommandDeps, steering: SteeringDeps): vscode.Disposable[] {
  const { runs } = steering;

  const afterNewRun = async (run: RunRecord): Promise<void> => {
    runs.noteRecord(run);
    runs.follow(run.id, typeof run.task_id === 'string' ? run.task_id : undefined);
    deps.tasks.refresh();
    await vscode.commands.executeCommand(Commands.watchRun, { runId: run.id });
  };

  const cancel = deps.guard('Cancel run', async (arg?: unknown) => {
    const target = targetOf(deps, arg) ?? (arg === undefined ? await pickActiveRun(runs) : undefined);
    if (!target && arg !== undefined) {
      throw new UserFacingError(vscode.l10n.t('Choose a run to cancel.'));
    }
    if (!target) {
      return undefined;
    }
    if (!questionSkipped(deps.trustedAutomation, target.given)) {
      const stop = vscode.l10n.t('Cancel Run');
      const objective = await objectiveOf(deps, runs, target);
      const choice = await askModal(
        'warn',
        vscode.l10n.t('Cancel this run? The agent stops; steps already done stay done.'),
        objective === undefined ? [target.runId] : [objective, target.runId],
        stop,
      );
      if (choice !== stop) {
        return undefined;
      }
    }
    try {
      const run = await deps.service.client.cancelRun(target.runId);
      runs.noteRecord(run);
      steering.approvals.refresh();
      return run;
    } catch (err) {
      if (isApiError(err, 'conflict') && err.code === SteeringConflict.runNotActive) {
        void notify.info(vscode.l10n.t('The run already ended; there was nothing to cancel.'));
        await refreshRun(deps, runs, target.runId);
        return undefined;
      }
      if (reportUnsupported(err, steering, vscode.l10n.t('cancelling runs'), deps.service.client.baseUrl)) {
        return undefined;
      }
      throw err;
    }
  });

  const resume = deps.guard('Resume run', async (arg?: unknown) => {
    const target = targetOf(deps, arg);
    if (!target) {
      throw new UserFacingError(vscode.l10n.t('Choose a failed or cancelled run to resume.'));
    }
    const given = givenInstructions(deps, target.given, 'Resume run');
    const instructions = given ? given.value : await askInstructions('resume', await nameOf(deps, runs, target));
    if (instructions === null) {
      return undefined;
    }
    const cap = await deps.budgets.choose('person', await capOf(deps, target.runId));
    if (cap.refused !== undefined) {
      return undefined;
    }
    try {
      const run = await deps.service.client.resumeRun(target.runId, {
        instructions,
        ...(cap.budget ? { budget: cap.budget } : {}),
      });
      deps.budgets.noteStarted(cap, run, run.id);
      await afterNewRun(run);
      return run;
    } catch (err) {
      if (isApiError(err, 'conflict') && err.code === SteeringConflict.runNotResumable) {
        throw new UserFacingError(vscode.l10n.t('This run cannot be resumed: only a failed or cancelled run can.'));
      }
      if (reportUnsupported(err, steering, vscode.l10n.t('resuming runs'), deps.service.client.baseUrl)) {
        return undefined;
      }
      throw err;
    }
  });

  const fork = deps.guard('Fork run', async (arg?: unknown) => {
    const target = targetOf(deps, arg);
    if (!target) {
      throw new UserFacingError(vscode.l10n.t('Choose a run to fork.'));
    }
    let sequence = numberOrUndefined(target.given.sequence);
    if (sequence === undefined) {
      const end = await lastSequenceOf(deps.service.client, runs, target.runId);
      sequence = await askSequence(end);
      if (sequence === undefined) {
        return undefined;
      }
    }
    const given = givenInstructions(deps, target.given, 'Fork run');
    const instructions = given
      ? given.value
      : await askInstructions('fork', await nameOf(deps, runs, target), sequence);
    if (instructions === null) {
      return undefined;
    }
    const cap = await deps.budgets.choose('person', await capOf(deps, target.runId));
    if (cap.refused !== undefined) {
      return undefined;
    }
    try {
      const run = await deps.service.client.forkRun(target.runId, {
        after_sequence: sequence,
        instructions,
        ...(cap.budget ? { budget: cap.budget } : {}),
      });
      deps.budgets.noteStarted(cap, run, run.id);
      await afterNewRun(run);
      return run;
    } catch (err) {
      if (isApiError(err, 'bad_request') && err.param === 'after_sequence') {
        throw new UserFacingError(
          vscode.l10n.t('The run has no event {0} to fork after; choose an earlier point.', sequence),
        );
      }
      if (reportUnsupported(err, steering, vscode.l10n.t('forking runs'), deps.service.client.baseUrl)) {
        return undefined;
      }
      throw err;
    }
  });

  return [
    vscode.commands.registerCommand(Commands.cancelRun, cancel),
    vscode.commands.registerCommand(Commands.resumeRun, resume),
    vscode.commands.registerCommand(Commands.forkRun, fork),
  ];
}

/**
 * Instructions handed in by the caller (no input box): honoured only in the extension-host test
 * run, as Sign In's key; from anyone else (a command link, another extension) they are ignored
 * and the person is asked. `{ value }` wraps them (undefined: none); undefined: ask.
 */
function givenInstructions(
  deps: CommandDeps,
  given: Record<string, unknown>,
  context: string,
): { value: string | undefined } | undefined {
  if (!('instructions' in given)) {
    return undefined;
  }
  if (!deps.trustedAutomation) {
    deps.log.warn(`${context}: instructions passed by a command were ignored; asking the user instead.`);
    return undefined;
  }
  return { value: stringOrUndefined(given.instructions) };
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

async function refreshRun(deps: CommandDeps, runs: RunStore, runId: string): Promise<void> {
  try {
    runs.noteRecord(await deps.service.client.getRun(runId));
  } catch (err) {
    if (!(err instanceof ApiError)) {
      throw err;
    }
    deps.log.warn(`Cancel run: could not read the run again: ${err.message}`);
  }
  deps.tasks.refresh();
}

/** How long a question waits for the run's task to name it; then it names the run by its id. */
const OBJECTIVE_WAIT_MS = 3000;
const OBJECTIVE_MAX = 80;

/**
 * The objective of the run's task, shortened and made inert, for the question that steers it (a
 * person decides on the run they recognise, not only on an id): the one the run's row knows
 * (resolveRun), else read from the service; undefined when it cannot be read in time. Never
 * fails: the question is still asked with the id.
 */
async function objectiveOf(deps: CommandDeps, runs: RunStore, target: ResolvedRun): Promise<string | undefined> {
  const runId = target.runId;
  if (target.objective !== undefined) {
    return quoted(target.objective);
  }
  const signal = AbortSignal.timeout(OBJECTIVE_WAIT_MS);
  try {
    const taskId = runs.get(runId)?.taskId ?? (await deps.service.client.getRun(runId, { signal })).task_id;
    if (typeof taskId !== 'string') {
      return undefined;
    }
    return quoted((await deps.service.client.getTask(taskId, { signal })).objective);
  } catch (err) {
    deps.log.warn(`Could not read the objective of ${runId}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/** `"objective"`, shortened and inert; undefined for none. */
function quoted(objective: unknown): string | undefined {
  return typeof objective === 'string' && objective.trim() !== ''
    ? `"${inert(shortenText(objective.trim(), OBJECTIVE_MAX))}"`
    : undefined;
}

/** `"objective" (run_…)`, or the run's id alone. */
async function nameOf(deps: CommandDeps, runs: RunStore, target: ResolvedRun): Promise<string> {
  const objective = await objectiveOf(deps, runs, target);
  return objective === undefined ? target.runId : `${objective} (${target.runId})`;
}

/** null when the person pressed Escape; undefined when they left it empty (no instructions). */
async function askInstructions(
  kind: 'resume' | 'fork',
  runName: string,
  sequence?: number,
): Promise<string | undefined | null> {
  // The title names the run (and the fork point): the person sees which run they steer.
  const value = await vscode.window.showInputBox({
    title:
      kind === 'fork'
        ? vscode.l10n.t('Fork {0} after event #{1}: follow-up instructions', runName, sequence ?? '?')
        : vscode.l10n.t('Resume {0}: instructions', runName),
    prompt:
      kind === 'fork'
        ? vscode.l10n.t('What should the new run do from this point? Leave empty to go on as before.')
        : vscode.l10n.t('Anything to add before the run goes on? Leave empty to go on as before.'),
    placeHolder: kind === 'fork' ? vscode.l10n.t('e.g. Now also summarise the appendix') : undefined,
    ignoreFocusOut: true,
  });
  if (value === undefined) {
    return null;
  }
  return value.trim() === '' ? undefined : value;
}

async function askSequence(end: number | undefined): Promise<number | undefined> {
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('Fork Run: from which event?'),
    prompt: vscode.l10n.t('The new run starts with the events up to this sequence number, then goes on.'),
    value: end === undefined ? '' : String(end),
    ignoreFocusOut: true,
    validateInput: (text) =>
      /^[1-9]\d{0,15}$/.test(text.trim()) ? undefined : vscode.l10n.t('A sequence number: 1 or more.'),
  });
  return value === undefined ? undefined : Number(value.trim());
}

async function pickActiveRun(runs: RunStore): Promise<ResolvedRun | undefined> {
  const active = runs.activeRuns().filter((f) => !isTerminalStatus(f.status));
  if (active.length === 0) {
    throw new UserFacingError(
      vscode.l10n.t('No run followed in this window is still going. Cancel a run from the Tasks view.'),
    );
  }
  const picked = await vscode.window.showQuickPick(
    active.map((f) => ({ label: inert(f.runId), description: inert(f.status ?? ''), runId: f.runId })),
    { title: vscode.l10n.t('Cancel Run'), placeHolder: vscode.l10n.t('Which run should stop?') },
  );
  return picked ? { runId: picked.runId, given: {}, via: 'selection' } : undefined;
}

/** The cap of the run a resume or fork continues, as the server has it (none when it cannot say). */
async function capOf(deps: CommandDeps, runId: string): Promise<unknown> {
  const run = await deps.service.client.getRun(runId).catch(() => undefined);
  return run?.budget;
}
