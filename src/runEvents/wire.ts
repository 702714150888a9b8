// The run-event shapes every part shares: one event as the host keeps it and sends it to the
// webview, a step's aggregate, the compacted model of a run, and the approval card's view.
// Pure types: no vscode, no Node, no DOM.

/** One run event as it crosses to the webview: the event name and its data object. */
export interface WireEvent {
  event: string;
  data: { sequence: number; [field: string]: unknown };
  /** When the host received it (ms since the epoch): the base of a running step's live elapsed time. */
  receivedAt?: number;
  /**
   * Set when the host cut the event to its budget (src/runEvents/eventBudget.ts): the size in bytes
   * of what the server sent. The cut fields carry a visible "… (truncated, N bytes)" mark.
   */
  truncatedBytes?: number;
}

/** A step as kept in the compacted model: enough to draw its row without its raw events. */
export interface StepSummary {
  stepId: string;
  title: string;
  /** Sequence of its step.started event (0 when only later events of the step were seen). */
  startSequence: number;
  state: 'running' | 'completed';
  durationMs?: number;
  completedSequence?: number;
  startedAt?: number;
  toolCalls: number;
  observations: number;
  /** Unknown-kind events that named this step. */
  others: number;
}

/** The compacted model of a run: per-step aggregates plus a bounded window of recent raw events. */
export interface RunSnapshot {
  runId: string;
  lastSequence: number;
  /** Every event accepted so far, including those no longer kept raw. */
  eventCount: number;
  plan?: { steps: number; strategy: string; sequence: number };
  /** Steps in the order they started; the oldest are dropped past the model's bound. */
  steps: StepSummary[];
  stepsOmitted: number;
  completedSteps: number;
  /** The newest raw events, in order. */
  recent: WireEvent[];
  /** Events accepted but not in `recent` (summarised only). */
  eventsOmitted: number;
  terminal?: { event: string; status: string; sequence: number; receivedAt?: number };
  /** Event names seen, with counts (for the kind filter): the spec's and a capped number of others. */
  kinds: Record<string, number>;
  /** Events of kinds past the cap, counted together. */
  otherKinds?: number;
  firstReceivedAt?: number;
}

/** The tool call the run waits on (the last `approval.requested` not yet resolved); all data, shown as text. */
export interface ApprovalCardView {
  approvalId: string;
  /** The sequence of its approval.requested event. */
  sequence: number;
  tool: string;
  stepId?: string;
  reason?: string;
  expiresAt?: string;
  /** The arguments as indented JSON text (never markup). */
  argumentsJson: string;
  /** The card shows the arguments in part (the event was cut, or the text past its cap): Approve shows them whole. */
  argumentsCut?: boolean;
}
