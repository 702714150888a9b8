// Hostile event streams: a view over a run's log with nasty events around the real ones, renumbered.
import type { ServerResponse } from 'node:http';
import type { LogEntry, RunEventLog } from '../eventLog';
import { type EventStreamOptions, serveEventStream } from '../eventStream';
import { poisonRecordStrings } from './jsonBodies';
import type { HostileOptions } from './options';
import { BIDI_OVERRIDE, COMMAND_LINK, HTML_PAYLOAD, hugeText } from './values';

export const BIG_SEQUENCES = [Number.MAX_SAFE_INTEGER, 2 ** 60] as const;

/** Names a client must show as text and never use as an object key it trusts. */
export const HOSTILE_EVENT_NAMES: readonly string[] = [
  COMMAND_LINK,
  HTML_PAYLOAD,
  '<script>alert(1)</script>',
  '$(alert) $(sync~spin)',
  BIDI_OVERRIDE,
  'step.started\u200D',
  '__proto__',
  'constructor',
  'hasOwnProperty',
];

/** Known kinds whose fields have the wrong types. */
const WRONG_TYPES: { event: string; data: Record<string, unknown> }[] = [
  { event: 'plan.created', data: { steps: '3', strategy: 42 } },
  { event: 'plan.created', data: { steps: 1e308, strategy: null } },
  { event: 'step.started', data: { step_id: 42, title: { html: '<b>bold</b>' } } },
  { event: 'step.started', data: { step_id: '__proto__', title: ['an', 'array'] } },
  { event: 'tool.called', data: { tool: null, step_id: null } },
  { event: 'observation.recorded', data: { step_id: 'step_nowhere', summary: 12345 } },
  { event: 'step.completed', data: { step_id: 'step_1', duration_ms: '12' } },
  { event: 'step.completed', data: { step_id: 'step_1', duration_ms: -1 } },
  { event: 'step.completed', data: { step_id: 'step_nowhere', duration_ms: 1e300 } },
];

/** The run named by the budget events that belong to someone else's run. */
export const OTHER_RUN_ID = 'run_someone_else';

/** Spend gone wrong: what a client must show as received, never add, and never act on. */
function budgetEvents(flood: number): { event: string; data: Record<string, unknown> }[] {
  const usd = (amount: unknown): Record<string, unknown> => ({ cost: { amount, currency: 'USD' } });
  const out: { event: string; data: Record<string, unknown> }[] = [
    { event: 'usage.updated', data: usd('-5.00') },
    { event: 'usage.updated', data: usd('NaN') },
    { event: 'usage.updated', data: usd(12.5) },
    { event: 'usage.updated', data: usd('1e309') },
    { event: 'usage.updated', data: usd('9'.repeat(5000)) },
    { event: 'usage.updated', data: { cost: { amount: '0.01', currency: 'EUR' } } },
    {
      event: 'budget.reached',
      data: {
        run_id: OTHER_RUN_ID,
        budget: { amount: '0.01', currency: 'USD' },
        cost: { amount: '0.01', currency: 'USD' },
      },
    },
    { event: 'budget.raised', data: { run_id: OTHER_RUN_ID, budget: { amount: '-1', currency: 'USD' } } },
  ];
  for (let i = 1; i <= flood; i++) {
    out.push({ event: 'usage.updated', data: usd((i / 10000).toFixed(4)) });
  }
  return out;
}

/** The events hostile mode puts at the start of every stream (sequences 1..n, real events follow). */
export function openingEvents(options: HostileOptions): { event: string; data: Record<string, unknown> }[] {
  const out: { event: string; data: Record<string, unknown> }[] = [];
  if (options.eventNames) {
    for (const name of HOSTILE_EVENT_NAMES) {
      out.push({
        event: name,
        data: { title: `${HTML_PAYLOAD} ${COMMAND_LINK}`, summary: '<script>alert(1)</script>' },
      });
    }
  }
  if (options.eventFieldTypes) {
    out.push(...WRONG_TYPES);
  }
  const hugeBytes = options.hugeEventBytes ?? 0;
  if (hugeBytes > 0) {
    out.push({ event: 'observation.recorded', data: { step_id: 'step_huge', summary: hugeText(hugeBytes) } });
  }
  out.push(...reviewCommentEvents(options.reviewCommentEvents ?? 0));
  if (options.budgets) {
    out.push(...budgetEvents(options.budgetFlood ?? 0));
  }
  for (let i = 1; i <= (options.manyEventKinds ?? 0); i++) {
    out.push({ event: `hostile.kind.${i}`, data: { summary: `Unknown kind number ${i}` } });
  }
  return out;
}

/** An id no client made: hostile events name it, and ids of every wrong shape. */
export const HOSTILE_COMMENT_ID = 'rc_00000000-0000-4000-8000-000000000000';

/**
 * review_comment.addressed naming comments nobody wrote, with wrong types, a 1 MiB note, markup
 * and a bidi override in notes; then `count` events naming comments (the same few ids again and
 * again, alternately addressed and declined).
 */
function reviewCommentEvents(count: number): { event: string; data: Record<string, unknown> }[] {
  if (count <= 0) {
    return [];
  }
  const event = 'review_comment.addressed';
  const out: { event: string; data: Record<string, unknown> }[] = [
    { event, data: { comment_id: HOSTILE_COMMENT_ID, status: 'addressed', note: `${COMMAND_LINK} ${HTML_PAYLOAD}` } },
    {
      event,
      data: {
        comment_id: HOSTILE_COMMENT_ID,
        status: 'declined',
        note: `**bold** [x](command:workbench.action.quit) ${BIDI_OVERRIDE}`,
      },
    },
    { event, data: { comment_id: HOSTILE_COMMENT_ID, status: 'addressed', note: hugeText(1024 * 1024) } },
    { event, data: { comment_id: '__proto__', status: 'addressed' } },
    { event, data: { comment_id: 42, status: 'addressed', note: {} } },
    { event, data: { comment_id: HOSTILE_COMMENT_ID, status: '<script>alert(1)</script>' } },
  ];
  for (let i = 0; i < count; i++) {
    out.push({
      event,
      data: {
        comment_id: `rc_${String(i % 7).padStart(8, '0')}-0000-4000-8000-000000000000`,
        status: i % 2 === 0 ? 'addressed' : 'declined',
        note: `Event ${i + 1} about the same few comments.`,
      },
    });
  }
  return out;
}

function entry(sequence: number, event: string, data: Record<string, unknown>): LogEntry {
  return { kind: 'event', sequence, event, dataJson: JSON.stringify({ ...data, sequence }) };
}

/**
 * What serveEventStream reads from, as the log would: positions 1..E are the opening events,
 * then the real log shifted by E (sequence s becomes s + E), and once the run has ended the big
 * sequences go right before the terminal event.
 */
class HostileEventView {
  private readonly opening: LogEntry[];
  private readonly closing: LogEntry[];

  constructor(
    private readonly log: RunEventLog,
    private readonly options: HostileOptions,
  ) {
    this.opening = openingEvents(options).map((e, i) => entry(i + 1, e.event, e.data));
    this.closing = options.bigSequences
      ? BIG_SEQUENCES.map((sequence) =>
          entry(sequence, 'observation.recorded', { step_id: 'step_far_away', summary: `Sequence ${sequence}` }),
        )
      : [];
  }

  get ended(): boolean {
    return this.log.ended;
  }

  get size(): number {
    return this.opening.length + this.log.size + (this.log.ended ? this.closing.length : 0);
  }

  changed(): Promise<void> {
    return this.log.changed();
  }

  entryAt(position: number): LogEntry {
    const shift = this.opening.length;
    if (position <= shift) {
      return this.opening[position - 1];
    }
    const real = position - shift;
    const realSize = this.log.size;
    if (!this.log.ended || real < realSize) {
      return this.shifted(this.log.entryAt(real));
    }
    const k = real - realSize;
    return k < this.closing.length ? this.closing[k] : this.shifted(this.log.entryAt(realSize));
  }

  positionAfter(sequence: number): number {
    const shift = this.opening.length;
    if (sequence < 1) {
      return 1;
    }
    if (sequence <= shift) {
      return sequence + 1;
    }
    const realSize = this.log.size;
    const closingAt = this.closing.findIndex((e) => e.kind === 'event' && e.sequence === sequence);
    if (this.log.ended && closingAt >= 0) {
      return shift + realSize + closingAt + 1;
    }
    const next = this.log.positionAfter(sequence - shift);
    if (!this.log.ended || next < realSize) {
      return next + shift;
    }
    return next === realSize ? shift + realSize : this.size + 1;
  }

  private shifted(real: LogEntry): LogEntry {
    if (real.kind === 'raw') {
      return real;
    }
    const data = JSON.parse(real.dataJson) as Record<string, unknown>;
    poisonRecordStrings(
      data,
      { strings: this.options.strings, names: this.options.names, seed: this.options.seed },
      real.sequence,
    );
    return entry(real.sequence + this.opening.length, real.event, data);
  }
}

export function eventsAreHostile(options: HostileOptions): boolean {
  return Boolean(
    options.strings ||
    options.eventNames ||
    options.eventFieldTypes ||
    options.bigSequences ||
    options.budgets ||
    (options.manyEventKinds ?? 0) > 0 ||
    (options.hugeEventBytes ?? 0) > 0 ||
    (options.reviewCommentEvents ?? 0) > 0 ||
    (options.replayAfterDrop ?? 0) > 0,
  );
}

/**
 * Serves the hostile view with the usual stream machinery (keep-alives, backpressure and the
 * fault switches still apply). `after` is in the view's numbering.
 */
export async function serveHostileEvents(
  res: ServerResponse,
  log: RunEventLog,
  after: number,
  streamOptions: Omit<EventStreamOptions, 'after'>,
  options: HostileOptions,
): Promise<void> {
  const view = new HostileEventView(log, options);
  const replay = options.replayAfterDrop ?? 0;
  let dropAfterEvents = streamOptions.dropAfterEvents;
  let from = after;
  if (replay > 0) {
    // Everything up to `after` again, then `replay` new events, then the cut: duplicates every
    // time, yet a client that resumes makes progress.
    const budget = Math.min(view.positionAfter(after) - 1, view.size) + replay;
    dropAfterEvents = dropAfterEvents === undefined ? budget : Math.min(dropAfterEvents, budget);
    from = 0;
  }
  // The view reads like the log (the same five members); serveEventStream only needs those.
  await serveEventStream(res, view as unknown as RunEventLog, { ...streamOptions, after: from, dropAfterEvents });
}
