// Wires steering into the extension (one call from activate()): the pending approvals list and
// its "Needs you" view, the notification, the commands (cancel, resume, fork, approve, deny),
// and what keeps them current (run status changes, another service, a not-offered answer).
import type * as vscode from 'vscode';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { ContextKeys } from '../common/ids';
import { setContextCommand } from '../common/setContext';
import { steeringSupport } from '../runPanel/steeringSupport';
import type { RunStore } from '../runs/runStore';
import { registerApprovalCommands } from './approvalCommands';
import { announceApprovals } from './approvalNotice';
import { ApprovalsView } from './approvalsView';
import { fetchPendingApprovals, PendingApprovals } from './pendingApprovals';
import { registerSteeringCommands, type SteeringDeps } from './steeringCommands';

export interface Steering {
  pending: PendingApprovals;
  view: ApprovalsView;
  disposables: vscode.Disposable[];
}

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
  const view = new ApprovalsView(pending, () => service.isSignedIn);
  needsYou.visible = () => view.visible;
  const steeringDeps: SteeringDeps = {
    runs,
    approvals: { refresh: () => void pending.refresh() },
    setContext: setContextCommand,
  };
  let serviceUrl = service.serviceUrl;
  const disposables: vscode.Disposable[] = [
    pending,
    view,
    announceApprovals(pending),
    ...registerSteeringCommands(deps, steeringDeps),
    ...registerApprovalCommands(deps, steeringDeps, pending),
    // A run that starts or stops waiting (a poll, a panel's approval.requested / .resolved)
    // changes the list within that one event; other changes only say whether to keep polling.
    runs.onDidChange((change) => {
      if (change.statusChanged) {
        void pending.refresh().catch(() => undefined);
      } else {
        pending.update();
      }
    }),
    // A task the Tasks view polls starts or stops waiting: reload now rather than at the next
    // poll (or at all, while Needs You is closed: its badge and the notification read this list).
    taskWaitingChanged(() => void pending.refresh().catch(() => undefined)),
    service.onDidChange(() => {
      if (service.serviceUrl !== serviceUrl) {
        serviceUrl = service.serviceUrl;
        // Back on a service that refused steering earlier: its menus stay without it.
        setContextCommand(ContextKeys.steeringUnsupported, !steeringSupport.offered(serviceUrl));
      }
      pending.reset();
      if (service.isSignedIn) {
        void pending.refresh().catch(() => undefined);
      }
    }),
  ];
  if (service.isSignedIn) {
    void pending.refresh().catch(() => undefined);
  }
  return { pending, view, disposables };
}
