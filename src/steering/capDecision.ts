// What a person sees and types when a run waits at its spending cap (docs/PROTOCOL.md, Budgets):
// what it spent and on what (the steps and tool calls since the last raise, read from its
// events), the cap, the new cap prefilled and checked before it is sent. Bounded: the events read
// and the items kept have caps, and anything left out is counted and said. Pure (no vscode).
import type { RunRecord } from '../api/types';
import { wholeJson } from '../common/approvalText';
import {
  addMoney,
  type CheckedMoney,
  checkMoney,
  compareMoney,
  describeMoney,
  moneyText,
  type ValidMoney,
  validMoney,
} from '../common/money';
import type { Translate } from '../common/translate';

/** Items (steps and tool calls) kept of one stretch; more are counted, and the document says so. */
export const MAX_SPENT_ITEMS = 2_000;
/** Items the dialog lists (the newest); the document has all that were kept. */
export const DIALOG_SPENT_ITEMS = 8;
/** Characters of one tool call's arguments in the document; longer ones are cut, saying so. */
export const MAX_ARGUMENT_CHARS = 4_000;

/** The run's `usage.cost` as received (undefined when it has none): checkMoney before use. */
export function runCost(run: RunRecord): unknown {
  const usage = run.usage;
  return typeof usage === 'object' && usage !== null ? (usage as { cost?: unknown }).cost : undefined;
}

/** A run waits at its cap: a run id and the status exactly `awaiting_budget`. */
export function isWaitingAtCap(record: unknown): record is RunRecord {
  const r = record as { id?: unknown; status?: unknown } | null;
  return typeof r === 'object' && r !== null && typeof r.id === 'string' && r.status === 'awaiting_budget';
}

export interface SpentItem {
  readonly kind: 'step' | 'tool';
  readonly sequence: number;
  /** Step: its id and title; tool: its name. Server text: inert() before any surface. */
  readonly name: string;
  /** Tool calls: the whole arguments as JSON (hidden characters escaped), cut at MAX_ARGUMENT_CHARS. */
  readonly detail?: string;
}

interface EventLike {
  readonly event: string;
  readonly data: { readonly sequence: number; readonly [key: string]: unknown };
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The steps and tool calls of a run since its last raise (or its start), fed event by event.
 * `add` answers true at the pause it looks for: a `budget.reached` with the record's cost (a
 * run paused, raised and paused again has several; an event naming another run is skipped).
 */
export class SpendSinceDecision {
  private kept: SpentItem[] = [];
  private left = 0;
  private stepCount = 0;
  private toolCount = 0;
  private raisedBefore = false;
  reached: { sequence: number; cost: CheckedMoney; budget: CheckedMoney } | undefined;
  /** The events were not read up to the pause (too many, too slow, the stream failed): said with the lines. */
  partial = false;

  constructor(
    private readonly runId: string,
    private readonly pauseCost: ValidMoney | undefined,
  ) {}

  get items(): readonly SpentItem[] {
    return this.kept;
  }
  /** Items past MAX_SPENT_ITEMS, counted but not kept. */
  get leftOut(): number {
    return this.left;
  }
  get steps(): number {
    return this.stepCount;
  }
  get toolCalls(): number {
    return this.toolCount;
  }
  /** The stretch starts at a raise (not at the run's start). */
  get sinceRaise(): boolean {
    return this.raisedBefore;
  }

  add(event: EventLike): boolean {
    const { data } = event;
    const otherRun = typeof data.run_id === 'string' && data.run_id !== this.runId;
    switch (event.event) {
      case 'budget.raised':
        if (!otherRun) {
          this.kept = [];
          this.left = 0;
          this.stepCount = 0;
          this.toolCount = 0;
          this.raisedBefore = true;
          this.reached = undefined;
        }
        return false;
      case 'budget.reached': {
        if (otherRun) {
          return false;
        }
        const cost = checkMoney(data.cost);
        this.reached = { sequence: data.sequence, cost, budget: checkMoney(data.budget) };
        // Without a cost to match (the record had none usable), the first pause is taken.
        return !this.pauseCost || (cost.valid && compareMoney(cost, this.pauseCost) === 0);
      }
      case 'step.started':
        this.stepCount += 1;
        this.keep({
          kind: 'step',
          sequence: data.sequence,
          name: [str(data.step_id), str(data.title)].filter((p) => p).join(' · ') || '?',
        });
        return false;
      case 'tool.called': {
        this.toolCount += 1;
        const json = wholeJson(data.arguments ?? {}) ?? '';
        const detail =
          json.length > MAX_ARGUMENT_CHARS
            ? `${json.slice(0, MAX_ARGUMENT_CHARS)}… (${json.length} characters in all)`
            : json;
        this.keep({ kind: 'tool', sequence: data.sequence, name: str(data.tool) ?? '?', detail });
        return false;
      }
      default:
        return false;
    }
  }

  private keep(item: SpentItem): void {
    if (this.kept.length >= MAX_SPENT_ITEMS) {
      this.left += 1;
      return;
    }
    this.kept.push(item);
  }
}

/** The cap and the cost of a record, checked: an unusable amount is kept as received (describeMoney). */
export interface CapFacts {
  readonly runId: string;
  readonly objective?: string;
  readonly cap: CheckedMoney | undefined;
  readonly cost: CheckedMoney | undefined;
}

export function capFacts(run: RunRecord, objective?: string): CapFacts {
  return {
    runId: run.id,
    objective,
    cap: run.budget === undefined ? undefined : checkMoney(run.budget),
    cost: runCost(run) === undefined ? undefined : checkMoney(runCost(run)),
  };
}

/** The lines of the decision: the task, what it spent against the cap, on what (the newest items), and what was left out. */
function headLines(facts: CapFacts, t: Translate): string[] {
  const lines: string[] = [];
  if (facts.objective !== undefined) {
    lines.push(t('Task: {0}', facts.objective));
  }
  const cost = facts.cost ? describeMoney(facts.cost, t) : t('unknown');
  const cap = facts.cap ? describeMoney(facts.cap, t) : t('unknown');
  lines.push(t('Spent {0} of its cap of {1}.', cost, cap), t('Run: {0}', facts.runId));
  return lines;
}

export function capDecisionLines(facts: CapFacts, spend: SpendSinceDecision | undefined, t: Translate): string[] {
  const lines = headLines(facts, t);
  if (!spend) {
    lines.push(t('What it spent on could not be read from its events.'));
  } else {
    lines.push(
      spend.sinceRaise
        ? t('Since the cap was last raised, steps: {0}, tool calls: {1}.', spend.steps, spend.toolCalls)
        : t('Since it started, steps: {0}, tool calls: {1}.', spend.steps, spend.toolCalls),
    );
    if (spend.partial) {
      lines.push(t('Its events could not all be read: what follows may miss the latest.'));
    }
    const shown = spend.items.slice(-DIALOG_SPENT_ITEMS);
    for (const item of shown) {
      lines.push(item.kind === 'step' ? t('Step {0}', item.name) : t('Tool call {0}', item.name));
    }
    const notShown = spend.items.length - shown.length + spend.leftOut;
    if (notShown > 0) {
      lines.push(t('{0} earlier items are not listed here: Show What It Spent On opens them all.', notShown));
    }
  }
  return lines;
}

/** The document of everything kept since the last raise: every step and tool call with its whole arguments. */
export function spendDocument(facts: CapFacts, spend: SpendSinceDecision, t: Translate): string {
  const out = headLines(facts, t);
  out.push(
    spend.sinceRaise
      ? t('Since the cap was last raised, steps: {0}, tool calls: {1}.', spend.steps, spend.toolCalls)
      : t('Since it started, steps: {0}, tool calls: {1}.', spend.steps, spend.toolCalls),
    '',
  );
  for (const item of spend.items) {
    out.push(
      item.kind === 'step'
        ? `#${item.sequence} ${t('Step {0}', item.name)}`
        : `#${item.sequence} ${t('Tool call {0}', item.name)}`,
    );
    if (item.detail !== undefined) {
      out.push(`    ${item.detail.replace(/\n/g, '\n    ')}`);
    }
  }
  if (spend.leftOut > 0) {
    out.push('', t('{0} more items past the first {1} were not kept.', spend.leftOut, MAX_SPENT_ITEMS));
  }
  return out.join('\n');
}

/** Characters of the task's objective in the document's title. */
const TITLE_OBJECTIVE_CHARS = 60;

/** The title of the spend document: "Spend of <task> since the last decision" (or since it started). */
export function spendDocumentTitle(objective: string | undefined, sinceRaise: boolean, t: Translate): string {
  const oneLine = objective?.replace(/\s+/g, ' ').trim();
  const task =
    oneLine === undefined || oneLine === ''
      ? t('a run')
      : Array.from(oneLine).length > TITLE_OBJECTIVE_CHARS
        ? `${Array.from(oneLine)
            .slice(0, TITLE_OBJECTIVE_CHARS - 1)
            .join('')}…`
        : oneLine;
  return sinceRaise ? t('Spend of {0} since the last decision', task) : t('Spend of {0} since it started', task);
}

/**
 * The new cap offered: what it spent plus agentRuntime.budget.perRun (another run's worth from
 * here) when that is set in the same currency, else the cap doubled; always above the cost.
 */
export function raisePrefill(
  cap: CheckedMoney | undefined,
  cost: CheckedMoney | undefined,
  perRun: ValidMoney | undefined,
): ValidMoney | undefined {
  const spent = cost?.valid ? cost : undefined;
  const current = cap?.valid ? cap : undefined;
  const candidates: (ValidMoney | undefined)[] = [
    spent && perRun ? addMoney(spent, perRun) : undefined,
    current ? { ...current, units: current.units * 2n } : undefined,
    spent ? { ...spent, units: spent.units * 2n } : undefined,
  ];
  return candidates.find((c) => c !== undefined && c.units > 0n && (!spent || compareMoney(c, spent) === 1));
}

export type RaiseCheck = { ok: ValidMoney; problem?: undefined } | { problem: string; ok?: undefined };

/** A typed cap: a plain decimal amount in the run's currency, above what it spent. */
export function checkRaise(typed: string, currency: string, cost: CheckedMoney | undefined, t: Translate): RaiseCheck {
  const money = validMoney({ amount: typed.trim(), currency });
  if (!money || money.units === 0n) {
    return { problem: t('Type an amount above zero such as 5.00 (in {0}).', currency) };
  }
  if (cost?.valid && compareMoney(money, cost) !== 1) {
    return { problem: t('The new cap must be above what the run has spent ({0}).', moneyText(cost)) };
  }
  return { ok: money };
}
