// Money as the service sends it ({amount: decimal string, currency}), checked once and then added,
// compared and divided exactly on scaled BigInts. Different currencies are never added; an amount
// that is not a plain non-negative decimal string is kept as received, shown with a note, and
// never used in arithmetic (docs/PROTOCOL.md, Budgets).
import type { Translate } from './translate';

/** Longer amounts are refused: no cost or cap needs more, and BigInt work stays small. */
export const MAX_AMOUNT_CHARS = 30;
/** Longer currencies are refused (ISO 4217 codes have 3 letters; some services send more). */
export const MAX_CURRENCY_CHARS = 10;

/** Why an amount was not used: each has its note (`invalidMoneyNote`). */
export type InvalidMoneyReason = 'not_decimal' | 'negative' | 'too_long' | 'no_currency';

/** An amount fit for arithmetic: `units / 10^scale` in `currency` (upper case). */
export interface ValidMoney {
  readonly valid: true;
  readonly units: bigint;
  readonly scale: number;
  readonly currency: string;
}

/** An amount kept as received (at most 2×MAX_AMOUNT_CHARS characters of it) for display only. */
export interface InvalidMoney {
  readonly valid: false;
  readonly shown: string;
  readonly reason: InvalidMoneyReason;
}

export type CheckedMoney = ValidMoney | InvalidMoney;

/** The wire shape. */
export interface MoneyWire {
  amount: string;
  currency: string;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;
const CURRENCY = /^[A-Za-z][A-Za-z0-9]*$/;

function received(value: unknown): string {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value);
  const whole = text ?? String(value);
  return whole.length > MAX_AMOUNT_CHARS * 2 ? `${whole.slice(0, MAX_AMOUNT_CHARS * 2)}…` : whole;
}

/** Checks `{amount, currency}` from the server, a setting or a person. */
export function checkMoney(value: unknown): CheckedMoney {
  const record = (typeof value === 'object' && value !== null ? value : {}) as { amount?: unknown; currency?: unknown };
  const { amount, currency } = record;
  const currencyText = typeof currency === 'string' ? currency.trim() : '';
  const shownAmount = received(amount);
  const shown = typeof currency === 'string' && currency !== '' ? `${shownAmount} ${received(currency)}` : shownAmount;
  if (typeof amount !== 'string') {
    return { valid: false, shown, reason: 'not_decimal' };
  }
  if (amount.length > MAX_AMOUNT_CHARS) {
    return { valid: false, shown, reason: 'too_long' };
  }
  const trimmed = amount.trim();
  if (trimmed.startsWith('-') && DECIMAL.test(trimmed.slice(1))) {
    return { valid: false, shown, reason: 'negative' };
  }
  const match = DECIMAL.exec(trimmed);
  if (!match) {
    return { valid: false, shown, reason: 'not_decimal' };
  }
  if (currencyText.length === 0 || currencyText.length > MAX_CURRENCY_CHARS || !CURRENCY.test(currencyText)) {
    return { valid: false, shown, reason: 'no_currency' };
  }
  const fraction = match[2] ?? '';
  return {
    valid: true,
    units: BigInt(match[1] + fraction),
    scale: fraction.length,
    currency: currencyText.toUpperCase(),
  };
}

/** A valid amount, or undefined (absent or not usable). */
export function validMoney(value: unknown): ValidMoney | undefined {
  const checked = checkMoney(value);
  return checked.valid ? checked : undefined;
}

function atScale(m: ValidMoney, scale: number): bigint {
  return m.units * 10n ** BigInt(scale - m.scale);
}

/** The sum, or undefined when the currencies differ (never added). */
export function addMoney(a: ValidMoney, b: ValidMoney): ValidMoney | undefined {
  if (a.currency !== b.currency) {
    return undefined;
  }
  const scale = Math.max(a.scale, b.scale);
  return { valid: true, units: atScale(a, scale) + atScale(b, scale), scale, currency: a.currency };
}

/** a - b when it is not negative and the currencies match; else undefined. */
export function subtractMoney(a: ValidMoney, b: ValidMoney): ValidMoney | undefined {
  if (a.currency !== b.currency) {
    return undefined;
  }
  const scale = Math.max(a.scale, b.scale);
  const units = atScale(a, scale) - atScale(b, scale);
  return units < 0n ? undefined : { valid: true, units, scale, currency: a.currency };
}

/** -1, 0 or 1; undefined when the currencies differ. */
export function compareMoney(a: ValidMoney, b: ValidMoney): -1 | 0 | 1 | undefined {
  if (a.currency !== b.currency) {
    return undefined;
  }
  const scale = Math.max(a.scale, b.scale);
  const x = atScale(a, scale);
  const y = atScale(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Whole percent of `part` in `whole` (rounded down); undefined for other currencies or a zero whole. */
export function percentOf(part: ValidMoney, whole: ValidMoney): number | undefined {
  if (part.currency !== whole.currency) {
    return undefined;
  }
  const scale = Math.max(part.scale, whole.scale);
  const w = atScale(whole, scale);
  if (w === 0n) {
    return undefined;
  }
  return Number((atScale(part, scale) * 100n) / w);
}

/** The decimal string: "5.00", "0.05", "12". */
export function amountText(m: ValidMoney): string {
  const digits = m.units.toString().padStart(m.scale + 1, '0');
  return m.scale === 0 ? digits : `${digits.slice(0, -m.scale)}.${digits.slice(-m.scale)}`;
}

export function toWire(m: ValidMoney): MoneyWire {
  return { amount: amountText(m), currency: m.currency };
}

/** "5.00 USD"; an invalid amount as received. */
export function moneyText(m: CheckedMoney): string {
  return m.valid ? `${amountText(m)} ${m.currency}` : m.shown;
}

/** Why an amount is shown as received and not counted. */
export function invalidMoneyNote(reason: InvalidMoneyReason, t: Translate): string {
  switch (reason) {
    case 'negative':
      return t('a negative amount, not counted');
    case 'too_long':
      return t('an amount too long to be real, not counted');
    case 'no_currency':
      return t('no usable currency, not counted');
    default:
      return t('not a decimal amount, not counted');
  }
}

/** "5.00 USD", or "-1 USD (a negative amount, not counted)". */
export function describeMoney(m: CheckedMoney, t: Translate): string {
  return m.valid ? moneyText(m) : `${m.shown} (${invalidMoneyNote(m.reason, t)})`;
}

/** Sums per currency (invalid amounts are skipped): the status bar's total of live runs. */
export function sumPerCurrency(amounts: Iterable<ValidMoney>): ValidMoney[] {
  const totals = new Map<string, ValidMoney>();
  for (const m of amounts) {
    const before = totals.get(m.currency);
    totals.set(m.currency, before ? (addMoney(before, m) as ValidMoney) : m);
  }
  return [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}
