// What the runs still going have spent so far, for the status bar beside the month's spend: summed
// per currency with the money type (src/common/money.ts: decimal strings, scaled BigInts), never
// adding different currencies; an amount that is not usable is counted as "not counted", never
// added. Bounded: at most MAX_LIVE_RUNS runs are read and MAX_CURRENCIES_SHOWN totals named.
// Pure (no vscode).
import type { RunRecord } from '../api/types';
import { checkMoney, moneyText, sumPerCurrency, type ValidMoney } from '../common/money';
import type { Translate } from '../common/translate';

export const MAX_LIVE_RUNS = 200;
export const MAX_CURRENCIES_SHOWN = 3;

export interface LiveSpend {
  /** One total per currency, by currency code. */
  readonly totals: readonly ValidMoney[];
  /** Runs whose cost was not a usable amount. */
  readonly notCounted: number;
}

/** Sums the costs (`usage.cost`) of the first MAX_LIVE_RUNS records; undefined when none has a cost. */
export function liveSpend(records: Iterable<RunRecord | undefined>): LiveSpend | undefined {
  const valid: ValidMoney[] = [];
  let notCounted = 0;
  let read = 0;
  for (const record of records) {
    if (read++ >= MAX_LIVE_RUNS) {
      break;
    }
    const cost = (record as { usage?: { cost?: unknown } } | undefined)?.usage?.cost;
    if (cost === undefined || cost === null) {
      continue;
    }
    const checked = checkMoney(cost);
    if (checked.valid) {
      valid.push(checked);
    } else {
      notCounted++;
    }
  }
  if (valid.length === 0 && notCounted === 0) {
    return undefined;
  }
  return { totals: sumPerCurrency(valid), notCounted };
}

/** "0.08 USD + 1.20 EUR", at most `max` totals, then "+ 2 more currencies". */
export function liveSpendAmounts(spend: LiveSpend, t: Translate, max = MAX_CURRENCIES_SHOWN): string {
  const shown = spend.totals.slice(0, max).map((m) => moneyText(m));
  const rest = spend.totals.length - shown.length;
  if (rest > 0) {
    shown.push(rest === 1 ? t('1 more currency') : t('{0} more currencies', rest));
  }
  return shown.join(' + ');
}

/** The tooltip's line: "Runs in progress have spent 0.08 USD + 1.20 EUR so far (1 amount not counted)". */
export function liveSpendLine(spend: LiveSpend | undefined, t: Translate): string | undefined {
  if (!spend) {
    return undefined;
  }
  const amounts = spend.totals.length > 0 ? liveSpendAmounts(spend, t) : undefined;
  const note =
    spend.notCounted === 0
      ? ''
      : spend.notCounted === 1
        ? t(' (1 amount not counted)')
        : t(' ({0} amounts not counted)', spend.notCounted);
  return amounts === undefined
    ? t('Runs in progress: no usable cost{0}', note)
    : t('Runs in progress have spent {0} so far{1}', amounts, note);
}
