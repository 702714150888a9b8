// Revisions of one piece of work: a run and the runs that continue it (follow-ups with review
// comments, forks, resumes; sourceRunOf below) numbered 1, 2, 3 along the chain.
// Pure: the Tasks view gives it a task's runs and the links it knows.
import { isRunId } from './ids';

/** What a run record says of the run it continues (the fields, unchecked, as the server sent them). */
export interface ContinuedFrom {
  follow_up_of?: unknown;
  forked_from?: { run_id?: unknown } | null;
  resumed_from?: unknown;
}

/**
 * The run a run continues, by the one rule the Tasks view and Review Changes share:
 * `follow_up_of`, else the run it was forked from, else the one it was resumed from.
 */
export function sourceRunOf(run: ContinuedFrom | undefined): string | undefined {
  if (!run) {
    return undefined;
  }
  if (isRunId(run.follow_up_of)) {
    return run.follow_up_of;
  }
  const forked = typeof run.forked_from === 'object' && run.forked_from !== null ? run.forked_from.run_id : undefined;
  if (isRunId(forked)) {
    return forked;
  }
  return isRunId(run.resumed_from) ? run.resumed_from : undefined;
}

/** A chain longer than this is not numbered past it (a server could make one of any length). */
export const MAX_REVISIONS = 100;

/**
 * The revision number of each run that is part of a chain: the run the first comments were
 * written on is 1, its follow-up 2, and so on. A run neither followed up nor a follow-up of a
 * listed run gets no number; a link to a run not listed starts the chain at the follower (the
 * source is not known here); a circle of links numbers nothing in it.
 */
export function revisionNumbers(
  runIds: readonly string[],
  followUpOf: (runId: string) => string | undefined,
): Map<string, number> {
  const listed = new Set(runIds);
  const source = new Map<string, string>();
  for (const id of runIds) {
    const of = followUpOf(id);
    if (of !== undefined && of !== id && listed.has(of)) {
      source.set(id, of);
    }
  }
  const followed = new Set(source.values());
  const numbers = new Map<string, number>();
  for (const id of runIds) {
    if (!source.has(id) && !followed.has(id)) {
      continue;
    }
    // Walk back to the chain's start, at most MAX_REVISIONS steps.
    let depth = 1;
    let at = id;
    const seen = new Set([id]);
    let circle = false;
    while (source.has(at)) {
      at = source.get(at) as string;
      if (seen.has(at)) {
        circle = true;
        break;
      }
      seen.add(at);
      depth++;
      if (depth > MAX_REVISIONS) {
        break;
      }
    }
    if (!circle && depth <= MAX_REVISIONS) {
      numbers.set(id, depth);
    }
  }
  return numbers;
}
