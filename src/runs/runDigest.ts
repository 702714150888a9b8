// A run in short, for the surfaces that describe a run in a few lines instead of a panel: the
// language model tools (a tool result), the chat participant (/status, a followed run's closing
// summary) and the extension API. The status, the steps planned and done, the cost, a waiting
// approval, and the latest few events, each as one bounded line. Built from the run's record and
// the events read so far; every text is the server's, cut to a bound, and stays raw here: each
// surface makes it inert its own way (quoted JSON for a model, escaped Markdown for chat). Pure.
import type { RunRecord } from '../api/types';
import { boundText } from '../runEvents/eventBudget';
import { isRunId } from '../runEvents/ids';
import { fieldText } from '../runEvents/runModel';
import { isTerminalEvent, terminalEventStatus } from '../runEvents/runStatus';
import { costText } from '../runEvents/steeringInfo';

/** One event in short: its name and the one field that says what happened. */
export interface RunEventLine {
  readonly sequence: number;
  readonly event: string;
  /** The server's words (a step title, a tool, an observation's summary...), cut to LINE_CHARS. */
  readonly text: string;
}

export interface RunDigest {
  readonly runId: string;
  readonly taskId?: string;
  /** The freshest status: a terminal event read beats the record. */
  readonly status?: string;
  /** "0.12 USD": the newest usage event's, else the record's. */
  readonly cost?: string;
  readonly stepsPlanned?: number;
  readonly stepsDone: number;
  /**
   * Steps counted past STEP_IDS_KEPT distinct step ids: their ids were not kept, so a replayed one
   * among them is counted again (stepsDone is then at most this many too high).
   */
  readonly stepsUnchecked?: number;
  readonly eventsRead: number;
  readonly lastSequence: number;
  /** The newest events read, oldest first: at most DIGEST_LATEST. */
  readonly latest: readonly RunEventLine[];
  /** An approval asked and not resolved in the events read: a person decides it in VS Code. */
  readonly waitingApproval?: { readonly approvalId: string; readonly tool: string };
  /** The run's error message (the record's or its run.failed event's). */
  readonly error?: string;
  readonly resumedFrom?: string;
  readonly forkedFrom?: { readonly runId?: string; readonly sequence?: number };
  /** Reading stopped before the run's end: the run goes on ('live'), or the log was too long to read whole ('stopped'). */
  readonly partial?: 'live' | 'stopped';
}

/** Latest events a digest keeps. */
export const DIGEST_LATEST = 8;
/** Distinct step ids remembered to count a replayed step once; past them steps are counted unchecked. */
export const STEP_IDS_KEPT = 10_000;
/** What one line may take of a server field (characters). */
export const LINE_CHARS = 200;

export class RunDigestBuilder {
  private readonly latest: RunEventLine[] = [];
  private status: string | undefined;
  private cost: string | undefined;
  private stepsPlanned: number | undefined;
  private readonly done = new Set<string>();
  private doneWithoutId = 0;
  private doneUnchecked = 0;
  private count = 0;
  private last = 0;
  private approval: { approvalId: string; tool: string } | undefined;
  private error: string | undefined;
  private partial: RunDigest['partial'];

  constructor(private readonly run: RunRecord) {
    this.status = typeof run.status === 'string' ? boundText(run.status, LINE_CHARS) : undefined;
    this.cost = costText(run);
    const message = (run.error as { message?: unknown } | undefined)?.message;
    if (message !== undefined) {
      this.error = boundText(fieldText(message), LINE_CHARS);
    }
  }

  add(event: { event: string; data: { sequence: number; [field: string]: unknown } }): void {
    const { data } = event;
    this.count++;
    if (Number.isSafeInteger(data.sequence) && data.sequence > this.last) {
      this.last = data.sequence;
    }
    switch (event.event) {
      case 'plan.created':
        if (typeof data.steps === 'number' && Number.isSafeInteger(data.steps) && data.steps >= 0) {
          this.stepsPlanned = data.steps;
        }
        break;
      case 'step.completed':
        // Counted once per step: a resumed or replayed step is not done twice.
        if (typeof data.step_id === 'string') {
          const id = boundText(data.step_id, LINE_CHARS);
          if (this.done.has(id)) {
            break;
          }
          // A run that keeps completing new steps must not grow the digest without bound.
          if (this.done.size < STEP_IDS_KEPT) {
            this.done.add(id);
          } else {
            this.doneUnchecked++;
          }
        } else {
          this.doneWithoutId++;
        }
        break;
      case 'approval.requested':
        if (typeof data.approval_id === 'string') {
          this.approval = {
            approvalId: boundText(data.approval_id, LINE_CHARS),
            tool: boundText(fieldText(data.tool), LINE_CHARS),
          };
        }
        break;
      case 'approval.resolved':
        if (this.approval && data.approval_id === this.approval.approvalId) {
          this.approval = undefined;
        }
        break;
      case 'usage.updated': {
        const cost = costText({ usage: { cost: data.cost } });
        if (cost !== undefined) {
          this.cost = boundText(cost, LINE_CHARS);
        }
        break;
      }
      default:
        if (isTerminalEvent(event.event)) {
          this.status =
            typeof data.status === 'string' && data.status !== ''
              ? boundText(data.status, LINE_CHARS)
              : terminalEventStatus(event.event);
          this.approval = undefined;
          const message =
            (data.error as { message?: unknown } | undefined)?.message ??
            (typeof data.error === 'string' ? data.error : undefined);
          if (message !== undefined) {
            this.error = boundText(fieldText(message), LINE_CHARS);
          }
        }
    }
    this.latest.push({ sequence: data.sequence, event: boundText(event.event, 64), text: lineText(event) });
    if (this.latest.length > DIGEST_LATEST) {
      this.latest.shift();
    }
  }

  /** Reading stopped before the end. */
  stoppedEarly(why: 'live' | 'stopped'): void {
    this.partial = why;
  }

  get eventsRead(): number {
    return this.count;
  }

  digest(): RunDigest {
    const run = this.run;
    const forked = run.forked_from;
    return {
      runId: boundText(fieldText(run.id), LINE_CHARS),
      taskId: typeof run.task_id === 'string' ? boundText(run.task_id, LINE_CHARS) : undefined,
      status: this.status,
      cost: this.cost,
      stepsPlanned: this.stepsPlanned,
      stepsDone: this.done.size + this.doneWithoutId + this.doneUnchecked,
      stepsUnchecked: this.doneUnchecked > 0 ? this.doneUnchecked : undefined,
      eventsRead: this.count,
      lastSequence: this.last,
      latest: [...this.latest],
      waitingApproval: this.approval,
      error: this.error,
      // Lineage names another run: only a run id is kept (a surface may link or name it).
      resumedFrom: isRunId(run.resumed_from) ? run.resumed_from : undefined,
      forkedFrom:
        forked && typeof forked === 'object'
          ? {
              runId: isRunId(forked.run_id) ? forked.run_id : undefined,
              sequence:
                typeof forked.sequence === 'number' && Number.isSafeInteger(forked.sequence)
                  ? forked.sequence
                  : undefined,
            }
          : undefined,
      partial: this.partial,
    };
  }
}

/** The field that says what an event did, as one bounded line (empty when it has none). */
export function lineText(event: { event: string; data: Record<string, unknown> }): string {
  const { data } = event;
  const field = (() => {
    switch (event.event) {
      case 'plan.created':
        return data.strategy;
      case 'step.started':
        return data.title ?? data.step_id;
      case 'tool.called':
        return data.tool;
      case 'observation.recorded':
        return data.summary;
      case 'step.completed':
        return data.step_id;
      case 'approval.requested':
        return data.tool;
      case 'approval.resolved':
        return data.status;
      default:
        return isTerminalEvent(event.event) ? (data.status ?? terminalEventStatus(event.event)) : undefined;
    }
  })();
  return boundText(fieldText(field), LINE_CHARS);
}
