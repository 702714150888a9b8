// "Your run ended": a notification for runs started from this window, when the RunStore says
// they reached a terminal status (from a panel's stream or a poll, whichever comes first).
import * as vscode from 'vscode';
import type { TaskRecord } from '../api/types';
import { Commands } from '../common/ids';
import { notify } from '../common/notify';
import { shortenText } from '../common/format';
import { statusKind } from '../common/runStatus';
import type { RunStore } from './runStore';

const OBJECTIVE_MAX = 60;

export function announceFinishedRuns(store: RunStore, getTask: (taskId: string) => Promise<TaskRecord>): vscode.Disposable {
  return store.onDidChange(({ facts, finished }) => {
    if (!finished || !facts.followed) return;
    const taskId = facts.taskId;
    const objective = taskId ? getTask(taskId).then((t) => (typeof t.objective === 'string' ? t.objective : undefined), () => undefined) : Promise.resolve(undefined);
    void objective.then((text) => showRunFinished(facts.runId, facts.status ?? '', text));
  });
}

function showRunFinished(runId: string, status: string, objective: string | undefined): void {
  const watch = vscode.l10n.t('Watch Run');
  const artifacts = vscode.l10n.t('Show Artifacts');
  const what = objective ? `"${shortenText(objective, OBJECTIVE_MAX)}"` : runId;
  const kind = statusKind(status);
  const message =
    kind === 'completed' ? vscode.l10n.t('Run {0} completed.', what)
    : kind === 'failed' ? vscode.l10n.t('Run {0} failed.', what)
    : kind === 'cancelled' ? vscode.l10n.t('Run {0} was cancelled.', what)
    : vscode.l10n.t('Run {0} ended with status "{1}".', what, status);
  const show = kind === 'failed' ? notify.warn : notify.info;
  void show(message, watch, artifacts).then((choice) => {
    if (choice === watch) void vscode.commands.executeCommand(Commands.watchRun, { runId, objective });
    if (choice === artifacts) void vscode.commands.executeCommand(Commands.showArtifacts, { runId });
  });
}
