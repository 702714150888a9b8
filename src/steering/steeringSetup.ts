// Wires steering into the extension (one call from activate()): the pending approvals list and
// the runs waiting at their spending cap, their "Needs you" view, the notifications, the commands
// (cancel, resume, fork, approve, deny, raise the cap, stop the run), and what keeps them current
// (run status changes, another service, a not-offered answer).
import type * as vscode from 'vscode';
import type { RunRecord } from '../api/types';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { ContextKeys } from '../common/ids';
import { setContextCommand } from '../common/setContext';
import { steeringSupport } from '../runPanel/steeringSupport';
import type { RunStore } from '../runs/runStore';
import { registerApprovalCommands } from './approvalCommands';
import { announceApprovals, announceRunsAtCap } from './approvalNotice';
import { ApprovalsView } from './approvalsView';
import { registerCapCommands } from './capCommands';
import { fetchPendingApprovals, PendingApprovals } from './pendingApprovals';
import { fetchRunsAtCap, RunsAtCap } from './runsAtCap';
import { registerSteeringCommands, type SteeringDeps } from './steeringCommands';

export interface Steering {
  pending: PendingApprovals;
  atCap: RunsAtCap;
  view: ApprovalsView;
  disposables: vscode.Disposable[];
}

/** Task objectives kept for the labels of runs at their cap. */
const OBJECTIVES_KEPT = 200;

export function setUpSteering(
  deps: CommandDeps,
  runs: RunStore,
  onAuthError: (err: unknown) => void,
  taskWaitingChanged: vscode.Event<void>,
): Steering {
  const { service } = deps;
  const needsYou = { visible: (): boolean => false }; // the view is made below: it reads this list
  const pending = new PendingApprovals({
    fetchPending: (signal) => fetchPendingApprovals(service.client, signal),
    // While Needs You is open it keeps itself current (a run started elsewhere has no other sign
    // here); otherwise only while a run followed here is going.
    watching: () => service.isSignedIn && (runs.activeRuns().length > 0 || needsYou.visible()),
    log: deps.log,
    onAuthError,
    onUnsupported: () => setContextCommand(ContextKeys.steeringUnsupported, true),
  });
  const atCap = new RunsAtCap({
    fetch: (signal) => fetchRunsAtCap(service.client, () => runs.knownRecords(), signal),
    watching: () => service.isSignedIn && (runs.activeRuns().length > 0 || needsYou.visible()),
    log: deps.log,
  });
  // The rows' labels: each task's objective, read once per task (at most OBJECTIVES_KEPT kept).
  const objectives = new Map<string, string>();
  const objectiveOf = (run: RunRecord): string | undefined =>
    typeof run.task_id === 'string' ? objectives.get(run.task_id) : undefined;
  const view = new ApprovalsView(pending, () => service.isSignedIn, atCap, objectiveOf);
  needsYou.visible = () => view.visible;
  const learnObjectives = async (list: readonly RunRecord[]): Promise<void> => {
    const missing = [
      ...new Set(list.map((r) => r.task_id).filter((id): id is string => typeof id === 'string')),
    ].filter((id) => !objectives.has(id));
    for (const taskId of missing) {
      const objective = await service.client.getTask(taskId).then(
        (task) => (typeof task.objective === 'string' ? task.objective : undefined),
        () => undefined,
      );
      if (objective !== undefined) {
        objectives.set(taskId, objective);
        if (objectives.size > OBJECTIVES_KEPT) {
          objectives.delete(objectives.keys().next().value as string);
        }
      }
    }
    if (missing.length > 0) {
      view.relabel();
    }
  };
  const refreshBoth = (): void => {
    void pending.refresh().catch(() => undefined);
    void atCap.refresh().catch(() => undefined);
  };
  const steeringDeps: SteeringDeps = {
    runs,
    approvals: { refresh: refreshBoth },
    setContext: setContextCommand,
  };
  let serviceUrl = service.serviceUrl;
  const disposables: vscode.Disposable[] = [
    pending,
    atCap,
    view,
    announceApprovals(pending),
    announceRunsAtCap(atCap),
    atCap.onDidChange((change) => void learnObjectives(change.runs)),
    ...registerSteeringCommands(deps, steeringDeps),
    ...registerApprovalCommands(deps, steeringDeps, pending),
    ...registerCapCommands(deps, steeringDeps, atCap, runs),
    // A run that starts or stops waiting (a poll, a panel's approval.requested / .resolved)
    // changes the list within that one event; other changes only say whether to keep polling.
    runs.onDidChange((change) => {
      if (change.statusChanged) {
        refreshBoth();
      } else {
        pending.update();
        atCap.update();
      }
    }),
    // A task the Tasks view polls starts or stops waiting: reload now rather than at the next
    // poll (or at all, while Needs You is closed: its badge and the notification read this list).
    taskWaitingChanged(refreshBoth),
    service.onDidChange(() => {
      if (service.serviceUrl !== serviceUrl) {
        serviceUrl = service.serviceUrl;
        // Back on a service that refused steering earlier: its menus stay without it.
        setContextCommand(ContextKeys.steeringUnsupported, !steeringSupport.offered(serviceUrl));
      }
      pending.reset();
      atCap.reset();
      objectives.clear();
      if (service.isSignedIn) {
        refreshBoth();
      }
    }),
  ];
  if (service.isSignedIn) {
    refreshBoth();
  }
  return { pending, atCap, view, disposables };
}
