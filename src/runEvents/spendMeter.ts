// A run's spend against its cap, as the run panel's meter, the Tasks row and the status bar read it
// (docs/PROTOCOL.md, Budgets): the newest cost and cap from the run's events (`usage.updated`,
// `budget.reached`, `budget.raised`) and record, compared with the money type (scaled BigInts, no
// floating point), and the thresholds a screen reader hears (50, 80, 100 per cent), once per
// crossing. Noting an event only assigns the amounts it carries: the checks and the arithmetic run
// when a surface draws, so a flood of `usage.updated` costs one assignment each. Pure.
import { fill } from '../common/format';
import { type CheckedMoney, checkMoney, type InvalidMoneyReason, moneyText, percentOf } from '../common/money';
import type { Translate } from '../common/translate';

/** What a screen reader is told about, in per cent of the cap, each once per crossing. */
export const SPEND_THRESHOLDS = [50, 80, 100] as const;
export type SpendLevel = 0 | (typeof SPEND_THRESHOLDS)[number];

/** The newest cost and cap as received (unchecked: they are checked where they are shown). */
export interface SpendSeen {
  cost?: unknown;
  cap?: unknown;
}

/** True for an event whose data names a run other than `runId` (`run_id`): not this run's news. */
export function namesAnotherRun(runId: string, event: { data?: unknown }): boolean {
  const data = event.data;
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { run_id?: unknown }).run_id === 'string' &&
    (data as { run_id: string }).run_id !== runId
  );
}

/** The name of the newest event about `runId` itself (none when every one names another run). */
export function newestOwnEventName(
  runId: string,
  events: readonly { event: string; data?: unknown }[],
): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    if (!namesAnotherRun(runId, events[i])) {
      return events[i].event;
    }
  }
  return undefined;
}

/**
 * Notes the amounts of a spend event of `runId`'s stream (an event naming another run in `run_id`
 * is ignored); true when it was one. Only assigns.
 */
export function noteSpendEvent(seen: SpendSeen, runId: string, event: { event: string; data?: unknown }): boolean {
  const kind = event.event;
  if (kind !== 'usage.updated' && kind !== 'budget.reached' && kind !== 'budget.raised') {
    return false;
  }
  if (namesAnotherRun(runId, event)) {
    return false;
  }
  const data = (typeof event.data === 'object' && event.data !== null ? event.data : {}) as Record<string, unknown>;
  if (kind !== 'budget.raised' && data.cost !== undefined) {
    seen.cost = data.cost;
  }
  if (kind !== 'usage.updated' && data.budget !== undefined) {
    seen.cap = data.budget;
  }
  return true;
}

/** The meter's wordings, with `{n}` placeholders: the host fills them with vscode.l10n.t, the webview from its strings. */
export interface SpendWords {
  /** "0.03 of 0.05 USD, 60 %": cost amount, cap with currency, whole per cent. */
  spendOf: string;
  /** "-1 USD (a negative amount, not counted) against a cap of 0.05 USD". */
  spendAgainst: string;
  /** The note on a cost in another currency than the cap. */
  spendOtherCurrency: string;
  spendNoteNegative: string;
  spendNoteTooLong: string;
  spendNoteNoCurrency: string;
  spendNoteNotDecimal: string;
}

export function spendWords(t: Translate): SpendWords {
  return {
    spendOf: t('{0} of {1}, {2} %', '{0}', '{1}', '{2}'),
    spendAgainst: t('{0} against a cap of {1}', '{0}', '{1}'),
    spendOtherCurrency: t('another currency than the cap, not counted'),
    // The same wordings as the money type's notes (src/common/money.ts, invalidMoneyNote).
    spendNoteNegative: t('a negative amount, not counted'),
    spendNoteTooLong: t('an amount too long to be real, not counted'),
    spendNoteNoCurrency: t('no usable currency, not counted'),
    spendNoteNotDecimal: t('not a decimal amount, not counted'),
  };
}

export interface SpendMeter {
  /** What the meter says: "0.03 of 0.05 USD, 60 %", or the amounts as received with a note. */
  readonly text: string;
  /** Whole per cent of the cap spent (may pass 100); undefined when the amounts cannot be compared. */
  readonly percent?: number;
  /** How full the bar is, 0..100; undefined when the amounts cannot be compared. */
  readonly fill?: number;
  /** The highest threshold reached; undefined when the amounts cannot be compared. */
  readonly level?: SpendLevel;
  /** An amount was shown as received and not counted. */
  readonly noted: boolean;
}

function note(reason: InvalidMoneyReason, words: SpendWords): string {
  switch (reason) {
    case 'negative':
      return words.spendNoteNegative;
    case 'too_long':
      return words.spendNoteTooLong;
    case 'no_currency':
      return words.spendNoteNoCurrency;
    default:
      return words.spendNoteNotDecimal;
  }
}

function described(m: CheckedMoney, words: SpendWords): string {
  return m.valid ? moneyText(m) : `${m.shown} (${note(m.reason, words)})`;
}

/** The level a whole per cent reaches. */
export function spendLevel(percent: number): SpendLevel {
  let level: SpendLevel = 0;
  for (const threshold of SPEND_THRESHOLDS) {
    if (percent >= threshold) {
      level = threshold;
    }
  }
  return level;
}

/**
 * The meter of a capped run: `cost` and `cap` as received (a missing cost is nothing spent yet).
 * Undefined without a cap. An amount that is not usable, or a cost in another currency than the
 * cap, is shown as received with a note and takes no part in the arithmetic.
 */
export function spendMeter(seen: SpendSeen, words: SpendWords): SpendMeter | undefined {
  if (seen.cap === undefined || seen.cap === null) {
    return undefined;
  }
  const cap = checkMoney(seen.cap);
  const nothingYet = seen.cost === undefined || seen.cost === null;
  const cost = nothingYet ? undefined : checkMoney(seen.cost);
  if (!cap.valid) {
    return {
      text: cost ? fill(words.spendAgainst, described(cost, words), described(cap, words)) : described(cap, words),
      noted: true,
    };
  }
  if (cost && !cost.valid) {
    return { text: fill(words.spendAgainst, described(cost, words), moneyText(cap)), noted: true };
  }
  const spent = cost ?? { valid: true as const, units: 0n, scale: cap.scale, currency: cap.currency };
  const percent = percentOf(spent, cap);
  if (spent.currency !== cap.currency) {
    return {
      text: fill(words.spendAgainst, `${moneyText(spent)} (${words.spendOtherCurrency})`, moneyText(cap)),
      noted: true,
    };
  }
  if (percent === undefined) {
    // A cap of zero: anything spent is all of it.
    return { text: fill(words.spendAgainst, moneyText(spent), moneyText(cap)), fill: 100, level: 100, noted: false };
  }
  return {
    text: fill(words.spendOf, moneyText(spent).split(' ')[0], moneyText(cap), percent),
    percent,
    fill: Math.min(100, percent),
    level: spendLevel(percent),
    noted: false,
  };
}

/**
 * Which threshold to announce as the meter moves: the highest one reached since the last reading,
 * once. The first reading (a panel opened on a run already past some) only sets where it stands;
 * a reading that cannot be compared changes nothing; a lower reading (a raised cap) lets the
 * thresholds above it be crossed, and announced, again.
 */
export class SpendCrossings {
  private level: SpendLevel | undefined;

  /** The threshold just crossed upwards, or undefined. */
  next(level: SpendLevel | undefined): SpendLevel | undefined {
    if (level === undefined) {
      return undefined;
    }
    const before = this.level;
    this.level = level;
    return before !== undefined && level > before ? level : undefined;
  }

  /** Another run, or the panel starts over: the next reading only sets the level. */
  reset(): void {
    this.level = undefined;
  }
}
