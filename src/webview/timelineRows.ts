// Timeline rows from events: which kind of row an event makes, and where it goes in display
// order (children under their step). Pure: the reducer builds its window with these.
import { type RunModel, stepIdOf } from '../runEvents/runModel';
import { isTerminalEvent } from '../runEvents/runStatus';
import type { WireEvent } from '../runEvents/wire';

export type RowKind =
  'plan' | 'step' | 'tool' | 'observation' | 'stepCompleted' | 'terminal' | 'unknown' | 'omitted' | 'later';

export interface Row {
  kind: RowKind;
  /** The event's sequence; 0 for the "earlier" / "later" rows, which carry no event. */
  sequence: number;
  /** The event name ('' for the earlier / later rows). */
  event: string;
  depth: 0 | 1;
  stepId?: string;
  /** The raw event; absent for a step known only from the compacted model. */
  raw?: WireEvent;
  /** For the "earlier" row: how many events it stands for, when known. */
  count?: number;
}

export function rowFor(model: RunModel, event: WireEvent): Row {
  const sequence = event.data.sequence;
  const name = event.event;
  switch (name) {
    case 'plan.created':
      return { kind: 'plan', sequence, event: name, depth: 0, stepId: undefined, raw: event };
    case 'step.started':
      return { kind: 'step', sequence, event: name, depth: 0, stepId: stepIdOf(event), raw: event };
    case 'tool.called':
      return nested(model, 'tool', event);
    case 'observation.recorded':
      return nested(model, 'observation', event);
    case 'step.completed':
      return nested(model, 'stepCompleted', event);
    default:
      if (isTerminalEvent(name)) {
        return { kind: 'terminal', sequence, event: name, depth: 0, stepId: undefined, raw: event };
      }
      return nested(model, 'unknown', event);
  }
}

/** A child row stays nested only when its step is known; otherwise it stands at the top level. */
function nested(model: RunModel, kind: RowKind, event: WireEvent): Row {
  const stepId = stepIdOf(event);
  const known = stepId !== undefined && model.step(stepId) !== undefined;
  return {
    kind,
    sequence: event.data.sequence,
    event: event.event,
    depth: known ? 1 : 0,
    stepId: known ? stepId : undefined,
    raw: event,
  };
}

/**
 * Puts a row in display order: a child after the last row of its step's group, anything else at
 * the end. Returns true when that was the end. The backward scan is bounded: children belong to
 * recent steps, and under a filter a step's group may not be in the window at all.
 */
export function placeRow(rows: Row[], row: Row): boolean {
  if (row.depth === 0 || row.stepId === undefined) {
    rows.push(row);
    return true;
  }
  for (let i = rows.length - 1; i >= Math.max(0, rows.length - 256); i--) {
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
