// The compacted model of one run's events: per-step aggregates plus a bounded window of raw
// events, each cut to a byte budget, and a capped count of event kinds. The host keeps one per
// panel to bring a reloaded webview up to date; the webview keeps one to persist a restorable
// snapshot. Pure: no vscode, no Node, no DOM.
import { boundEvent, boundText, DEFAULT_EVENT_BUDGET, type EventBudget, utf8Length } from './eventBudget';
import { isTerminalEvent, TERMINAL_EVENTS } from './runStatus';
import type { RunSnapshot, StepSummary, WireEvent } from './wire';

/** The spec's event names: always counted by name, whatever else the server invents. */
export const SPEC_EVENT_NAMES: readonly string[] = [
  'plan.created',
  'step.started',
  'tool.called',
  'observation.recorded',
  'step.completed',
  ...TERMINAL_EVENTS,
];

/** Longest step id, step title, plan strategy or status the aggregates keep, in characters. */
const AGGREGATE_TEXT_CHARS = 256;
/** What one step aggregate or kind entry costs beyond its strings (the model's accounting). */
const ENTRY_OVERHEAD_BYTES = 96;

export interface RunModelLimits {
  /** Raw events kept (the newest). */
  recent: number;
  /** Step aggregates kept (the most recently started). */
  steps: number;
  /**
   * Bytes the kept raw events may take, by the model's own accounting. Not more than a `reset`
   * should carry to a webview: the whole window goes in each one.
   */
  recentBytes: number;
  /** Event kinds counted by name besides the spec's; events of any further kind are counted together. */
  kinds: number;
  /** What one kept event may take (strings cut with a visible mark beyond it). */
  event: EventBudget;
}

export const DEFAULT_LIMITS: RunModelLimits = {
  recent: 1000,
  steps: 5000,
  recentBytes: 8 * 1024 * 1024,
  kinds: 64,
  event: DEFAULT_EVENT_BUDGET,
};

/** A field shown as text: strings as they are, anything else as JSON (never interpreted as markup). */
export function fieldText(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (value === undefined || value === null) {
    return '';
  }
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

/** The step an event names, as the model keys it (a hostile id is cut like any other text). */
export function stepIdOf(event: WireEvent): string | undefined {
  const id = event.data.step_id;
  return typeof id === 'string' ? boundText(id, AGGREGATE_TEXT_CHARS) : undefined;
}

function aggregateText(value: unknown): string {
  return boundText(fieldText(value), AGGREGATE_TEXT_CHARS);
}

/** The status a terminal event stands for: its `status` field, else the name's suffix. */
export function terminalStatus(event: WireEvent): string {
  const status = event.data.status;
  if (typeof status === 'string' && status) {
    return boundText(status, AGGREGATE_TEXT_CHARS);
  }
  return event.event.slice('run.'.length);
}

export class RunModel {
  private lastSeq: number;
  private eventCount: number;
  private planInfo: RunSnapshot['plan'];
  private readonly steps = new Map<string, StepSummary>();
  private stepsOmitted: number;
  private completedSteps: number;
  private recent: WireEvent[];
  /** The accounted size of each event in `recent`, and their sum. */
  private recentSizes: number[];
  private recentBytes = 0;
  private terminal: RunSnapshot['terminal'];
  private readonly kinds = new Map<string, number>();
  /** Events whose kind came after the kind cap was reached. */
  private otherKinds = 0;
  private firstReceivedAt: number | undefined;

  private readonly limits: RunModelLimits;

  constructor(
    readonly runId: string,
    limits: Partial<RunModelLimits> = DEFAULT_LIMITS,
    from?: RunSnapshot,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.lastSeq = from?.lastSequence ?? 0;
    this.eventCount = from?.eventCount ?? 0;
    this.planInfo = from?.plan ? { ...from.plan } : undefined;
    for (const step of from?.steps ?? []) {
      this.steps.set(step.stepId, { ...step });
    }
    this.stepsOmitted = from?.stepsOmitted ?? 0;
    this.completedSteps = from?.completedSteps ?? 0;
    this.recent = [];
    this.recentSizes = [];
    // A saved snapshot is bounded again: it may come from an older version without budgets.
    for (const event of from ? from.recent.slice(-this.limits.recent) : []) {
      this.keep(boundEvent(event, this.limits.event));
    }
    this.trimRecent();
    this.terminal = from?.terminal ? { ...from.terminal } : undefined;
    this.otherKinds = from?.otherKinds ?? 0;
    for (const [kind, count] of Object.entries(from?.kinds ?? {})) {
      this.countKind(kind, count);
    }
    this.firstReceivedAt = from?.firstReceivedAt;
    this.trimSteps();
  }

  get lastSequence(): number {
    return this.lastSeq;
  }

  get ended(): boolean {
    return this.terminal !== undefined;
  }

  step(stepId: string): StepSummary | undefined {
    return this.steps.get(stepId);
  }

  get plan(): RunSnapshot['plan'] {
    return this.planInfo;
  }

  get terminalEvent(): RunSnapshot['terminal'] {
    return this.terminal;
  }

  get completedStepCount(): number {
    return this.completedSteps;
  }

  get totalEvents(): number {
    return this.eventCount;
  }

  get firstSeenAt(): number | undefined {
    return this.firstReceivedAt;
  }

  /** Event names seen, with their counts (the spec's and at most `limits.kinds` others). */
  kindCounts(): ReadonlyMap<string, number> {
    return this.kinds;
  }

  /** Events of kinds beyond the cap, counted together. */
  get otherKindCount(): number {
    return this.otherKinds;
  }

  /**
   * What the model holds, in bytes, by its own accounting: each kept event's data as JSON, the
   * step aggregates and the kind counts. Bounded by the limits whatever the server sends.
   */
  retainedBytes(): number {
    let bytes = this.recentBytes;
    for (const step of this.steps.values()) {
      bytes += ENTRY_OVERHEAD_BYTES + utf8Length(step.stepId) + utf8Length(step.title);
    }
    for (const kind of this.kinds.keys()) {
      bytes += ENTRY_OVERHEAD_BYTES + utf8Length(kind);
    }
    return bytes;
  }

  /** The kept step aggregates, in start order. */
  stepSummaries(): IterableIterator<StepSummary> {
    return this.steps.values();
  }

  /**
   * Takes events in stream order and returns those it accepted. An event at or below the last
   * sequence is a repeat (a resumed stream, a restored panel) and is dropped, so nothing counts twice.
   */
  apply(events: readonly WireEvent[]): WireEvent[] {
    const accepted: WireEvent[] = [];
    for (const event of events) {
      const seq = event.data.sequence;
      if (!Number.isSafeInteger(seq) || seq <= this.lastSeq) {
        continue;
      }
      this.lastSeq = seq;
      this.eventCount++;
      this.firstReceivedAt ??= event.receivedAt;
      const bounded = boundEvent(event, this.limits.event);
      this.countKind(bounded.event.event, 1);
      this.aggregate(bounded.event);
      this.keep(bounded);
      accepted.push(bounded.event);
      if (this.recentBytes > this.limits.recentBytes) {
        this.trimRecent();
      }
    }
    // Trimming in bulk keeps apply() amortised O(1) per event.
    if (this.recent.length > this.limits.recent * 2) {
      this.trimRecent();
    }
    this.trimSteps();
    return accepted;
  }

  /**
   * A copy of the model, bounded by the model's limits or tighter ones (for persisting). A tighter
   * `recent` without `recentBytes` tightens the byte budget in proportion.
   */
  snapshot(limits: Partial<Pick<RunModelLimits, 'recent' | 'steps' | 'recentBytes'>> = {}): RunSnapshot {
    const recentLimit = Math.min(limits.recent ?? this.limits.recent, this.limits.recent);
    const stepLimit = Math.min(limits.steps ?? this.limits.steps, this.limits.steps);
    const byteLimit = Math.min(
      limits.recentBytes ?? (this.limits.recentBytes * recentLimit) / Math.max(1, this.limits.recent),
      this.limits.recentBytes,
    );
    let first = this.recent.length;
    let bytes = 0;
    while (first > 0 && this.recent.length - first < recentLimit && bytes + this.recentSizes[first - 1] <= byteLimit) {
      bytes += this.recentSizes[--first];
    }
    const recent = this.recent.slice(first);
    const allSteps = [...this.steps.values()];
    const steps = allSteps.slice(-stepLimit).map((s) => ({ ...s }));
    return {
      runId: this.runId,
      lastSequence: this.lastSeq,
      eventCount: this.eventCount,
      plan: this.planInfo ? { ...this.planInfo } : undefined,
      steps,
      stepsOmitted: this.stepsOmitted + (allSteps.length - steps.length),
      completedSteps: this.completedSteps,
      recent,
      eventsOmitted: this.eventCount - recent.length,
      terminal: this.terminal ? { ...this.terminal } : undefined,
      kinds: Object.fromEntries(this.kinds),
      otherKinds: this.otherKinds > 0 ? this.otherKinds : undefined,
      firstReceivedAt: this.firstReceivedAt,
    };
  }

  private keep(bounded: { event: WireEvent; bytes: number }): void {
    this.recent.push(bounded.event);
    this.recentSizes.push(bounded.bytes);
    this.recentBytes += bounded.bytes;
  }

  /** Back within the count, and a quarter under the byte budget so that trims stay rare. */
  private trimRecent(): void {
    let drop = Math.max(0, this.recent.length - this.limits.recent);
    let bytes = this.recentBytes;
    for (let i = 0; i < drop; i++) {
      bytes -= this.recentSizes[i];
    }
    if (bytes > this.limits.recentBytes) {
      const target = (this.limits.recentBytes * 3) / 4;
      while (drop < this.recent.length && bytes > target) {
        bytes -= this.recentSizes[drop++];
      }
    }
    if (drop === 0) {
      return;
    }
    this.recent = this.recent.slice(drop);
    this.recentSizes = this.recentSizes.slice(drop);
    this.recentBytes = bytes;
  }

  private countKind(kind: string, count: number): void {
    const known = this.kinds.get(kind);
    if (known !== undefined) {
      this.kinds.set(kind, known + count);
    } else if (SPEC_EVENT_NAMES.includes(kind) || this.kinds.size - this.specKindsSeen() < this.limits.kinds) {
      this.kinds.set(kind, count);
    } else {
      this.otherKinds += count;
    }
  }

  private specKindsSeen(): number {
    let n = 0;
    for (const name of SPEC_EVENT_NAMES) {
      if (this.kinds.has(name)) {
        n++;
      }
    }
    return n;
  }

  private aggregate(event: WireEvent): void {
    const d = event.data;
    const stepId = stepIdOf(event);
    switch (event.event) {
      case 'plan.created':
        this.planInfo = {
          steps: typeof d.steps === 'number' ? d.steps : 0,
          strategy: aggregateText(d.strategy),
          sequence: d.sequence,
        };
        return;
      case 'step.started': {
        if (stepId === undefined) {
          return;
        }
        const known = this.steps.get(stepId);
        if (known) {
          known.title = aggregateText(d.title);
          known.startSequence ||= d.sequence;
          return;
        }
        this.steps.set(stepId, {
          stepId,
          title: aggregateText(d.title),
          startSequence: d.sequence,
          state: 'running',
          startedAt: event.receivedAt,
          toolCalls: 0,
          observations: 0,
          others: 0,
        });
        return;
      }
      case 'step.completed': {
        const step = stepId === undefined ? undefined : this.steps.get(stepId);
        if (step?.state === 'completed') {
          return;
        }
        this.completedSteps++;
        if (!step) {
          return;
        }
        step.state = 'completed';
        step.completedSequence = d.sequence;
        if (typeof d.duration_ms === 'number' && Number.isFinite(d.duration_ms)) {
          step.durationMs = d.duration_ms;
        }
        return;
      }
      case 'tool.called':
      case 'observation.recorded': {
        const step = stepId === undefined ? undefined : this.steps.get(stepId);
        if (!step) {
          return;
        }
        if (event.event === 'tool.called') {
          step.toolCalls++;
        } else {
          step.observations++;
        }
        return;
      }
      default: {
        if (isTerminalEvent(event.event)) {
          this.terminal = {
            event: event.event,
            status: terminalStatus(event),
            sequence: d.sequence,
            receivedAt: event.receivedAt,
          };
          return;
        }
        const step = stepId === undefined ? undefined : this.steps.get(stepId);
        if (step) {
          step.others++;
        }
      }
    }
  }

  private trimSteps(): void {
    while (this.steps.size > this.limits.steps) {
      const oldest = this.steps.keys().next().value;
      if (oldest === undefined) {
        return;
      }
      this.steps.delete(oldest);
      this.stepsOmitted++;
    }
  }
}
