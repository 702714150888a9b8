// The run panel's view model: host messages in, timeline rows (nested under their steps) and
// header facts out. Pure (no DOM): the node tests drive it directly. It mutates in place and
// reports what changed, because copying 100,000 rows per batch would not stay smooth.
import { isTerminalEvent } from '../common/runStatus';
import { RunModel, DEFAULT_LIMITS, fieldText, stepIdOf } from '../runPanel/runModel';
import {
  DEFAULT_UI_STRINGS,
  type ArtifactsView,
  type ConnectionView,
  type HostMessage,
  type RunInfo,
  type RunSnapshot,
  type UiStrings,
  type WireEvent,
} from '../runPanel/protocol';

export type RowKind = 'plan' | 'step' | 'tool' | 'observation' | 'stepCompleted' | 'terminal' | 'unknown' | 'omitted';

export interface Row {
  kind: RowKind;
  /** The event's sequence; 0 for the "earlier events summarised" row, which carries no event. */
  sequence: number;
  /** The event name ('' for the summary row). */
  event: string;
  depth: 0 | 1;
  stepId?: string;
  /** The raw event; absent for a step known only from the compacted model. */
  raw?: WireEvent;
  /** For the summary row: how many events it stands for. */
  count?: number;
  /** Lower-cased text the search matches, built on first search. */
  searchText?: string;
}

/** The kind filter's value for the events of kinds past the model's cap (not a name a row can have). */
export const OTHER_KINDS = '\u0000other kinds';

export interface Filter {
  /** '' for every kind, OTHER_KINDS for those past the cap, else an event name. */
  kind: string;
  text: string;
}

export interface TimelineState {
  runId: string;
  model: RunModel;
  rows: Row[];
  /** The rows the filter lets through; the same array as `rows` when nothing is filtered. */
  visible: Row[];
  filter: Filter;
  info: RunInfo;
  connection: ConnectionView;
  artifacts: ArtifactsView;
  strings: UiStrings;
}

export interface Change {
  rows: boolean;
  header: boolean;
  artifacts: boolean;
  reset: boolean;
  /** True when every new row went to the end (the follow mode may stick to the bottom). */
  appendedOnly: boolean;
}

const NO_CHANGE: Change = { rows: false, header: false, artifacts: false, reset: false, appendedOnly: true };

export function initialState(runId: string, limits = DEFAULT_LIMITS): TimelineState {
  const rows: Row[] = [];
  return {
    runId,
    model: new RunModel(runId, limits),
    rows,
    visible: rows,
    filter: { kind: '', text: '' },
    info: { runId },
    connection: { state: 'connecting' },
    artifacts: { state: 'none' },
    strings: { ...DEFAULT_UI_STRINGS },
  };
}

/** Applies one host message; returns what the renderer must redraw. */
export function reduce(state: TimelineState, message: HostMessage): Change {
  switch (message.type) {
    case 'reset':
      resetFromSnapshot(state, message.snapshot);
      state.info = { ...message.info };
      state.connection = message.connection;
      state.artifacts = message.artifacts;
      state.strings = { ...DEFAULT_UI_STRINGS, ...message.strings };
      return { rows: true, header: true, artifacts: true, reset: true, appendedOnly: false };
    case 'events':
      return applyEvents(state, message.events);
    case 'info':
      state.info = { ...state.info, ...message.info };
      return { ...NO_CHANGE, header: true };
    case 'connection':
      state.connection = message.connection;
      return { ...NO_CHANGE, header: true };
    case 'artifacts':
      state.artifacts = message.artifacts;
      return { ...NO_CHANGE, artifacts: true };
    case 'page':
    case 'found':
    case 'reveal':
      // Not part of the model: main.ts handles them (the log window and the find bar).
      return NO_CHANGE;
  }
}

/** Adds events in stream order; repeats (at or below the last sequence) are ignored. */
export function applyEvents(state: TimelineState, events: readonly WireEvent[]): Change {
  const accepted = state.model.apply(events);
  if (accepted.length === 0) return NO_CHANGE;
  let appendedOnly = true;
  const appended: Row[] = [];
  for (const event of accepted) {
    const row = rowFor(state, event);
    if (placeRow(state.rows, row)) appended.push(row);
    else appendedOnly = false;
  }
  if (state.visible !== state.rows) {
    if (appendedOnly) {
      for (const row of appended) if (matches(state, row)) state.visible.push(row);
    } else {
      state.visible = filterRows(state);
    }
  }
  return { rows: true, header: true, artifacts: false, reset: false, appendedOnly };
}

export function setFilter(state: TimelineState, filter: Filter): void {
  state.filter = { kind: filter.kind, text: filter.text.trim().toLowerCase() };
  state.visible = state.filter.kind === '' && state.filter.text === '' ? state.rows : filterRows(state);
}

/**
 * The kinds seen so far, most frequent first (the filter's choices): as many as the model counts
 * by name, then OTHER_KINDS when events of further kinds came.
 */
export function kindsSeen(state: TimelineState): string[] {
  const kinds = state.model.kindCounts();
  const names = [...kinds.keys()].sort((a, b) => (kinds.get(b) ?? 0) - (kinds.get(a) ?? 0) || a.localeCompare(b));
  if (state.model.otherKindCount > 0) names.push(OTHER_KINDS);
  return names;
}

function resetFromSnapshot(state: TimelineState, snapshot: RunSnapshot): void {
  state.runId = snapshot.runId;
  state.model = new RunModel(snapshot.runId, DEFAULT_LIMITS, snapshot);
  const rows: Row[] = [];
  if (snapshot.eventsOmitted > 0) rows.push({ kind: 'omitted', sequence: 0, event: '', depth: 0, count: snapshot.eventsOmitted });
  const firstRecent = snapshot.recent.length > 0 ? snapshot.recent[0].data.sequence : Number.POSITIVE_INFINITY;
  // Steps whose step.started fell out of the raw window still get their row, from the aggregate.
  for (const step of snapshot.steps) {
    if (step.startSequence > 0 && step.startSequence < firstRecent) {
      rows.push({ kind: 'step', sequence: step.startSequence, event: 'step.started', depth: 0, stepId: step.stepId, raw: undefined });
    }
  }
  state.rows = rows;
  for (const event of snapshot.recent) placeRow(rows, rowFor(state, event));
  state.visible = state.filter.kind === '' && state.filter.text === '' ? rows : filterRows(state);
}

function rowFor(state: TimelineState, event: WireEvent): Row {
  const sequence = event.data.sequence;
  const name = event.event;
  switch (name) {
    case 'plan.created':
      return { kind: 'plan', sequence, event: name, depth: 0, stepId: undefined, raw: event };
    case 'step.started':
      return { kind: 'step', sequence, event: name, depth: 0, stepId: stepIdOf(event), raw: event };
    case 'tool.called':
      return nested(state, 'tool', event);
    case 'observation.recorded':
      return nested(state, 'observation', event);
    case 'step.completed':
      return nested(state, 'stepCompleted', event);
    default:
      if (isTerminalEvent(name)) return { kind: 'terminal', sequence, event: name, depth: 0, stepId: undefined, raw: event };
      return nested(state, 'unknown', event);
  }
}

/** A child row stays nested only when its step is known; otherwise it stands at the top level. */
function nested(state: TimelineState, kind: RowKind, event: WireEvent): Row {
  const stepId = stepIdOf(event);
  const known = stepId !== undefined && state.model.step(stepId) !== undefined;
  return { kind, sequence: event.data.sequence, event: event.event, depth: known ? 1 : 0, stepId: known ? stepId : undefined, raw: event };
}

/**
 * Puts a row in display order: a child after the last row of its step's group, anything else at
 * the end. Returns true when that was the end. The backward scan is short in practice: children
 * belong to recent steps.
 */
function placeRow(rows: Row[], row: Row): boolean {
  if (row.depth === 0 || row.stepId === undefined) {
    rows.push(row);
    return true;
  }
  for (let i = rows.length - 1; i >= 0; i--) {
    if (rows[i].stepId === row.stepId) {
      if (i === rows.length - 1) {
        rows.push(row);
        return true;
      }
      rows.splice(i + 1, 0, row);
      return false;
    }
  }
  rows.push(row);
  return true;
}

function filterRows(state: TimelineState): Row[] {
  return state.rows.filter((row) => matches(state, row));
}

function matches(state: TimelineState, row: Row): boolean {
  const { kind, text } = state.filter;
  if (kind === OTHER_KINDS) {
    if (row.kind === 'omitted' || state.model.kindCounts().has(row.event)) return false;
  } else if (kind !== '' && row.event !== kind) return false;
  if (text === '') return true;
  row.searchText ??= searchTextOf(state, row);
  return row.searchText.includes(text);
}

function searchTextOf(state: TimelineState, row: Row): string {
  const parts: string[] = [row.event, String(row.sequence)];
  if (row.raw) {
    for (const [key, value] of Object.entries(row.raw.data)) if (key !== 'sequence') parts.push(fieldText(value));
  } else if (row.stepId !== undefined) {
    parts.push(row.stepId, state.model.step(row.stepId)?.title ?? '');
  }
  return parts.join(' ').toLowerCase();
}
