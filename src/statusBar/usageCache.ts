// Spend and quota for the status bar's tooltip (docs/PROTOCOL.md, Usage and spend): read at most
// once a minute, again when a followed run ends, never again from a server without the endpoint.
// Pure (no vscode): the fetch and the clock are injected.
import { isApiError } from '../api/errors';
import type { UsageRecord } from '../api/types';
import type { Translate } from '../common/translate';

export const USAGE_MIN_INTERVAL_MS = 60_000;

export class UsageCache {
  private usage: UsageRecord | undefined;
  private fetchedAt = -Infinity;
  private unsupported = false;
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly fetchUsage: () => Promise<UsageRecord>,
    private readonly onChange: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  get current(): UsageRecord | undefined {
    return this.usage;
  }

  /** Reads again unless read within the last minute; `force` (a followed run ended) skips that wait. */
  refresh(force = false): Promise<void> {
    if (this.unsupported || this.inFlight) {
      return this.inFlight ?? Promise.resolve();
    }
    if (!force && this.now() - this.fetchedAt < USAGE_MIN_INTERVAL_MS) {
      return Promise.resolve();
    }
    this.fetchedAt = this.now();
    this.inFlight = this.fetchUsage()
      .then(
        (usage) => {
          this.usage = usage;
          this.onChange();
        },
        (err: unknown) => {
          if (isApiError(err, 'not_supported')) {
            this.unsupported = true;
          }
          // Spend is a nicety: a failure leaves the last figures (or none) and no message.
        },
      )
      .finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** Another service or key. */
  reset(): void {
    this.usage = undefined;
    this.fetchedAt = -Infinity;
    this.unsupported = false;
    this.onChange();
  }
}

/** "Spend this period: 12.40 USD of a 100.00 USD quota (1 Nov – 30 Nov)"; undefined when unknown. */
export function spendLine(
  usage: UsageRecord | undefined,
  t: Translate,
  formatDate: (iso: string) => string | undefined,
): string | undefined {
  const spend = usage?.spend;
  if (!spend) {
    return undefined;
  }
  const amount = `${spend.amount} ${spend.currency}`;
  const quota = usage.quota ? `${usage.quota.amount} ${usage.quota.currency}` : undefined;
  const from = usage.period_start ? formatDate(usage.period_start) : undefined;
  const to = usage.period_end ? formatDate(usage.period_end) : undefined;
  const period = from && to ? ` (${from} – ${to})` : '';
  return quota
    ? t('Spend this period: {0} of a {1} quota{2}', amount, quota, period)
    : t('Spend this period: {0}{1}', amount, period);
}
