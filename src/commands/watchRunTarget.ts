// Turns whatever "Watch Run" was invoked on (a run or task row, a task record, a run id, a
// notification's {runId}) into the run to watch. A task without a run_id is asked for its runs.
import * as vscode from 'vscode';
import { ApiClient } from '../api/client';
import { runOf, taskOf } from './nodeArgs';
import { UserFacingError } from './commandErrors';

export type WatchTarget = { runId: string; objective?: string } | string | undefined;

export async function watchTargetOf(arg: unknown, client: () => ApiClient): Promise<WatchTarget> {
  if (arg === undefined || typeof arg === 'string') return arg;
  const direct = (arg as { runId?: unknown }).runId;
  const objective = taskOf(arg)?.objective ?? (arg as { objective?: unknown }).objective;
  const text = typeof objective === 'string' ? objective : undefined;
  if (typeof direct === 'string') return { runId: direct, objective: text };
  const run = runOf(arg);
  if (run) return { runId: run.id, objective: text };
  const task = taskOf(arg);
  if (!task) return undefined;
  if (typeof task.run_id === 'string') return { runId: task.run_id, objective: text };
  const runs = await client().listRuns({ task_id: task.id, limit: 1 });
  const latest = runs.data[0];
  if (!latest) throw new UserFacingError(vscode.l10n.t('Task {0} has no run yet.', task.id));
  return { runId: latest.id, objective: text };
}
