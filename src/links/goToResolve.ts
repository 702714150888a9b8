// Reads the one record "Go to…" names, by id: GET /v1/tasks/{id}, /v1/runs/{id}, /v1/files/{id}.
// An artifact has no read of its own in the API, so it is found in its run's artifact list
// (GET /v1/runs/{id}/artifacts, a bounded number of pages). Plain Node: tested over HTTP.
import { isApiError } from '../api/errors';
import { paginate } from '../api/pagination';
import type { ArtifactRecord, FileRecord, Page, PageParams, RunRecord, TaskRecord } from '../api/types';
import type { GoToTarget } from './goToInput';

/** The reads "Go to…" needs (ApiClient satisfies it); ids go into paths through pathSegment there. */
export interface GoToClient {
  getTask(id: string, opts?: { signal?: AbortSignal }): Promise<TaskRecord>;
  getRun(id: string, opts?: { signal?: AbortSignal }): Promise<RunRecord>;
  getFile(id: string, opts?: { signal?: AbortSignal }): Promise<FileRecord>;
  listRunArtifacts(runId: string, params?: PageParams, opts?: { signal?: AbortSignal }): Promise<Page<ArtifactRecord>>;
}

export type GoToFound =
  | { kind: 'task'; task: TaskRecord }
  | { kind: 'run'; run: RunRecord; sequence?: number }
  | { kind: 'file'; file: FileRecord }
  | { kind: 'artifact'; artifact: ArtifactRecord; run: RunRecord };

export type GoToResult =
  | { found: GoToFound }
  /** The server has no such record (404). */
  | { notFound: true }
  /** A bare artifact id: which run it belongs to cannot be asked of the API. */
  | { needsRun: true }
  /** The run's artifact list went on past the pages read: the artifact may be further on. */
  | { stoppedLooking: { searched: number } };

/** Artifact pages read at most when looking for one artifact in its run. */
export const MAX_ARTIFACT_PAGES = 20;
const ARTIFACT_PAGE_SIZE = 100;

/** 404 on a read: no such record. An endpoint the server lacks (405) stays an error. */
function isMissing(err: unknown): boolean {
  return isApiError(err, 'not_found') || (isApiError(err, 'not_supported') && err.status === 404);
}

export async function resolveGoTo(target: GoToTarget, client: GoToClient, signal?: AbortSignal): Promise<GoToResult> {
  try {
    switch (target.kind) {
      case 'task':
        return { found: { kind: 'task', task: await client.getTask(target.id, { signal }) } };
      case 'run':
        return { found: { kind: 'run', run: await client.getRun(target.id, { signal }), sequence: target.sequence } };
      case 'file':
        return { found: { kind: 'file', file: await client.getFile(target.id, { signal }) } };
      case 'artifact': {
        if (target.runId === undefined) {
          return { needsRun: true };
        }
        const run = await client.getRun(target.runId, { signal });
        const search = await findArtifact(client, target.runId, target.id, signal);
        if ('artifact' in search) {
          return { found: { kind: 'artifact', artifact: search.artifact, run } };
        }
        return search.exhausted ? { notFound: true } : { stoppedLooking: { searched: search.searched } };
      }
    }
  } catch (err) {
    if (isMissing(err)) {
      return { notFound: true };
    }
    throw err;
  }
}

type ArtifactSearch = { artifact: ArtifactRecord } | { exhausted: boolean; searched: number };

async function findArtifact(
  client: GoToClient,
  runId: string,
  artifactId: string,
  signal?: AbortSignal,
): Promise<ArtifactSearch> {
  // The one pager: a cursor that does not move ends the list; so do the page and item caps.
  const walk = paginate<ArtifactRecord>(
    (params, walkSignal) => client.listRunArtifacts(runId, params, { signal: walkSignal }),
    { limit: ARTIFACT_PAGE_SIZE },
    { maxPages: MAX_ARTIFACT_PAGES, maxItems: MAX_ARTIFACT_PAGES * ARTIFACT_PAGE_SIZE, signal },
  );
  let searched = 0;
  for await (const artifact of walk) {
    if (artifact?.id === artifactId) {
      return { artifact };
    }
    searched++;
  }
  // Not cut: the list ended, so the artifact is not in this run.
  return { exhausted: walk.cut === undefined, searched };
}
