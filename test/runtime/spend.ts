// Money for the usage and budget assumptions: run costs as decimal strings, this month's spend over
// runs, and the budgets (caps) of tasks and runs (docs/PROTOCOL.md, Budgets).
import { badRequest } from './httpErrors';
import type { Money, RunRecord } from './records';

export const CURRENCY = 'USD';

/** The largest budget accepted, in cents (1,000,000.00 USD): larger ones are a mistake. */
const MAX_BUDGET_CENTS = 100_000_000;

export function usd(amount: string): { cost: Money } {
  return { cost: { amount, currency: CURRENCY } };
}

/** A run's usage plus `cents` (runs start at "0.00"). */
export function addCents(usage: RunRecord['usage'], cents: number): { cost: Money } {
  return usd(formatCents(toCents(usage?.cost.amount ?? '0') + cents));
}

/** Whether the run's cost has reached its budget (a run without one never does). */
export function budgetReached(run: RunRecord): boolean {
  return run.budget !== undefined && toCents(run.usage?.cost.amount ?? '0') >= toCents(run.budget.amount);
}

/** Whether `budget` is above what the run has spent (a raise must be). */
export function budgetAboveCost(run: RunRecord, budget: Money): boolean {
  return toCents(budget.amount) > toCents(run.usage?.cost.amount ?? '0');
}

/**
 * `budget` of a request body (param '' for a body that is the budget itself): absent (undefined), or `{amount, currency}` with a decimal amount of
 * at most 2 places above zero in the runtime's one currency; 400 otherwise, naming `param`.
 */
export function parseBudget(value: unknown, param = 'budget'): Money | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(`${param} must be an object {amount, currency}.`, param);
  }
  const field = (name: string): string => (param === '' ? name : `${param}.${name}`);
  const { amount, currency } = value as Record<string, unknown>;
  if (typeof amount !== 'string' || !/^\d{1,9}(\.\d{1,2})?$/.test(amount)) {
    throw badRequest(`${field('amount')} must be a decimal string such as "5.00".`, field('amount'));
  }
  const cents = toCents(amount);
  if (cents <= 0 || cents > MAX_BUDGET_CENTS) {
    throw badRequest(
      `${field('amount')} must be above 0.00 and at most ${formatCents(MAX_BUDGET_CENTS)}.`,
      field('amount'),
    );
  }
  if (currency !== CURRENCY) {
    throw badRequest(
      `${field('currency')} must be ${CURRENCY}, the currency this runtime charges in.`,
      field('currency'),
      'currency_mismatch',
    );
  }
  return { amount: formatCents(cents), currency: CURRENCY };
}

/** A server without budgets (fault missingEndpoints 'budgets') ignores `budget` in request bodies. */
export function requestedBudget(body: Record<string, unknown>, budgetsOff: boolean): Money | undefined {
  return budgetsOff ? undefined : parseBudget(body.budget);
}

/** GET /v1/usage: the current calendar month (UTC); spend = the cost of the runs created in it. */
export function usageReport(runs: RunRecord[], quota: Money | null, now = new Date()): Record<string, unknown> {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  let cents = 0;
  for (const run of runs) {
    const created = Date.parse(run.created_at);
    if (created >= start.getTime() && created < end.getTime() && run.usage) {
      cents += toCents(run.usage.cost.amount);
    }
  }
  return {
    object: 'usage',
    period_start: start.toISOString(),
    period_end: end.toISOString(),
    spend: { amount: formatCents(cents), currency: CURRENCY },
    quota,
  };
}

function toCents(amount: string): number {
  return Math.round(Number(amount) * 100);
}

function formatCents(cents: number): string {
  return (cents / 100).toFixed(2);
}
