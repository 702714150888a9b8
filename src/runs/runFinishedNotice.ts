// "Your run ended": a notification for runs started from this window, when the RunStore says
// they reached a terminal status (from a panel's stream or a poll, whichever comes first).
import * as vscode from 'vscode';
import type { TaskRecord } from '../api/types';
import { shortenText } from '../common/format';
import { Commands } from '../common/ids';
import { notify } from '../common/notify';
import { statusKind } from '../runEvents/runStatus';
import type { RunStore } from './runStore';

const OBJECTIVE_MAX = 60;

/** `reviewable`: whether the run revised files uploaded from here (then "Review Changes" is offered). */
export function announceFinishedRuns(
  store: RunStore,
  getTask: (taskId: string) => Promise<TaskRecord>,
  reviewable?: (runId: string) => Promise<boolean>,
): vscode.Disposable {
  return store.onDidChange(({ facts, finished }) => {
    if (!finished || !facts.followed) {
      return;
    }
    const taskId = facts.taskId;
    const objective = taskId
      ? getTask(taskId).then(
          (t) => (typeof t.objective === 'string' ? t.objective : undefined),
          () => undefined,
        )
      : Promise.resolve(undefined);
    const canReview = reviewable ? reviewable(facts.runId).catch(() => false) : Promise.resolve(false);
    void Promise.all([objective, canReview]).then(([text, review]) =>
      showRunFinished(facts.runId, facts.status ?? '', text, review),
    );
  });
}

function showRunFinished(runId: string, status: string, objective: string | undefined, canReview: boolean): void {
  const watch = vscode.l10n.t('Watch Run');
  const artifacts = vscode.l10n.t('Show Artifacts');
  const review = vscode.l10n.t('Review Changes');
  const what = objective ? `"${shortenText(objective, OBJECTIVE_MAX)}"` : runId;
  const kind = statusKind(status);
  const message =
    kind === 'completed'
      ? vscode.l10n.t('Run {0} completed.', what)
      : kind === 'failed'
        ? vscode.l10n.t('Run {0} failed.', what)
        : kind === 'cancelled'
          ? vscode.l10n.t('Run {0} was cancelled.', what)
          : vscode.l10n.t('Run {0} ended with status "{1}".', what, status);
  const show = kind === 'failed' ? notify.warn : notify.info;
  const actions = canReview ? [review, watch, artifacts] : [watch, artifacts];
  void show(message, ...actions).then((choice) => {
    if (choice === review) {
      void vscode.commands.executeCommand(Commands.reviewChanges, { runId });
    }
    if (choice === watch) {
      void vscode.commands.executeCommand(Commands.watchRun, { runId, objective });
    }
    if (choice === artifacts) {
      void vscode.commands.executeCommand(Commands.showArtifacts, { runId });
    }
  });
}
