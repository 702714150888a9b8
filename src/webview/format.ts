// What each timeline row and header fact says, as plain strings and codicon names. Pure (no DOM),
// so the node tests check it; render.ts only puts these strings in place with textContent.
import { fill, formatDuration } from '../common/format';
import { fieldText } from '../runEvents/runModel';
import { statusIcon as sharedStatusIcon } from '../runEvents/runStatus';
import type { ConnectionView, UiStrings } from '../runPanel/protocol';
import type { Row, TimelineState } from './reducer';

export { fill, formatDuration } from '../common/format';

export interface RowView {
  icon: string;
  /** Extra class for the icon (colour, spin). */
  tone: '' | 'ok' | 'error' | 'muted' | 'spin' | 'attention';
  label: string;
  detail: string;
  meta: string;
}

/** The codicon and tone for a run status, as every surface shows it (src/runEvents/runStatus.ts). */
export function statusIcon(status: string | undefined): { icon: string; tone: RowView['tone'] } {
  const icon = sharedStatusIcon(status);
  return { icon: icon.id, tone: icon.tone };
}

export function connectionText(
  connection: ConnectionView,
  strings: UiStrings,
  secondsLeft: number | undefined,
): string {
  switch (connection.state) {
    case 'connecting':
      return strings.connecting;
    case 'live':
      return strings.live;
    case 'reconnecting':
      return secondsLeft !== undefined && secondsLeft > 0
        ? fill(strings.reconnectingIn, secondsLeft, connection.attempt)
        : strings.reconnectingNow;
    case 'ended':
      return strings.ended;
    case 'failed':
      return `${strings.failed}: ${connection.message}`;
  }
}

const MAX_DETAIL = 400;

/** The fields of an event other than its sequence, as `key: value` pairs on one line. */
export function fieldsText(data: Record<string, unknown>, skip: readonly string[] = []): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (key === 'sequence' || skip.includes(key)) {
      continue;
    }
    parts.push(`${key}: ${fieldText(value)}`);
  }
  const text = parts.join('  ·  ');
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text;
}

/** The running step's live elapsed time, or the step's duration once it completed. */
function stepMeta(state: TimelineState, stepId: string | undefined, now: number): { meta: string; running: boolean } {
  const step = stepId === undefined ? undefined : state.model.step(stepId);
  if (!step) {
    return { meta: '', running: false };
  }
  if (step.state === 'completed') {
    return { meta: step.durationMs !== undefined ? formatDuration(step.durationMs) : '', running: false };
  }
  const ended = state.model.terminalEvent !== undefined;
  return {
    meta: step.startedAt !== undefined && !ended ? formatDuration(Math.max(0, now - step.startedAt)) : '',
    running: !ended,
  };
}

export function rowView(state: TimelineState, row: Row, now: number): RowView {
  const s = state.strings;
  const data = row.raw?.data ?? { sequence: row.sequence };
  switch (row.kind) {
    case 'omitted':
      return {
        icon: 'fold-up',
        tone: 'muted',
        label: row.count !== undefined && row.count > 0 ? fill(s.loadEarlier, row.count) : s.loadEarlierUnknown,
        detail: '',
        meta: '',
      };
    case 'later':
      return { icon: 'fold-down', tone: 'muted', label: s.loadLater, detail: '', meta: '' };
    case 'plan':
      return {
        icon: 'list-tree',
        tone: '',
        label: fill(
          s.planSummary,
          typeof data.steps === 'number' ? data.steps : fieldText(data.steps),
          fieldText(data.strategy),
        ),
        detail: fieldsText(data, ['steps', 'strategy']),
        meta: '',
      };
    case 'step': {
      const step = row.stepId === undefined ? undefined : state.model.step(row.stepId);
      const { meta, running } = stepMeta(state, row.stepId, now);
      const title = row.raw ? fieldText(row.raw.data.title) : (step?.title ?? '');
      const detail = row.raw
        ? fieldsText(data, ['title'])
        : step
          ? `step_id: ${step.stepId}  ·  ${fill(s.compactedStep, step.toolCalls, step.observations)}`
          : '';
      if (step?.state === 'completed') {
        return { icon: 'pass', tone: 'ok', label: title, detail, meta };
      }
      return {
        icon: running ? 'sync' : 'circle-large-outline',
        tone: running ? 'spin' : 'muted',
        label: title,
        detail,
        meta,
      };
    }
    case 'tool':
      return { icon: 'tools', tone: '', label: fieldText(data.tool), detail: fieldsText(data, ['tool']), meta: '' };
    case 'observation':
      return { icon: 'eye', tone: '', label: fieldText(data.summary), detail: fieldsText(data, ['summary']), meta: '' };
    case 'stepCompleted':
      return {
        icon: 'check',
        tone: 'ok',
        label: s.stepCompleted,
        detail: fieldsText(data, ['duration_ms']),
        meta: typeof data.duration_ms === 'number' ? formatDuration(data.duration_ms) : '',
      };
    case 'terminal': {
      const status = typeof data.status === 'string' && data.status ? data.status : row.event.slice('run.'.length);
      const { icon, tone } = statusIcon(status);
      return { icon, tone, label: fill(s.runEnded, status), detail: fieldsText(data, ['status']), meta: '' };
    }
    case 'unknown':
      return { icon: 'symbol-event', tone: '', label: row.event, detail: fieldsText(data), meta: '' };
  }
}

/** Elapsed run time: from the run record when known, else from the first event seen. */
export function elapsedMs(state: TimelineState, now: number): number | undefined {
  const started = parseTime(state.info.startedAt) ?? state.model.firstSeenAt;
  if (started === undefined) {
    return undefined;
  }
  const terminal = state.model.terminalEvent;
  const end = parseTime(state.info.completedAt) ?? (terminal ? (terminal.receivedAt ?? now) : now);
  return Math.max(0, end - started);
}

/**
 * Whether the panel's text changes with the clock alone: a run not yet ended (its elapsed time
 * and its running steps' durations grow) or a reconnect countdown. An ended run's panel has
 * nothing to redraw each second.
 */
export function clockMatters(state: TimelineState, countingDown: boolean): boolean {
  return countingDown || (state.model.terminalEvent === undefined && parseTime(state.info.completedAt) === undefined);
}

/** The run's total duration for the summary: run record times, else the sum of step durations. */
export function totalDurationMs(state: TimelineState): number | undefined {
  const started = parseTime(state.info.startedAt);
  const completed = parseTime(state.info.completedAt);
  if (started !== undefined && completed !== undefined) {
    return Math.max(0, completed - started);
  }
  let sum = 0;
  let any = false;
  for (const step of state.model.stepSummaries()) {
    if (step.durationMs !== undefined) {
      sum += step.durationMs;
      any = true;
    }
  }
  return any ? sum : undefined;
}

function parseTime(value: string | undefined): number | undefined {
  if (!value) {
    return undefined;
  }
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}
