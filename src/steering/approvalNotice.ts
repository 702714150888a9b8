// A notification when a run starts waiting for a person: Approve / Deny / Open (Approve shows the
// whole call first, see approvalReview.ts); for a run at its spending cap, Decide... / Open
// (Decide shows what it spent on first, see capCommands.ts). VS Code shows it
// whether or not the window has focus, and screen readers announce it (VS Code 1.100 gives
// extensions no API to play an accessibility signal). On the first load, one summary instead of
// one notification per approval that was already waiting (a single one keeps its actions).
import * as vscode from 'vscode';
import type { ApprovalRecord, RunRecord } from '../api/types';
import { shortArguments } from '../common/approvalText';
import { Commands, ViewIds } from '../common/ids';
import { inert } from '../common/inertText';
import { notify } from '../common/notify';
import { atCapNotice } from './capCommands';
import type { PendingApprovals } from './pendingApprovals';
import type { RunsAtCap } from './runsAtCap';

/** More new approvals than this at once get one summary, not a stack of notifications. */
const MAX_SEPARATE = 3;

export function announceApprovals(pending: PendingApprovals): vscode.Disposable {
  return pending.onDidChange((change) => {
    if (change.firstLoad) {
      // One waiting call gets its own actions; several get one summary pointing at the view.
      if (change.pending.length === 1) {
        void one(change.pending[0]);
      } else if (change.pending.length > 1) {
        void summary(change.pending.length);
      }
      return;
    }
    if (change.added.length > MAX_SEPARATE) {
      void summary(change.added.length);
    } else {
      for (const approval of change.added) {
        void one(approval);
      }
    }
  });
}

async function one(approval: ApprovalRecord): Promise<void> {
  const approve = vscode.l10n.t('Approve');
  const deny = vscode.l10n.t('Deny');
  const open = vscode.l10n.t('Open');
  // A summary that says what it left out; Approve shows the whole call before anything is sent.
  const args = shortArguments(approval.arguments, 120, (message, ...values) => vscode.l10n.t(message, ...values));
  const tool = inert(approval.tool ?? vscode.l10n.t('A tool call'), 80);
  const message = args
    ? vscode.l10n.t('The agent waits for your approval: {0} ({1}).', tool, args)
    : vscode.l10n.t('The agent waits for your approval: {0}.', tool);
  const choice = await notify.warn(message, approve, deny, open);
  if (choice === approve) {
    await vscode.commands.executeCommand(Commands.approveToolCall, { approvalId: approval.id });
  } else if (choice === deny) {
    await vscode.commands.executeCommand(Commands.denyToolCall, { approvalId: approval.id });
  } else if (choice === open && approval.run_id) {
    await vscode.commands.executeCommand(Commands.watchRun, { runId: approval.run_id });
  }
}

async function summary(count: number): Promise<void> {
  const show = vscode.l10n.t('Show');
  const message =
    count === 1
      ? vscode.l10n.t('1 tool call waits for your approval.')
      : vscode.l10n.t('{0} tool calls wait for your approval.', count);
  if ((await notify.warn(message, show)) === show) {
    await vscode.commands.executeCommand(`${ViewIds.approvals}.focus`);
  }
}

/** A notification when a run starts waiting at its cap: Decide... (the whole truth first) / Open. */
export function announceRunsAtCap(atCap: RunsAtCap): vscode.Disposable {
  return atCap.onDidChange((change) => {
    const fresh = change.firstLoad ? change.runs : change.added;
    if (fresh.length > MAX_SEPARATE) {
      void capSummary(fresh.length);
      return;
    }
    for (const run of fresh) {
      void oneAtCap(run);
    }
  });
}

async function oneAtCap(run: RunRecord): Promise<void> {
  const decide = vscode.l10n.t('Decide...');
  const open = vscode.l10n.t('Open');
  const choice = await notify.warn(atCapNotice(run), decide, open);
  if (choice === decide) {
    await vscode.commands.executeCommand(Commands.raiseCap, { runId: run.id });
  } else if (choice === open) {
    await vscode.commands.executeCommand(Commands.watchRun, { runId: run.id });
  }
}

async function capSummary(count: number): Promise<void> {
  const show = vscode.l10n.t('Show');
  if ((await notify.warn(vscode.l10n.t('{0} runs wait at their spending cap.', count), show)) === show) {
    await vscode.commands.executeCommand(`${ViewIds.approvals}.focus`);
  }
}
