// Deciding a tool call that waits for a person, from the "Needs you" view, a notification, the
// run panel's card, or automation:
//   agentRuntime.approveToolCall  an approval row | { approvalId, note? }
//   agentRuntime.denyToolCall     an approval row | { approvalId, note? }
//   agentRuntime.decideApproval   { approvalId, decision: 'approve' | 'deny', note? }
// Approving first shows the whole call as the server holds it now (approvalReview.ts): tool,
// run, task, reason and every argument, then Approve / Approve with Note... / Deny. A `note`
// argument (no prompt at all) is honoured only in the extension-host test run (trusted
// automation, as Sign In's key); from anyone else it is ignored and the person is asked. The run
// panel's card passes what it shows (`expect`): the approval must belong to the panel's run and
// carry the card's tool and arguments, or nothing is decided. A decision made elsewhere first
// (409) shows what happened there ("Approved elsewhere at ...") and is not sent again.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { conflictApproval, SteeringConflict } from '../api/steering';
import type { ApprovalDecision, ApprovalRecord } from '../api/types';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { decidedElsewhere } from '../common/approvalText';
import { formatShortLocalTime } from '../common/format';
import { Commands } from '../common/ids';
import { inert } from '../common/inertText';
import { notify } from '../common/notify';
import type { Translate } from '../common/translate';
import { argumentsJson as cardArgumentsJson } from '../runEvents/steeringInfo';
import { reviewCall, WholeCallDocuments } from './approvalReview';
import type { PendingApprovals } from './pendingApprovals';
import { reportUnsupported, type SteeringDeps } from './steeringCommands';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

/** What the run panel's card shows of the call it decides (see runPanel.ts). */
export interface CardExpectation {
  runId: string;
  tool: string;
  /** The card's arguments text (steeringInfo.argumentsJson). */
  argumentsJson: string;
  /** The card shows the call in part (a cut event): only its run can be checked; the dialog shows the whole. */
  cut?: boolean;
}

interface DecisionTarget {
  approvalId: string;
  given: Record<string, unknown>;
}

function targetOf(arg: unknown): DecisionTarget | undefined {
  if (typeof arg === 'string' && arg !== '') {
    return { approvalId: arg, given: {} };
  }
  if (typeof arg !== 'object' || arg === null) {
    return undefined;
  }
  const given = arg as Record<string, unknown>;
  if (typeof given.approvalId === 'string' && given.approvalId !== '') {
    return { approvalId: given.approvalId, given };
  }
  const record = given.approval as { id?: unknown } | undefined;
  if (typeof record?.id === 'string' && record.id !== '') {
    return { approvalId: record.id, given: {} };
  }
  return undefined;
}

function expectationOf(given: Record<string, unknown>): CardExpectation | undefined {
  const e = given.expect as Partial<CardExpectation> | undefined;
  if (typeof e !== 'object' || e === null) {
    return undefined;
  }
  return typeof e.runId === 'string' && typeof e.tool === 'string' && typeof e.argumentsJson === 'string'
    ? { runId: e.runId, tool: e.tool, argumentsJson: e.argumentsJson, cut: e.cut === true }
    : undefined;
}

/** Why the approval the server holds is not the call the card shows; undefined when it is. */
export function cardMismatch(approval: ApprovalRecord, expect: CardExpectation): string | undefined {
  if (approval.run_id !== expect.runId) {
    return typeof approval.run_id === 'string'
      ? t(
          'This approval belongs to another run ({0}), not to the run this panel shows. Nothing was decided.',
          inert(approval.run_id, 80),
        )
      : t('The server does not say which run this approval belongs to. Nothing was decided.');
  }
  if (expect.cut) {
    return undefined;
  }
  if (
    (typeof approval.tool === 'string' ? approval.tool : '?') !== expect.tool ||
    cardArgumentsJson(approval.arguments) !== expect.argumentsJson
  ) {
    return t('The server holds another call under this approval than the panel shows. Nothing was decided.');
  }
  return undefined;
}

export function registerApprovalCommands(
  deps: CommandDeps,
  steering: SteeringDeps,
  pending: PendingApprovals,
): vscode.Disposable[] {
  const documents = new WholeCallDocuments();

  /** Sends one decision; a 409 (decided elsewhere, expired) is told, never sent again. */
  const send = async (
    approvalId: string,
    decision: ApprovalDecision,
    note: string | undefined,
  ): Promise<ApprovalRecord | undefined> => {
    try {
      const decided = await deps.service.client.decideApproval(approvalId, { decision, note });
      pending.forget(approvalId);
      void pending.refresh();
      return decided;
    } catch (err) {
      const current = conflictApproval(err);
      if (
        isApiError(err, 'conflict') &&
        (err.code === SteeringConflict.alreadyDecided || err.code === SteeringConflict.expired)
      ) {
        return decidedAlready(
          approvalId,
          current?.status ?? (err.code === SteeringConflict.expired ? 'expired' : undefined),
          current,
        );
      }
      return notFoundOrUnsupported(err);
    }
  };

  const decidedAlready = (
    approvalId: string,
    status: unknown,
    current: ApprovalRecord | undefined,
  ): ApprovalRecord | undefined => {
    pending.forget(approvalId);
    void pending.refresh();
    void notify.info(decidedElsewhere(status, current?.decided_at, t, (iso) => formatShortLocalTime(iso)));
    return current;
  };

  const notFoundOrUnsupported = (err: unknown): undefined => {
    if (isApiError(err, 'not_found')) {
      void pending.refresh();
      throw new UserFacingError(t('This approval is gone; the list was refreshed.'));
    }
    if (reportUnsupported(err, steering, t('approvals'))) {
      return undefined;
    }
    throw err;
  };

  /** The approval as the server holds it now; undefined when the server does not offer approvals. */
  const read = async (approvalId: string): Promise<ApprovalRecord | undefined> => {
    try {
      return await deps.service.client.getApproval(approvalId);
    } catch (err) {
      return notFoundOrUnsupported(err);
    }
  };

  /** The objective of the approval's task, for the person to see what the run is for; best effort. */
  const objectiveOf = async (approval: ApprovalRecord): Promise<string | undefined> => {
    try {
      let taskId = typeof approval.task_id === 'string' ? approval.task_id : undefined;
      if (taskId === undefined && typeof approval.run_id === 'string') {
        const run = await deps.service.client.getRun(approval.run_id);
        taskId = typeof run.task_id === 'string' ? run.task_id : undefined;
      }
      if (taskId === undefined) {
        return undefined;
      }
      const objective = (await deps.service.client.getTask(taskId)).objective;
      return typeof objective === 'string' ? objective : undefined;
    } catch (err) {
      deps.log.warn(
        `Approvals: the task of ${approval.id} could not be read: ${err instanceof Error ? err.message : String(err)}`,
      );
      return undefined;
    }
  };

  /** A person decides: Deny asks for an optional note; Approve shows the whole call first. */
  const ask = async (
    approvalId: string,
    preferred: ApprovalDecision,
    expect: CardExpectation | undefined,
  ): Promise<ApprovalRecord | undefined> => {
    if (preferred === 'deny' && !expect) {
      const note = await askNote('deny');
      return note === null ? undefined : send(approvalId, 'deny', note);
    }
    const approval = await read(approvalId);
    if (!approval) {
      return undefined;
    }
    if (expect) {
      const why = cardMismatch(approval, expect);
      if (why !== undefined) {
        deps.log.warn(
          `Approvals: the run panel of ${expect.runId} asked to decide ${approvalId}, which the server holds for ${String(approval.run_id)}: refused`,
        );
        throw new UserFacingError(why);
      }
    }
    if (approval.status !== undefined && approval.status !== 'pending') {
      return decidedAlready(approvalId, approval.status, approval);
    }
    let decision: ApprovalDecision = 'deny';
    let note: string | undefined | null;
    if (preferred === 'deny') {
      note = await askNote('deny');
    } else {
      const choice = await reviewCall(approval, await objectiveOf(approval), documents);
      if (choice === undefined) {
        return undefined;
      }
      decision = choice === 'deny' ? 'deny' : 'approve';
      note = choice === 'approve' ? undefined : await askNote(decision);
    }
    return note === null ? undefined : send(approvalId, decision, note);
  };

  const fromArg = (decision?: ApprovalDecision) => async (arg?: unknown) => {
    const target = targetOf(arg);
    if (!target) {
      throw new UserFacingError(t('Choose an approval in the Needs You view.'));
    }
    const chosen = decision ?? target.given.decision;
    if (chosen !== 'approve' && chosen !== 'deny') {
      throw new UserFacingError(t('A decision is approve or deny.'));
    }
    const expect = expectationOf(target.given);
    if ('note' in target.given) {
      const note = typeof target.given.note === 'string' ? target.given.note : undefined;
      // Only the test run may decide without a person; anyone else's note is dropped and the person asked.
      if (deps.trustedAutomation && !expect) {
        return send(target.approvalId, chosen, note);
      }
      if (!deps.trustedAutomation) {
        deps.log.warn('Approvals: a note passed by a command was ignored; asking the user instead.');
      }
    }
    return ask(target.approvalId, chosen, expect);
  };

  return [
    documents,
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
  if (value === undefined) {
    return null;
  }
  return value.trim() === '' ? undefined : value;
}
