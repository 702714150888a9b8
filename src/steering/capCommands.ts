// Deciding a run that waits at its spending cap (docs/PROTOCOL.md, Budgets), from a Needs You row
// or its notification:
//   agentRuntime.raiseCap      a run-at-cap row | { runId, amount? }
//   agentRuntime.stopRunAtCap  a run-at-cap row | { runId, confirm?: false }
// Both first show the whole truth, read fresh: what the run spent against its cap and on what
// (the steps and tool calls since the last raise; a long list opens whole in a read-only
// editor), then the person chooses Raise the Cap... (an amount they type, prefilled, checked with
// the money type and above the cost) or Stop the Run (cancel). `amount` and `confirm: false`
// (no question at all) are honoured only in the extension-host test run; from anyone else they
// are ignored and the person is asked. No language model tool or chat participant has a way here
// (ToolClient has no raiseBudget). One Idempotency-Key per decision; the run is re-read just
// before the raise and after a 409, and the person is told what the server now says: a cap
// raised in another window is never raised again from here.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { SteeringConflict } from '../api/steering';
import type { RunRecord } from '../api/types';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { questionSkipped } from '../commandSupport/questionSkip';
import { Commands } from '../common/ids';
import { inert } from '../common/inertText';
import { checkMoney, compareMoney, describeMoney, moneyText, toWire } from '../common/money';
import { askModal, notify } from '../common/notify';
import type { Translate } from '../common/translate';
import { statusLabel } from '../runEvents/runStatus';
import { readBudgetSettings } from '../runs/budgetSettings';
import type { RunStore } from '../runs/runStore';
import { SPEND_DOCUMENT_SCHEME, WholeCallDocuments } from './approvalReview';
import {
  capDecisionLines,
  capFacts,
  checkRaise,
  DIALOG_SPENT_ITEMS,
  isWaitingAtCap,
  raisePrefill,
  runCost,
  spendDocument,
  spendDocumentTitle,
  type SpendSinceDecision,
} from './capDecision';
import { readSpendAtCap } from './readSpend';
import type { RunsAtCap } from './runsAtCap';
import { reportUnsupported, type SteeringDeps } from './steeringCommands';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

type Choice = 'raise' | 'stop';

function runIdOf(arg: unknown): { runId: string; given: Record<string, unknown> } | undefined {
  if (typeof arg === 'string' && arg !== '') {
    return { runId: arg, given: {} };
  }
  if (typeof arg !== 'object' || arg === null) {
    return undefined;
  }
  const given = arg as Record<string, unknown>;
  if (typeof given.runId === 'string' && given.runId !== '') {
    return { runId: given.runId, given };
  }
  const run = given.run as { id?: unknown } | undefined;
  return typeof run?.id === 'string' && run.id !== '' ? { runId: run.id, given: {} } : undefined;
}

/** What the server says of a run now, in one sentence: status, cost, cap. */
export function runNowSentence(run: RunRecord): string {
  const status = statusLabel(run.status, t) ?? t('unknown');
  const cost = runCost(run) === undefined ? t('unknown') : describeMoney(checkMoney(runCost(run)), t);
  const cap = run.budget === undefined ? t('none') : describeMoney(checkMoney(run.budget), t);
  return t('The server now says: the run is {0}, has spent {1}, and its cap is {2}.', status, cost, cap);
}

export function registerCapCommands(
  deps: CommandDeps,
  steering: SteeringDeps,
  atCap: RunsAtCap,
  runs: RunStore,
): vscode.Disposable[] {
  const documents = new WholeCallDocuments(SPEND_DOCUMENT_SCHEME);

  const objectiveOf = async (run: RunRecord): Promise<string | undefined> => {
    if (typeof run.task_id !== 'string') {
      return undefined;
    }
    try {
      const objective = (await deps.service.client.getTask(run.task_id)).objective;
      return typeof objective === 'string' ? objective : undefined;
    } catch {
      return undefined;
    }
  };

  /** The run as the server holds it now; it is noted in the run store and the list follows. */
  const reread = async (runId: string): Promise<RunRecord> => {
    const run = await deps.service.client.getRun(runId);
    runs.noteRecord(run);
    if (!isWaitingAtCap(run)) {
      atCap.forget(runId);
    }
    void atCap.refresh();
    return run;
  };

  /** The whole truth, then the person's choice; undefined when dismissed. */
  const ask = async (run: RunRecord, skipTo: Choice | undefined): Promise<Choice | undefined> => {
    const [objective, spend] = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: t('Reading what the run spent...'),
        cancellable: true,
      },
      async (_progress, token) => {
        const stop = new AbortController();
        const sub = token.onCancellationRequested(() => stop.abort());
        try {
          return await Promise.all([
            objectiveOf(run),
            readSpendAtCap(deps.service.client, run, { signal: stop.signal }).catch((): undefined => undefined),
          ]);
        } finally {
          sub.dispose();
        }
      },
    );
    const facts = capFacts(run, objective);
    const lines = capDecisionLines(facts, spend, t);
    const raise = t('Raise the Cap...');
    const stop = t('Stop the Run');
    const message = t('This run reached its spending cap and waits for you.');
    if (deps.trustedAutomation) {
      deps.budgets.askedInTests.push({ kind: 'atCap', lines: [message, ...lines] });
    }
    const whole = spend && spend.items.length + spend.leftOut > DIALOG_SPENT_ITEMS ? spend : undefined;
    const buttons = whole ? [t('Show What It Spent On'), raise, stop] : [raise, stop];
    if (skipTo) {
      return skipTo; // the test run only (see decide)
    }
    const picked = await askModal('warn', message, lines, ...buttons);
    if (picked === buttons[0] && whole) {
      return showWhole(facts, whole, raise, stop);
    }
    return picked === raise ? 'raise' : picked === stop ? 'stop' : undefined;
  };

  const showWhole = async (
    facts: ReturnType<typeof capFacts>,
    spend: SpendSinceDecision,
    raise: string,
    stop: string,
  ): Promise<Choice | undefined> => {
    await documents.showTitled(
      spendDocumentTitle(facts.objective, spend.sinceRaise, t),
      spendDocument(facts, spend, t),
      'plaintext',
    );
    // Not modal: the editor can be scrolled while this waits.
    const picked = await notify.warn(
      t('Decide on the run shown in the editor: raise its cap or stop it.'),
      raise,
      stop,
    );
    return picked === raise ? 'raise' : picked === stop ? 'stop' : undefined;
  };

  const raiseTo = async (run: RunRecord, given: Record<string, unknown>): Promise<RunRecord | undefined> => {
    const cap = run.budget === undefined ? undefined : checkMoney(run.budget);
    const cost = runCost(run) === undefined ? undefined : checkMoney(runCost(run));
    const currency =
      (cap?.valid ? cap.currency : undefined) ??
      (cost?.valid ? cost.currency : undefined) ??
      readBudgetSettings().currency;
    let typed: string | undefined;
    if (deps.trustedAutomation && typeof given.amount === 'string') {
      typed = given.amount;
    } else {
      if ('amount' in given) {
        deps.log.warn('Raise the cap: an amount passed by a command was ignored; asking the user instead.');
      }
      const prefill = raisePrefill(cap, cost, readBudgetSettings().perRun);
      typed = await vscode.window.showInputBox({
        title: t('Raise the cap of this run ({0})', currency),
        prompt: t(
          'It has spent {0} of its cap of {1}. The new cap must be above what it spent.',
          cost ? describeMoney(cost, t) : t('unknown'),
          cap ? describeMoney(cap, t) : t('unknown'),
        ),
        value: prefill && prefill.currency === currency ? moneyText(prefill).split(' ')[0] : '',
        ignoreFocusOut: true,
        validateInput: (value) => checkRaise(value, currency, cost, t).problem,
      });
    }
    if (typed === undefined) {
      return undefined;
    }
    const checked = checkRaise(typed, currency, cost, t);
    if (!checked.ok) {
      throw new UserFacingError(t('Nothing was sent: {0}', checked.problem));
    }
    // Re-read just before: a cap raised (or a run stopped) in another window is told, not raised again.
    const now = await reread(run.id);
    const capNow = now.budget === undefined ? undefined : checkMoney(now.budget);
    const sameCap =
      cap?.valid && capNow?.valid
        ? compareMoney(cap, capNow) === 0
        : JSON.stringify(now.budget) === JSON.stringify(run.budget);
    if (!isWaitingAtCap(now) || !sameCap) {
      void notify.info(t('Nothing was raised: the run changed meanwhile. {0}', runNowSentence(now)));
      return now;
    }
    const costNow = runCost(now) === undefined ? undefined : checkMoney(runCost(now));
    const stillAbove = checkRaise(typed, currency, costNow, t);
    if (!stillAbove.ok) {
      void notify.info(t('Nothing was raised: {0} {1}', stillAbove.problem, runNowSentence(now)));
      return now;
    }
    const idempotencyKey = globalThis.crypto.randomUUID();
    try {
      const raised = await deps.service.client.raiseBudget(run.id, toWire(checked.ok), idempotencyKey);
      runs.noteRecord(raised);
      atCap.forget(run.id);
      void atCap.refresh();
      void notify.info(t('The cap is now {0}; the run goes on.', describeMoney(checkMoney(raised.budget), t)));
      return raised;
    } catch (err) {
      if (
        isApiError(err, 'conflict') &&
        (err.code === SteeringConflict.budgetTooLow || err.code === SteeringConflict.runNotActive)
      ) {
        const current = await reread(run.id).catch(() => undefined);
        const why =
          err.code === SteeringConflict.budgetTooLow
            ? t('The server refused the new cap of {0}: it is not above what the run has spent.', moneyText(checked.ok))
            : t('The run has already ended; its cap cannot change.');
        void notify.warn(current ? `${why} ${runNowSentence(current)}` : why);
        return current;
      }
      if (reportUnsupported(err, steering, t('budgets'), deps.service.client.baseUrl)) {
        return undefined;
      }
      throw err;
    }
  };

  const stopRun = async (run: RunRecord): Promise<RunRecord | undefined> => {
    try {
      const cancelled = await deps.service.client.cancelRun(run.id);
      runs.noteRecord(cancelled);
      atCap.forget(run.id);
      void atCap.refresh();
      steering.approvals.refresh();
      return cancelled;
    } catch (err) {
      if (isApiError(err, 'conflict') && err.code === SteeringConflict.runNotActive) {
        const current = await reread(run.id).catch(() => undefined);
        void notify.info(
          current
            ? `${t('The run already ended; there was nothing to stop.')} ${runNowSentence(current)}`
            : t('The run already ended; there was nothing to stop.'),
        );
        return current;
      }
      if (reportUnsupported(err, steering, t('cancelling runs'), deps.service.client.baseUrl)) {
        return undefined;
      }
      throw err;
    }
  };

  const decide = (preferred: Choice) => async (arg?: unknown) => {
    const target = runIdOf(arg);
    if (!target) {
      throw new UserFacingError(t('Choose a run that waits at its cap in the Needs You view.'));
    }
    let run: RunRecord;
    try {
      run = await reread(target.runId);
    } catch (err) {
      if (isApiError(err, 'not_found')) {
        atCap.forget(target.runId);
        throw new UserFacingError(t('This run is gone; the list was refreshed.'));
      }
      throw err;
    }
    if (!isWaitingAtCap(run)) {
      void notify.info(t('This run no longer waits at its cap. {0}', runNowSentence(run)));
      return run;
    }
    const skip =
      deps.trustedAutomation &&
      (preferred === 'stop' ? questionSkipped(true, target.given) : typeof target.given.amount === 'string');
    const choice = await ask(run, skip ? preferred : undefined);
    if (choice === 'raise') {
      return raiseTo(run, target.given);
    }
    if (choice === 'stop') {
      return stopRun(run);
    }
    return undefined;
  };

  return [
    documents,
    vscode.commands.registerCommand(Commands.raiseCap, deps.guard('Raise the cap', decide('raise'))),
    vscode.commands.registerCommand(Commands.stopRunAtCap, deps.guard('Stop the run at its cap', decide('stop'))),
  ];
}

/** The notification's text when a run starts waiting at its cap. */
export function atCapNotice(run: RunRecord): string {
  const cap = run.budget === undefined ? t('unknown') : describeMoney(checkMoney(run.budget), t);
  return t('A run reached its spending cap of {0} and waits for you.', inert(cap, 80));
}
