// What this workspace's last runs cost, kept in workspaceState (at most SPEND_HISTORY_MAX runs,
// newest last): the flows that start a run show its median and maximum beside the cap.
// Pure (no vscode): the Memento is injected.
import type { RunRecord } from '../api/types';
import { amountText, checkMoney, compareMoney, type ValidMoney } from '../common/money';

export const SPEND_HISTORY_KEY = 'agentRuntime.spendHistory';
export const SPEND_HISTORY_MAX = 50;

interface Entry {
  runId: string;
  amount: string;
  currency: string;
}

export interface SpendSummary {
  /** Runs counted (in the currency asked for). */
  count: number;
  median?: ValidMoney;
  max?: ValidMoney;
}

interface State {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

function entriesOf(value: unknown): Entry[] {
  if (!Array.isArray(value)) {
    return [];
  }
  return value
    .filter(
      (e): e is Entry =>
        typeof e === 'object' && e !== null && typeof (e as Entry).runId === 'string' && checkMoney(e as Entry).valid,
    )
    .slice(-SPEND_HISTORY_MAX);
}

export class SpendHistory {
  constructor(private readonly state: State) {}

  /** Notes a finished run's cost (once per run); an unusable cost is not kept. */
  async note(run: RunRecord | undefined): Promise<void> {
    const cost = checkMoney((run?.usage as { cost?: unknown } | undefined)?.cost);
    if (!run || !cost.valid) {
      return;
    }
    const entries = entriesOf(this.state.get(SPEND_HISTORY_KEY)).filter((e) => e.runId !== run.id);
    entries.push({ runId: run.id, amount: amountText(cost), currency: cost.currency });
    await this.state.update(SPEND_HISTORY_KEY, entries.slice(-SPEND_HISTORY_MAX));
  }

  /** Median and maximum of the kept runs in `currency`. */
  summary(currency: string): SpendSummary {
    const costs = entriesOf(this.state.get(SPEND_HISTORY_KEY))
      .map((e) => checkMoney(e))
      .filter((m): m is ValidMoney => m.valid && m.currency === currency)
      .sort((a, b) => compareMoney(a, b) ?? 0);
    if (costs.length === 0) {
      return { count: 0 };
    }
    return { count: costs.length, median: median(costs), max: costs[costs.length - 1] };
  }
}

/** The middle cost, or the exact mean of the two middle ones (one decimal place more). */
function median(sorted: ValidMoney[]): ValidMoney {
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) {
    return sorted[mid];
  }
  const a = sorted[mid - 1];
  const b = sorted[mid];
  const scale = Math.max(a.scale, b.scale);
  const sum = a.units * 10n ** BigInt(scale - a.scale) + b.units * 10n ** BigInt(scale - b.scale);
  // The extra place only where the mean needs it: 0.40 and 0.60 give 0.50, 0.01 and 0.02 give 0.015.
  return sum % 2n === 0n
    ? { valid: true, units: sum / 2n, scale, currency: a.currency }
    : { valid: true, units: sum * 5n, scale: scale + 1, currency: a.currency };
}
