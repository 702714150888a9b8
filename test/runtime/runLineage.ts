// What a resumed or forked run takes from its source: the steps already done, the events to copy.
import { type RunEventLog, TERMINAL_EVENT_NAMES } from './eventLog';

/** step_ids with a step.completed in the log, up to `throughSequence` (default: the whole log). */
export function completedSteps(log: RunEventLog, throughSequence = Number.POSITIVE_INFINITY): Set<string> {
  const done = new Set<string>();
  for (const event of eventsOf(log, throughSequence)) {
    if (event.event === 'step.completed' && typeof event.data.step_id === 'string') {
      done.add(event.data.step_id);
    }
  }
  return done;
}

/** The events a fork starts with: kinds and data of the source's 1..through, terminal events left out. */
export function copiedEvents(log: RunEventLog, through: number): { event: string; data: Record<string, unknown> }[] {
  return eventsOf(log, through)
    .filter((e) => !TERMINAL_EVENT_NAMES.includes(e.event))
    .map(({ event, data }) => {
      const { sequence: _renumbered, ...fields } = data;
      return { event, data: fields };
    });
}

/** The step number a follow-up step takes: past every step the source's lineage has used. */
export function nextStepNumber(stepIds: Iterable<string>, baseCount: number): number {
  let highest = baseCount;
  for (const id of stepIds) {
    const found = /^step_(\d+)$/.exec(id);
    if (found) {
      highest = Math.max(highest, Number(found[1]));
    }
  }
  return highest + 1;
}

export function stepIdsIn(log: RunEventLog, throughSequence = Number.POSITIVE_INFINITY): string[] {
  return eventsOf(log, throughSequence)
    .filter((e) => e.event === 'step.started' && typeof e.data.step_id === 'string')
    .map((e) => e.data.step_id as string);
}

function eventsOf(log: RunEventLog, throughSequence: number): { event: string; data: Record<string, unknown> }[] {
  const out: { event: string; data: Record<string, unknown> }[] = [];
  for (let position = 1; position <= log.size; position++) {
    const entry = log.entryAt(position);
    if (entry.kind !== 'event') {
      continue;
    }
    if (entry.sequence > throughSequence) {
      break;
    }
    out.push({ event: entry.event, data: JSON.parse(entry.dataJson) as Record<string, unknown> });
  }
  return out;
}
