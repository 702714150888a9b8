// "Watch Run": from a tree row (a run, or a task: its run), a notification's {runId}, a run id,
// or the palette (asks for the id). Opens, or focuses, the run's panel.
import * as vscode from 'vscode';
import type { ApiClient } from '../api/client';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { runOf, taskOf } from '../commandSupport/nodeArgs';
import { Commands } from '../common/ids';
import { isRunId } from '../runEvents/ids';

export type WatchTarget = { runId: string; objective?: string } | string | undefined;

export function registerWatchRunCommand(
  deps: CommandDeps,
  panels: { open(runId: string, options?: { objective?: string }): void },
): vscode.Disposable {
  return vscode.commands.registerCommand(
    Commands.watchRun,
    deps.guard('Watch run', async (arg?: unknown) => {
      const target = await watchTargetOf(arg, () => deps.service.client);
      const chosen = target ?? (await askRunId());
      if (chosen === undefined) {
        return;
      }
      const { runId, objective } = typeof chosen === 'string' ? { runId: chosen, objective: undefined } : chosen;
      panels.open(runId, { objective });
    }),
  );
}

/** Turns whatever "Watch Run" was invoked on into the run to watch; undefined asks for an id. */
export async function watchTargetOf(arg: unknown, client: () => Pick<ApiClient, 'listRuns'>): Promise<WatchTarget> {
  if (arg === undefined || typeof arg === 'string') {
    return arg;
  }
  const direct = (arg as { runId?: unknown }).runId;
  const objective = taskOf(arg)?.objective ?? (arg as { objective?: unknown }).objective;
  const text = typeof objective === 'string' ? objective : undefined;
  if (typeof direct === 'string') {
    return { runId: direct, objective: text };
  }
  const run = runOf(arg);
  if (run) {
    return { runId: run.id, objective: text };
  }
  const task = taskOf(arg);
  if (!task) {
    return undefined;
  }
  if (typeof task.run_id === 'string') {
    return { runId: task.run_id, objective: text };
  }
  const runs = await client().listRuns({ task_id: task.id, limit: 1 });
  const latest = runs.data[0];
  if (!latest) {
    throw new UserFacingError(vscode.l10n.t('Task {0} has no run yet.', task.id));
  }
  return { runId: latest.id, objective: text };
}

async function askRunId(): Promise<string | undefined> {
  const runId = await vscode.window.showInputBox({
    title: vscode.l10n.t('Watch Run'),
    prompt: vscode.l10n.t('The id of the run to watch'),
    placeHolder: 'run_…',
    ignoreFocusOut: true,
    validateInput: (value) =>
      isRunId(value.trim()) ? undefined : vscode.l10n.t('A run id starts with run_ (letters, digits, _ and - only).'),
  });
  return runId?.trim() || undefined;
}
