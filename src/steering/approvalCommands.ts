// Deciding a tool call that waits for a person, from the "Needs you" view, a notification, the
// run panel's card, or automation:
//   agentRuntime.approveToolCall  an approval row | { approvalId, note? }   (note given: no input box)
//   agentRuntime.denyToolCall     an approval row | { approvalId, note? }
//   agentRuntime.decideApproval   { approvalId, decision: 'approve' | 'deny', note? }
// A decision made elsewhere first (409) shows what happened there ("Approved elsewhere at ...").
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { conflictApproval, SteeringConflict } from '../api/steering';
import type { ApprovalDecision, ApprovalRecord } from '../api/types';
import { decidedElsewhere } from '../common/approvalText';
import { formatShortLocalTime } from '../common/format';
import { Commands } from '../common/ids';
import { notify } from '../common/notify';
import type { Translate } from '../common/translate';
import type { PendingApprovals } from './pendingApprovals';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { reportUnsupported, type SteeringDeps } from './steeringCommands';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

interface DecisionTarget {
  approvalId: string;
  given: Record<string, unknown>;
}

function targetOf(arg: unknown): DecisionTarget | undefined {
  if (typeof arg === 'string' && arg !== '') return { approvalId: arg, given: {} };
  if (typeof arg !== 'object' || arg === null) return undefined;
  const given = arg as Record<string, unknown>;
  if (typeof given.approvalId === 'string' && given.approvalId !== '') return { approvalId: given.approvalId, given };
  const record = given.approval as { id?: unknown } | undefined;
  if (typeof record?.id === 'string' && record.id !== '') return { approvalId: record.id, given: {} };
  return undefined;
}

export function registerApprovalCommands(deps: CommandDeps, steering: SteeringDeps, pending: PendingApprovals): vscode.Disposable[] {
  const decide = async (target: DecisionTarget, decision: ApprovalDecision): Promise<ApprovalRecord | undefined> => {
    const note = 'note' in target.given ? (typeof target.given.note === 'string' ? target.given.note : undefined) : await askNote(decision);
    if (note === null) return undefined;
    try {
      const decided = await deps.service.client.decideApproval(target.approvalId, { decision, note });
      pending.forget(target.approvalId);
      void pending.refresh();
      return decided;
    } catch (err) {
      const current = conflictApproval(err);
      if (isApiError(err, 'conflict') && (err.code === SteeringConflict.alreadyDecided || err.code === SteeringConflict.expired)) {
        pending.forget(target.approvalId);
        void pending.refresh();
        void notify.info(decidedElsewhere(current?.status ?? (err.code === SteeringConflict.expired ? 'expired' : undefined), current?.decided_at, t, (iso) => formatShortLocalTime(iso)));
        return current;
      }
      if (isApiError(err, 'not_found')) {
        void pending.refresh();
        throw new UserFacingError(t('This approval is gone; the list was refreshed.'));
      }
      if (reportUnsupported(err, steering, t('approvals'))) return undefined;
      throw err;
    }
  };

  const fromArg = (decision?: ApprovalDecision) => async (arg?: unknown) => {
    const target = targetOf(arg);
    if (!target) throw new UserFacingError(t('Choose an approval in the Needs You view.'));
    const chosen = decision ?? target.given.decision;
    if (chosen !== 'approve' && chosen !== 'deny') throw new UserFacingError(t('A decision is approve or deny.'));
    return decide(target, chosen);
  };

  return [
    vscode.commands.registerCommand(Commands.approveToolCall, deps.guard('Approve tool call', fromArg('approve'))),
    vscode.commands.registerCommand(Commands.denyToolCall, deps.guard('Deny tool call', fromArg('deny'))),
    vscode.commands.registerCommand(Commands.decideApproval, deps.guard('Decide tool call', fromArg())),
    vscode.commands.registerCommand(Commands.refreshApprovals, () => pending.refresh()),
  ];
}

/** null on Escape (nothing is decided); undefined for no note. */
async function askNote(decision: ApprovalDecision): Promise<string | undefined | null> {
  const value = await vscode.window.showInputBox({
    title: decision === 'approve' ? t('Approve the tool call') : t('Deny the tool call'),
    prompt: t('An optional note for the agent and the log (Enter to go on without one, Escape to cancel).'),
    ignoreFocusOut: true,
  });
  if (value === undefined) return null;
  return value.trim() === '' ? undefined : value;
}
