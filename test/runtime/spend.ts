// Money for the usage assumptions: run costs as decimal strings, and this month's spend over runs.
import type { Money, RunRecord } from './records';

export const CURRENCY = 'USD';

export function usd(amount: string): { cost: Money } {
  return { cost: { amount, currency: CURRENCY } };
}

/** A run's usage plus `cents` (runs start at "0.00"). */
export function addCents(usage: RunRecord['usage'], cents: number): { cost: Money } {
  return usd(formatCents(toCents(usage?.cost.amount ?? '0') + cents));
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
