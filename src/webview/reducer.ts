// The run panel's view model: host messages in, timeline rows (nested under their steps) and
// header facts out. Pure (no DOM): the node tests drive it directly. It mutates in place and
// reports what changed, because copying 100,000 rows per batch would not stay smooth.
import { matchesFilter } from '../runEvents/logQuery';
import { DEFAULT_LIMITS, RunModel } from '../runEvents/runModel';
import { noteSpendEvent, type SpendSeen } from '../runEvents/spendMeter';
import type { RunSnapshot, WireEvent } from '../runEvents/wire';
import {
  type ArtifactsView,
  type ConnectionView,
  DEFAULT_UI_STRINGS,
  type HostMessage,
  readReceivedMoney,
  type RunInfo,
  type UiStrings,
} from '../runPanel/protocol';
import { type Filter, NO_FILTER, OTHER_KINDS, toLogFilter } from './filter';
import { placeRow, type Row, rowFor } from './timelineRows';

// Re-exported: the panel's code and tests know them as the reducer's.
export { fromLogFilter, isFiltered, NO_FILTER, OTHER_KINDS, toLogFilter, type Filter } from './filter';
export type { Row, RowKind } from './timelineRows';

/**
 * The rows the panel holds are a window onto the whole log (the host keeps it): at most
 * MAX_WINDOW_ROWS contiguous events that pass the filter. At the live end it takes streamed
 * events; elsewhere it only counts them and pages in from the host as the user scrolls.
 */
export const MAX_WINDOW_ROWS = 2000;
/** Events asked for per page. */
export const PAGE_EVENTS = 250;
/** Tools remembered for the tool filter. */
const MAX_TOOLS = 200;

export interface LogWindow {
  /** More events passing the filter exist before the first row (or may: until the host says). */
  hasBefore: boolean;
  /** The window is not at the live end: newer events exist past its last row. */
  hasAfter: boolean;
  /** Events passing the filter that streamed in while the window was away from the live end. */
  newAway: number;
  /** Events passing the filter in the whole log, as the host last counted them. */
  total?: number;
  /**
   * The lowest sequence the host's pages reached above the first row. A filter the host cannot
   * apply (OTHER_KINDS) gets whole pages with none passing: paging on from here, not from the
   * first row, is what moves the way up past them.
   */
  scannedFrom?: number;
}

export interface TimelineState {
  runId: string;
  model: RunModel;
  /** The window's rows in display order (all pass the filter). */
  rows: Row[];
  /** The same array as `rows` (kept for the renderer's older name). */
  visible: Row[];
  filter: Filter;
  window: LogWindow;
  /** Tool names seen in events (the tool filter's choices). */
  tools: Set<string>;
  info: RunInfo;
  connection: ConnectionView;
  artifacts: ArtifactsView;
  strings: UiStrings;
  /** The newest cost and cap as received (the header's meter checks them when it draws). */
  spend: SpendSeen;
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
    filter: { ...NO_FILTER },
    window: { hasBefore: false, hasAfter: false, newAway: 0 },
    tools: new Set(),
    info: { runId },
    connection: { state: 'connecting' },
    artifacts: { state: 'none' },
    strings: { ...DEFAULT_UI_STRINGS },
    spend: {},
  };
}

/** Applies one host message; returns what the renderer must redraw. */
export function reduce(state: TimelineState, message: HostMessage): Change {
  switch (message.type) {
    case 'reset':
      resetFromSnapshot(state, message.snapshot);
      state.info = { ...message.info };
      state.spend = {};
      takeSpend(state, message.info);
      state.connection = message.connection;
      state.artifacts = message.artifacts;
      state.strings = { ...DEFAULT_UI_STRINGS, ...message.strings };
      return { rows: true, header: true, artifacts: true, reset: true, appendedOnly: false };
    case 'events':
      return applyEvents(state, message.events);
    case 'info':
      state.info = { ...state.info, ...message.info };
      takeSpend(state, message.info);
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
      // Answers to the webview's own requests: app.ts matches them to what it asked (applyPage).
      return NO_CHANGE;
  }
}

/**
 * The cost and cap an info carries (the host's newest, read from the run's events and record): a
 * value that is not a checked-shape amount is dropped; an info from an older host without them
 * changes nothing.
 */
function takeSpend(state: TimelineState, info: RunInfo): void {
  if (info.budget !== undefined) {
    state.spend.cap = info.budget === null ? undefined : readReceivedMoney(info.budget);
  }
  if (info.spent !== undefined) {
    state.spend.cost = info.spent === null ? undefined : readReceivedMoney(info.spent);
  }
}

/** Whether an event belongs in the window under the current filter (logQuery.ts decides). */
export function passes(state: TimelineState, event: WireEvent): boolean {
  if (!matchesFilter(event, toLogFilter(state.filter))) {
    return false;
  }
  if (state.filter.kind === OTHER_KINDS && state.model.kindCounts().has(event.event)) {
    return false;
  }
  return true;
}

/** Adds events in stream order; repeats (at or below the last sequence) are ignored. */
export function applyEvents(state: TimelineState, events: readonly WireEvent[]): Change {
  const accepted = state.model.apply(events);
  if (accepted.length === 0) {
    return NO_CHANGE;
  }
  let appendedOnly = true;
  const filter = toLogFilter(state.filter);
  const other = state.filter.kind === OTHER_KINDS;
  for (const event of accepted) {
    noteTool(state, event);
    noteSpendEvent(state.spend, state.runId, event);
    if (!matchesFilter(event, filter) || (other && state.model.kindCounts().has(event.event))) {
      continue;
    }
    // Away from the live end the window does not grow: the newest rows are counted for "Jump to newest".
    if (state.window.hasAfter) {
      state.window.newAway++;
      continue;
    }
    if (state.window.total !== undefined) {
      state.window.total++;
    }
    if (!placeRow(state.rows, rowFor(state.model, event))) {
      appendedOnly = false;
    }
  }
  if (trimStart(state)) {
    appendedOnly = false;
  }
  return { rows: true, header: true, artifacts: false, reset: false, appendedOnly };
}

/** Sets the filter and rebuilds the window at the live end from the events the model keeps. */
export function setFilter(state: TimelineState, filter: Filter): void {
  state.filter = { ...filter };
  state.window.total = undefined;
  rebuildAtEnd(state);
}

/**
 * The window at the live end, from the newest raw events the model keeps (no host round trip):
 * what a filter change and "Jump to newest" show at once, before the host's page refines it.
 */
export function rebuildAtEnd(state: TimelineState): void {
  const snapshot = state.model.snapshot();
  const rows: Row[] = [];
  for (const event of snapshot.recent) {
    if (passes(state, event)) {
      placeRow(rows, rowFor(state.model, event));
    }
  }
  setRows(state, rows);
  state.window.scannedFrom = snapshot.recent.length > 0 ? snapshot.recent[0].data.sequence : undefined;
  state.window.hasBefore = snapshot.eventsOmitted > 0;
  state.window.hasAfter = false;
  state.window.newAway = 0;
  trimStart(state);
}

/**
 * Puts a host `page` into the window: `before` goes on top (the far end is dropped past the
 * bound), `after` at the bottom (the top is dropped), `around` replaces it. A window whose page
 * reached the live end takes the newest kept events too and follows the stream again.
 * Returns the rows added on top and removed from the top (the list keeps its place by them).
 */
export function applyPage(
  state: TimelineState,
  direction: 'before' | 'after' | 'around',
  page: { events: WireEvent[]; before: boolean; after: boolean; total?: number },
): { addedTop: number; removedTop: number } {
  if (page.total !== undefined) {
    state.window.total = page.total;
  }
  for (const event of page.events) {
    noteTool(state, event);
  }
  const have = new Set<number>();
  for (const row of state.rows) {
    have.add(row.sequence);
  }
  const fresh = (e: WireEvent) => Number.isSafeInteger(e.data?.sequence) && passes(state, e);
  if (direction === 'before') {
    const first = firstSequence(state);
    const added = page.events
      .filter((e) => fresh(e) && e.data.sequence < first && !have.has(e.data.sequence))
      .map((e) => rowFor(state.model, e));
    setRows(state, [...added, ...state.rows]);
    const reached = lowestSequence(page.events);
    if (reached < first) {
      state.window.scannedFrom = reached;
    }
    // A page that reached no further up ends the way up (a host that does not move cannot loop us);
    // one that did goes on even when none of its events pass the filter.
    state.window.hasBefore = page.before && reached < first;
    if (state.rows.length > MAX_WINDOW_ROWS) {
      state.rows.length = MAX_WINDOW_ROWS;
      leaveLiveEnd(state);
    }
    return { addedTop: added.length, removedTop: 0 };
  }
  if (direction === 'after') {
    const last = lastSequence(state);
    const before = state.rows.length;
    for (const e of page.events) {
      if (fresh(e) && e.data.sequence > last && !have.has(e.data.sequence)) {
        state.rows.push(rowFor(state.model, e));
      }
    }
    if (!page.after || state.rows.length === before) {
      catchUp(state);
    } else {
      state.window.hasAfter = true;
    }
    return { addedTop: 0, removedTop: trimStart(state) };
  }
  setRows(
    state,
    page.events.filter(fresh).map((e) => rowFor(state.model, e)),
  );
  state.window.scannedFrom = page.events.length > 0 ? lowestSequence(page.events) : undefined;
  state.window.hasBefore = page.before;
  if (!page.after) {
    catchUp(state);
  } else {
    leaveLiveEnd(state);
  }
  trimStart(state);
  return { addedTop: 0, removedTop: 0 };
}

/** The window left the live end: newer events are counted from now on. */
function leaveLiveEnd(state: TimelineState): void {
  if (!state.window.hasAfter) {
    state.window.newAway = 0;
  }
  state.window.hasAfter = true;
}

/** The page reached the end of the host's log: add what the stream brought since, and follow it. */
function catchUp(state: TimelineState): void {
  const last = lastSequence(state);
  for (const event of state.model.snapshot().recent) {
    if (event.data.sequence > last && passes(state, event)) {
      placeRow(state.rows, rowFor(state.model, event));
    }
  }
  state.window.hasAfter = false;
  state.window.newAway = 0;
}

/** Where the window reaches up to: its first row, or further where the pages above it held no row. */
export function firstSequence(state: TimelineState): number {
  let first = state.window.scannedFrom ?? Number.POSITIVE_INFINITY;
  // Rows are in sequence order but for children placed under an earlier step: the first few decide.
  for (let i = 0; i < Math.min(state.rows.length, 64); i++) {
    if (state.rows[i].sequence > 0) {
      first = Math.min(first, state.rows[i].sequence);
    }
  }
  return Number.isFinite(first) ? first : state.model.lastSequence + 1;
}

export function lastSequence(state: TimelineState): number {
  let last = 0;
  for (let i = state.rows.length - 1; i >= Math.max(0, state.rows.length - 64); i--) {
    last = Math.max(last, state.rows[i].sequence);
  }
  return last;
}

function setRows(state: TimelineState, rows: Row[]): void {
  state.rows = rows;
  state.visible = rows;
}

/** Drops rows from the top past the bound (a quarter more, so trims stay rare); returns how many. */
function trimStart(state: TimelineState): number {
  if (state.rows.length <= MAX_WINDOW_ROWS) {
    return 0;
  }
  const drop = state.rows.length - Math.floor((MAX_WINDOW_ROWS * 3) / 4);
  state.rows.splice(0, drop);
  state.window.scannedFrom = undefined;
  state.window.hasBefore = true;
  return drop;
}

function lowestSequence(events: readonly WireEvent[]): number {
  let lowest = Number.POSITIVE_INFINITY;
  for (const e of events) {
    if (Number.isSafeInteger(e.data?.sequence)) {
      lowest = Math.min(lowest, e.data.sequence);
    }
  }
  return lowest;
}

function noteTool(state: TimelineState, event: WireEvent): void {
  const tool = event.data.tool;
  if (typeof tool === 'string' && tool !== '' && tool.length <= 200 && state.tools.size < MAX_TOOLS) {
    state.tools.add(tool);
  }
}

/**
 * The kinds seen so far, most frequent first (the filter's choices): as many as the model counts
 * by name, then OTHER_KINDS when events of further kinds came.
 */
export function kindsSeen(state: TimelineState): string[] {
  const kinds = state.model.kindCounts();
  const names = [...kinds.keys()].sort((a, b) => (kinds.get(b) ?? 0) - (kinds.get(a) ?? 0) || a.localeCompare(b));
  if (state.model.otherKindCount > 0) {
    names.push(OTHER_KINDS);
  }
  return names;
}

function resetFromSnapshot(state: TimelineState, snapshot: RunSnapshot): void {
  state.runId = snapshot.runId;
  state.model = new RunModel(snapshot.runId, DEFAULT_LIMITS, snapshot);
  state.window = { hasBefore: false, hasAfter: false, newAway: 0 };
  for (const event of snapshot.recent) {
    noteTool(state, event);
  }
  // The window is contiguous: what the snapshot summarised is paged in from the host on the way up
  // (the outline lists its steps meanwhile).
  rebuildAtEnd(state);
}
