// A server without budgets (docs/PROTOCOL.md, Budgets): the record of a task or run comes back
// without the `budget` sent, so the service will not pause the run at the cap the person chose.
// The client then watches the run's `usage.updated` costs against that cap and, once a cost
// reaches it, asks the person whether to cancel the run (it cannot pause it). Pure (no vscode).
import { type CheckedMoney, compareMoney, describeMoney, type ValidMoney, validMoney } from '../common/money';
import type { Translate } from '../common/translate';
import { namesAnotherRun } from '../runEvents/spendMeter';

/** The cap the service did not keep: the one sent, when the record came back without any. */
export function ignoredCap(sent: unknown, returned: { budget?: unknown } | undefined): ValidMoney | undefined {
  const cap = validMoney(sent);
  if (!cap || cap.units === 0n || !returned) {
    return undefined;
  }
  return returned.budget === undefined || returned.budget === null ? cap : undefined;
}

/**
 * One run's costs against the cap the service did not keep. `note` takes each of its events and
 * answers the cost the moment it first reaches the cap (once: the run is not paused, so later
 * costs pass it too). A cost that is not usable, or in another currency, is never compared.
 */
export class CapWithoutServer {
  private reached = false;
  /** The newest `usage.updated` cost as received (checkMoney before use). */
  cost: unknown;

  constructor(
    readonly runId: string,
    readonly cap: ValidMoney,
  ) {}

  get hasReached(): boolean {
    return this.reached;
  }

  note(event: { event: string; data?: unknown }): ValidMoney | undefined {
    if (event.event !== 'usage.updated' || namesAnotherRun(this.runId, event)) {
      return undefined;
    }
    const data = event.data as { cost?: unknown } | undefined;
    if (typeof data !== 'object' || data === null || data.cost === undefined) {
      return undefined;
    }
    this.cost = data.cost;
    if (this.reached) {
      return undefined;
    }
    const cost = validMoney(data.cost);
    if (!cost || cost.currency !== this.cap.currency || compareMoney(cost, this.cap) === -1) {
      return undefined;
    }
    this.reached = true;
    return cost;
  }
}

/** Said once per service: its records came back without the cap sent. */
export function noBudgetsNotice(t: Translate, cap: ValidMoney): string {
  return t(
    'This service does not keep spending caps: the run started without the cap of {0} you chose. The extension watches what it spends and asks you when it reaches your cap, but it cannot pause it.',
    describeMoney(cap, t),
  );
}

export interface PassedCapFacts {
  readonly runId: string;
  readonly cap: ValidMoney;
  readonly cost: CheckedMoney;
  readonly objective?: string;
}

/** The question at the cap the service did not keep: the whole truth, then Cancel the Run / Let It Run. */
export function passedCapQuestion(t: Translate, facts: PassedCapFacts): { message: string; lines: string[] } {
  const lines: string[] = [];
  if (facts.objective !== undefined) {
    lines.push(t('Task: {0}', facts.objective));
  }
  lines.push(
    t('Spent {0} of its cap of {1}.', describeMoney(facts.cost, t), describeMoney(facts.cap, t)),
    t('Run: {0}', facts.runId),
    t('The service does not keep caps: the run was not paused and goes on spending until it ends or you cancel it.'),
  );
  return { message: t('A run reached the cap you chose, but the service does not pause it.'), lines };
}
