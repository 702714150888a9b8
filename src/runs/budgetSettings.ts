// agentRuntime.budget.perRun, .currency and .monthly, read fresh each time. A value that is not a
// positive decimal amount counts as unset and is reported once per value in the log.
import * as vscode from 'vscode';
import { compareMoney, type ValidMoney, validMoney } from '../common/money';

export const BUDGET_SECTION = 'agentRuntime.budget';

export interface BudgetSettings {
  perRun?: ValidMoney;
  monthly?: ValidMoney;
  currency: string;
  /** Settings whose value was not usable, with the value as written. */
  problems: { setting: string; value: string }[];
}

export function readBudgetSettings(): BudgetSettings {
  const config = vscode.workspace.getConfiguration(BUDGET_SECTION);
  // The currency shapes every amount the person's own limits are read in: the user's settings
  // only, so a repository's .vscode/settings.json cannot change what "monthly" means.
  const rawCurrency = config.inspect<unknown>('currency')?.globalValue ?? 'USD';
  const currency =
    typeof rawCurrency === 'string' && /^[A-Za-z]{3}$/.test(rawCurrency.trim())
      ? rawCurrency.trim().toUpperCase()
      : 'USD';
  const problems: BudgetSettings['problems'] = [];
  const amount = (key: 'perRun' | 'monthly', raw: unknown): ValidMoney | undefined => {
    if (raw === undefined || raw === null || raw === '') {
      return undefined;
    }
    const money = validMoney({ amount: raw, currency });
    if (!money || money.units === 0n) {
      problems.push({ setting: `${BUDGET_SECTION}.${key}`, value: String(raw).slice(0, 40) });
      return undefined;
    }
    return money;
  };
  // The monthly limit protects the person: only their own (user) settings set it, never a workspace's.
  const monthly = config.inspect<unknown>('monthly');
  // A workspace may set a cap or tighten the person's, never loosen it: the lower of the two.
  const perRun = config.inspect<unknown>('perRun');
  const ownCap = amount('perRun', perRun?.globalValue);
  const workspaceCap = amount('perRun', perRun?.workspaceFolderValue ?? perRun?.workspaceValue);
  return {
    perRun: lowerOf(ownCap, workspaceCap),
    monthly: amount('monthly', monthly?.globalValue),
    currency,
    problems,
  };
}

/** The lower of two caps in the same currency (either may be unset). */
export function lowerOf(a: ValidMoney | undefined, b: ValidMoney | undefined): ValidMoney | undefined {
  if (!a || !b) {
    return a ?? b;
  }
  return compareMoney(b, a) === -1 ? b : a;
}
