// agentRuntime.budget.perRun, .currency and .monthly, read fresh each time. A value that is not a
// positive decimal amount counts as unset and is reported once per value in the log.
import * as vscode from 'vscode';
import { type ValidMoney, validMoney } from '../common/money';

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
  const rawCurrency = config.get<unknown>('currency', 'USD');
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
  return {
    perRun: amount('perRun', config.get<unknown>('perRun')),
    monthly: amount('monthly', monthly?.globalValue),
    currency,
    problems,
  };
}
