// What a person sees before a run starts, and the monthly limit's rule (docs/PROTOCOL.md,
// Budgets): the cap, what this workspace's last runs cost, the month's spend and what is left of
// the quota; a task passes the monthly limit when the month's spend plus its cap (or the spend
// alone, without a cap) goes over it. Pure.
import type { UsageRecord } from '../api/types';
import { addMoney, moneyText, subtractMoney, type ValidMoney, validMoney } from '../common/money';
import type { Translate } from '../common/translate';
import type { SpendSummary } from './spendHistory';

export interface BudgetFacts {
  /** The cap each run gets (undefined: none). */
  cap?: ValidMoney;
  /** agentRuntime.budget.monthly (undefined: none). */
  monthly?: ValidMoney;
  /** GET /v1/usage as read now (undefined: unknown). */
  usage?: UsageRecord;
  history: SpendSummary;
}

/** How far the month's spend plus the cap would go past the monthly limit; undefined when it would not. */
export function monthlyExcess(facts: BudgetFacts): ValidMoney | undefined {
  const { monthly } = facts;
  if (!monthly) {
    return undefined;
  }
  const spend = validMoney(facts.usage?.spend);
  const base = spend && spend.currency === monthly.currency ? spend : undefined;
  const cap = facts.cap && facts.cap.currency === monthly.currency ? facts.cap : undefined;
  const projected = base && cap ? addMoney(base, cap) : (cap ?? base);
  if (!projected) {
    return undefined;
  }
  const over = subtractMoney(projected, monthly);
  // Reaching the limit exactly is within it; without a cap, a spend at the limit is over it.
  return over && (over.units > 0n || !cap) ? over : undefined;
}

/**
 * True when a monthly limit is set and the month's spend in its currency is not known (the usage
 * endpoint failed, is missing, or counts in another currency): the limit cannot be checked, so
 * only a person may start a run then.
 */
export function monthlyUnchecked(facts: BudgetFacts): boolean {
  if (!facts.monthly) {
    return false;
  }
  return validMoney(facts.usage?.spend)?.currency !== facts.monthly.currency;
}

/** The lines shown with the cap before a run starts. */
export function budgetLines(t: Translate, facts: BudgetFacts): string[] {
  const lines = [facts.cap ? t('Cap for this run: {0}', moneyText(facts.cap)) : t('Cap for this run: none')];
  const { history } = facts;
  if (history.count === 1 && history.max) {
    lines.push(t('The last run in this workspace cost {0}', moneyText(history.max)));
  } else if (history.count > 1 && history.median && history.max) {
    lines.push(
      t(
        'Last {0} runs in this workspace: median {1}, max {2}',
        history.count,
        moneyText(history.median),
        moneyText(history.max),
      ),
    );
  }
  const spend = validMoney(facts.usage?.spend);
  const quota = validMoney(facts.usage?.quota);
  if (spend && quota) {
    const left = subtractMoney(quota, spend);
    lines.push(
      t(
        'This month: {0} spent, {1} of the {2} quota left',
        moneyText(spend),
        left ? moneyText(left) : t('nothing'),
        moneyText(quota),
      ),
    );
  } else if (spend) {
    lines.push(t('This month: {0} spent', moneyText(spend)));
  } else {
    lines.push(t("This month's spend is unknown (the service did not say)."));
  }
  if (facts.monthly) {
    lines.push(t('Monthly limit: {0}', moneyText(facts.monthly)));
  }
  return lines;
}
