// Which revision of a piece of work a run is: a follow-up (docs/PROTOCOL.md, Review
// conversations: `follow_up_of`; else the run it was forked or resumed from) is the next revision
// of its source. Walked up from the run over GET /v1/runs/{id}, bounded. Plain Node: no vscode.
import type { ApiClient } from '../api/client';
import type { RunRecord } from '../api/types';
import { sourceRunOf } from '../runEvents/runRevisions';

/** Revisions walked up from a run at most (a longer line counts from the oldest one read). */
export const MAX_REVISIONS = 50;

/**
 * The run and the revisions before it, newest first: [this run, revision N, ..., revision 1].
 * A run that cannot be read ends the walk there (a cancel still throws); a loop ends at the
 * first run seen twice.
 */
export async function revisionsOf(
  client: Pick<ApiClient, 'getRun'>,
  runId: string,
  signal: AbortSignal,
): Promise<string[]> {
  const line = [runId];
  let current = runId;
  while (line.length < MAX_REVISIONS) {
    let run: RunRecord;
    try {
      run = await client.getRun(current, { signal });
    } catch (err) {
      if (signal.aborted) {
        throw err;
      }
      break;
    }
    const source = sourceRunOf(run);
    if (!source || line.includes(source)) {
      break;
    }
    line.push(source);
    current = source;
  }
  return line;
}
