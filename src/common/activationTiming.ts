// How long the extension takes from activate() to the first rows of each sidebar view, written
// to the log once per view. Only here is the start known (VS Code does not tell an extension when
// its activation event fired), so the activation benchmark (test/bench/activation.bench.ts)
// reads these lines from code-server's log folder; a user wondering why the sidebar is slow to
// fill reads the same line.
import type { Logger } from './logger';

export type TimedView = 'tasks' | 'files';

export class ActivationTiming {
  private readonly reported = new Set<TimedView>();
  private readonly marks: string[] = [];

  /** `started`: performance.now() as activate() began. */
  constructor(
    private readonly log: Pick<Logger, 'info'>,
    private readonly started: number,
  ) {}

  /** Notes a step of activation (e.g. "credentials read"), said with the first-rows lines. */
  mark(step: string): void {
    this.marks.push(`${step} ${Math.round(performance.now() - this.started)} ms`);
  }

  /** The view answered with rows the server listed (not a welcome view or an error row). */
  firstRows(view: TimedView, rows: number): void {
    if (rows === 0 || this.reported.has(view)) {
      return;
    }
    this.reported.add(view);
    const ms = Math.round(performance.now() - this.started);
    const steps = this.marks.length > 0 ? ` (${this.marks.join(', ')})` : '';
    this.log.info(`Activation: the ${view} view had its first ${rows} rows ${ms} ms after activation began${steps}`);
  }
}

/** The log line's shape, for readers of the log (the benchmark). */
export const ACTIVATION_LINE =
  /Activation: the (tasks|files) view had its first (\d+) rows (\d+) ms after activation began(?: \((.*)\))?/;
