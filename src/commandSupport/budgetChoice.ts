// The cap a new run gets, chosen before anything starts (docs/PROTOCOL.md, Budgets). A person
// sees the cap (agentRuntime.budget.perRun), what this workspace's last runs cost, the month's
// spend and the quota left, and may change the cap; a task that would pass
// agentRuntime.budget.monthly is stopped, saying by how much, and only a person may start it
// anyway. A language model tool, the chat participant or another extension gets the setting's cap
// and is refused at the monthly limit: nothing they call decides about money.
import * as vscode from 'vscode';
import type { Money } from '../api/types';
import { moneyText, toWire, type ValidMoney, validMoney } from '../common/money';
import { askModal, notify } from '../common/notify';
import { vscodeTranslate } from '../common/vscodeTranslate';
import { type BudgetFacts, budgetLines, monthlyExcess, monthlyUnchecked } from '../runs/budgetPlan';
import { type BudgetSettings, readBudgetSettings } from '../runs/budgetSettings';
import type { SpendHistory } from '../runs/spendHistory';
import type { ServiceConnection } from '../service/serviceConnection';

/** Who asks for the run: only 'person' is asked about the cap and may pass the monthly limit. */
export type BudgetRequester = 'person' | 'tool' | 'chat' | 'extension';

/** `{}`: no cap; `{budget}`: the cap to send; `{refused}`: the run must not start (already said to a person). */
export type BudgetChoice = { budget?: Money; refused?: undefined } | { refused: string; budget?: undefined };

/** How long the month's spend is waited for before the flow goes on without it. */
const USAGE_WAIT_MS = 5000;

export interface BudgetGate {
  /**
   * `inherited`: the cap of the run a resume or fork continues (as the server sent it). The
   * person is shown it and it is prefilled; an empty answer sends none, so the service keeps it.
   */
  choose(requester: BudgetRequester, inherited?: unknown): Promise<BudgetChoice>;
  readonly history: SpendHistory;
  /**
   * A task or run record came back after this choice was sent: when it lacks the cap, the service
   * ignores caps; it is said once per service and the run is watched against the cap
   * (src/steering/budgetlessWatch.ts).
   */
  noteStarted(
    choice: BudgetChoice,
    returned: { budget?: unknown } | undefined,
    runId: string | undefined,
    objective?: string,
  ): void;
  /** Extension-host tests only: what a person would have been shown (a cap, the monthly limit, a run at its cap, a service that ignored the cap, a run past a cap the server ignored), each question answered as given. */
  readonly askedInTests: { kind: 'cap' | 'monthly' | 'atCap' | 'noBudgets' | 'budgetless'; lines: string[] }[];
  /** Extension-host tests only: the answer when a run passes a cap its service ignored. */
  answerAtIgnoredCapInTests: 'cancel' | 'let';
}

export interface BudgetGateDeps {
  service: ServiceConnection;
  log: vscode.LogOutputChannel;
  history: SpendHistory;
  trustedAutomation: boolean;
  /** For tests: the settings (default: read from VS Code each time). */
  settings?: () => BudgetSettings;
  /** A record came back after a cap was chosen (src/steering/budgetlessWatch.ts checks whether the service kept it). */
  onStarted?(
    sent: Money | undefined,
    returned: { budget?: unknown } | undefined,
    runId: string | undefined,
    objective?: string,
  ): void;
}

export function createBudgetGate(deps: BudgetGateDeps): BudgetGate {
  const askedInTests: BudgetGate['askedInTests'] = [];
  const reported = new Set<string>();
  const t = vscodeTranslate;

  const facts = async (settings: BudgetSettings): Promise<BudgetFacts> => {
    const usage = await deps.service.client
      .getUsage({ signal: AbortSignal.timeout(USAGE_WAIT_MS) })
      .catch(() => undefined);
    return {
      cap: settings.perRun,
      monthly: settings.monthly,
      usage,
      history: deps.history.summary(settings.perRun?.currency ?? settings.currency),
    };
  };

  /**
   * The person's cap: the setting's (or the continued run's), prefilled; empty means none sent.
   * Undefined when they closed the box.
   */
  const askCap = async (
    known: BudgetFacts,
    currency: string,
    inherited: ValidMoney | undefined,
  ): Promise<{ cap?: ValidMoney } | undefined> => {
    const lines = [
      ...(inherited
        ? [
            vscode.l10n.t(
              'The run this continues had a cap of {0}; left empty, the service keeps that cap.',
              moneyText(inherited),
            ),
          ]
        : []),
      ...budgetLines(t, known),
    ];
    if (deps.trustedAutomation) {
      askedInTests.push({ kind: 'cap', lines });
      return { cap: known.cap };
    }
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('Spending cap for this run ({0})', currency),
      prompt: lines.join(' · '),
      value: known.cap ? moneyText(known.cap).split(' ')[0] : '',
      placeHolder: inherited
        ? vscode.l10n.t('An amount such as 5.00; empty to keep {0}', moneyText(inherited))
        : vscode.l10n.t('An amount such as 5.00; empty for no cap'),
      ignoreFocusOut: true,
      validateInput: (value) =>
        value.trim() === '' || (validMoney({ amount: value, currency })?.units ?? 0n) > 0n
          ? undefined
          : inherited
            ? vscode.l10n.t(
                'Type an amount above zero such as 5.00, or leave it empty to keep {0}.',
                moneyText(inherited),
              )
            : vscode.l10n.t('Type an amount above zero such as 5.00, or leave it empty for no cap.'),
    });
    if (typed === undefined) {
      return undefined;
    }
    return typed.trim() === '' ? {} : { cap: validMoney({ amount: typed, currency }) };
  };

  const gate: BudgetGate = {
    history: deps.history,
    askedInTests,
    answerAtIgnoredCapInTests: 'let',
    noteStarted(choice, returned, runId, objective) {
      deps.onStarted?.(choice.budget, returned, runId, objective);
    },
    async choose(requester, inheritedCap) {
      const settings = (deps.settings ?? readBudgetSettings)();
      for (const problem of settings.problems) {
        const key = `${problem.setting}=${problem.value}`;
        if (!reported.has(key)) {
          reported.add(key);
          void notify.warn(
            vscode.l10n.t(
              '{0} is "{1}", not an amount above zero such as 5.00: it is ignored.',
              problem.setting,
              problem.value,
            ),
          );
        }
      }
      let known = await facts(settings);
      const inherited = validMoney(inheritedCap);
      if (requester === 'person') {
        const chosen = await askCap(
          inherited ? { ...known, cap: inherited } : known,
          inherited?.currency ?? settings.perRun?.currency ?? settings.currency,
          inherited,
        );
        if (!chosen) {
          return { refused: vscode.l10n.t('No run was started: the cap was not chosen.') };
        }
        // Empty with a cap to keep: that cap is the run's (sent as it is, as the service would keep it).
        known = { ...known, cap: chosen.cap ?? inherited };
      }
      if (requester !== 'person' && monthlyUnchecked(known)) {
        deps.log.info(`A ${requester} asked for a run while the month's spend could not be read.`);
        const refused = vscode.l10n.t(
          "Your monthly limit cannot be checked: the service did not say this month's spend in {0}. Nothing was started; only you can start it, from the Agent Runtime view.",
          known.monthly ? known.monthly.currency : '',
        );
        void notify.warn(refused);
        return { refused };
      }
      const excess = monthlyExcess(known);
      if (excess && known.monthly) {
        const message = known.cap
          ? vscode.l10n.t(
              'This run could pass your monthly limit of {0} by {1}.',
              moneyText(known.monthly),
              moneyText(excess),
            )
          : vscode.l10n.t(
              'This month has reached your monthly limit of {0}, and a run without a cap could pass it by any amount.',
              moneyText(known.monthly),
            );
        const lines = budgetLines(t, known);
        if (requester !== 'person') {
          deps.log.info(`A ${requester} asked for a run that could pass the monthly limit by ${moneyText(excess)}.`);
          const refused = vscode.l10n.t(
            '{0} Nothing was started; only you can start it anyway, from the Agent Runtime view.',
            message,
          );
          void notify.warn(refused);
          return { refused };
        }
        const anyway = vscode.l10n.t('Start Anyway');
        if (deps.trustedAutomation) {
          askedInTests.push({ kind: 'monthly', lines: [message, ...lines] });
        } else if ((await askModal('warn', message, lines, anyway)) !== anyway) {
          return { refused: message };
        }
      }
      return known.cap ? { budget: toWire(known.cap) } : {};
    },
  };
  return gate;
}
