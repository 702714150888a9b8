// What the virtual list draws: the window's rows framed by the "earlier" / "later" rows when more
// exists that way, and each row's place in the whole (or filtered) log for assistive technology.
import { firstSequence, isFiltered, lastSequence, OTHER_KINDS, type Row, type TimelineState } from './reducer';

export function windowItems(state: TimelineState): Row[] {
  const w = state.window;
  const before: Row[] = [];
  if (w.hasBefore) {
    const count = !isFiltered(state.filter) && !w.hasAfter ? state.model.totalEvents - state.rows.length : undefined;
    before.push({ kind: 'omitted', sequence: 0, event: '', depth: 0, count });
  }
  return w.hasAfter
    ? [...before, ...state.rows, { kind: 'later', sequence: 0, event: '', depth: 0 }]
    : before.length
      ? [...before, ...state.rows]
      : state.rows;
}

/** The row's place in the whole log (or the filtered log); `items` as windowItems drew them. */
export function rowPosition(
  state: TimelineState,
  items: readonly Row[],
  row: Row,
  index: number,
): { posinset: number; setsize: number } {
  const w = state.window;
  const local = state.filter.kind === OTHER_KINDS;
  if (!isFiltered(state.filter)) {
    const setsize = Math.max(state.model.lastSequence, state.model.totalEvents, w.total ?? 0);
    if (row.sequence > 0) {
      return { posinset: row.sequence, setsize };
    }
    const next =
      row.kind === 'omitted' ? Math.max(1, firstSequence(state) - 1) : Math.min(setsize, lastSequence(state) + 1);
    return { posinset: next, setsize };
  }
  const offset = items[0]?.kind === 'omitted' ? 1 : 0;
  const rowIndex = Math.max(0, index - offset);
  if (!local && w.total !== undefined && !w.hasBefore) {
    return { posinset: rowIndex + 1, setsize: w.total };
  }
  if (!local && w.total !== undefined && !w.hasAfter) {
    return { posinset: Math.max(1, w.total - (state.rows.length - rowIndex) + 1), setsize: w.total };
  }
  // Where the window sits in the filtered log is not known: the size is said to be unknown.
  return { posinset: rowIndex + 1, setsize: -1 };
}
