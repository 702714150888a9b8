// The compacted model of one run's events: per-step aggregates plus a bounded window of raw
// events. The host keeps one per panel to bring a reloaded webview up to date; the webview keeps
// one to persist a restorable snapshot. Pure: no vscode, no Node, no DOM.
import { jsonBytes } from './eventBudget';
import type { RunSnapshot, StepSummary, WireEvent } from './protocol';

export const TERMINAL_EVENT_NAMES: readonly string[] = ['run.completed', 'run.failed', 'run.cancelled'];

export interface RunModelLimits {
  /** Raw events kept (the newest). */
  recent: number;
  /** Step aggregates kept (the most recently started). */
  steps: number;
  /** Bytes the kept raw events may take, by the model's own accounting. */
  recentBytes: number;
}

export const DEFAULT_LIMITS: RunModelLimits = { recent: 1000, steps: 5000, recentBytes: 8 * 1024 * 1024 };

/** A field shown as text: strings as they are, anything else as JSON (never interpreted as markup). */
export function fieldText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

export function isTerminalEventName(name: string): boolean {
  return TERMINAL_EVENT_NAMES.includes(name);
}

/** The status a terminal event stands for: its `status` field, else the name's suffix. */
export function terminalStatus(event: WireEvent): string {
  const status = event.data.status;
  if (typeof status === 'string' && status) return status;
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
  private terminal: RunSnapshot['terminal'];
  private readonly kinds = new Map<string, number>();
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
    for (const step of from?.steps ?? []) this.steps.set(step.stepId, { ...step });
    this.stepsOmitted = from?.stepsOmitted ?? 0;
    this.completedSteps = from?.completedSteps ?? 0;
    this.recent = from ? from.recent.slice(-this.limits.recent) : [];
    this.terminal = from?.terminal ? { ...from.terminal } : undefined;
    for (const [kind, count] of Object.entries(from?.kinds ?? {})) this.kinds.set(kind, count);
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

  /** Event names seen, with their counts. */
  kindCounts(): ReadonlyMap<string, number> {
    return this.kinds;
  }

  /** What the model holds, in bytes, by its own accounting (the data of its events as JSON). */
  retainedBytes(): number {
    let bytes = 0;
    for (const event of this.recent) bytes += jsonBytes(event.data) + event.event.length;
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
      if (!Number.isSafeInteger(seq) || seq <= this.lastSeq) continue;
      this.lastSeq = seq;
      this.eventCount++;
      this.firstReceivedAt ??= event.receivedAt;
      this.kinds.set(event.event, (this.kinds.get(event.event) ?? 0) + 1);
      this.aggregate(event);
      this.recent.push(event);
      accepted.push(event);
    }
    // Trimming in bulk keeps apply() amortised O(1) per event.
    if (this.recent.length > this.limits.recent * 2) this.recent = this.recent.slice(-this.limits.recent);
    this.trimSteps();
    return accepted;
  }

  /** A copy of the model, bounded by the model's limits or tighter ones (for persisting). */
  snapshot(limits: Partial<RunModelLimits> = {}): RunSnapshot {
    const recentLimit = Math.min(limits.recent ?? this.limits.recent, this.limits.recent);
    const stepLimit = Math.min(limits.steps ?? this.limits.steps, this.limits.steps);
    const recent = this.recent.slice(-recentLimit);
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
      firstReceivedAt: this.firstReceivedAt,
    };
  }

  private aggregate(event: WireEvent): void {
    const d = event.data;
    const stepId = typeof d.step_id === 'string' ? d.step_id : undefined;
    switch (event.event) {
      case 'plan.created':
        this.planInfo = { steps: typeof d.steps === 'number' ? d.steps : 0, strategy: fieldText(d.strategy), sequence: d.sequence };
        return;
      case 'step.started': {
        if (stepId === undefined) return;
        const known = this.steps.get(stepId);
        if (known) {
          known.title = fieldText(d.title);
          known.startSequence ||= d.sequence;
          return;
        }
        this.steps.set(stepId, {
          stepId,
          title: fieldText(d.title),
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
        if (step?.state === 'completed') return;
        this.completedSteps++;
        if (!step) return;
        step.state = 'completed';
        step.completedSequence = d.sequence;
        if (typeof d.duration_ms === 'number' && Number.isFinite(d.duration_ms)) step.durationMs = d.duration_ms;
        return;
      }
      case 'tool.called':
      case 'observation.recorded': {
        const step = stepId === undefined ? undefined : this.steps.get(stepId);
        if (!step) return;
        if (event.event === 'tool.called') step.toolCalls++;
        else step.observations++;
        return;
      }
      default: {
        if (isTerminalEventName(event.event)) {
          this.terminal = { event: event.event, status: terminalStatus(event), sequence: d.sequence, receivedAt: event.receivedAt };
          return;
        }
        const step = stepId === undefined ? undefined : this.steps.get(stepId);
        if (step) step.others++;
      }
    }
  }

  private trimSteps(): void {
    while (this.steps.size > this.limits.steps) {
      const oldest = this.steps.keys().next().value;
      if (oldest === undefined) return;
      this.steps.delete(oldest);
      this.stepsOmitted++;
    }
  }
}
