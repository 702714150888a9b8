// What a review reads from the server before it compares anything: the run's outputs, through
// the one pager, with a cap the review then tells the user about. Also the check "does this run
// have reviewable changes?" run when a followed run ends. Plain Node: no vscode.
import type { ApiClient } from '../api/client';
import type { ArtifactRecord } from '../api/types';
import { classifyArtifact, type OriginLookup } from '../review';

/** Outputs a review reads at most (every item the server sends counts). */
export const MAX_REVIEW_OUTPUTS = 1000;

export type OutputsClient = Pick<ApiClient, 'iterateRunArtifacts'>;

export interface RunOutputs {
  artifacts: ArtifactRecord[];
  /** The run lists more than MAX_REVIEW_OUTPUTS: `artifacts` are the first ones. */
  cut: boolean;
}

/** The run's outputs, up to the cap; `listed` is told the count as they come. */
export async function listRunOutputs(client: OutputsClient, runId: string, signal: AbortSignal, listed?: (count: number) => void): Promise<RunOutputs> {
  const artifacts: ArtifactRecord[] = [];
  const walk = client.iterateRunArtifacts(runId, { limit: 100 }, { signal, maxItems: MAX_REVIEW_OUTPUTS });
  for await (const artifact of walk) {
    artifacts.push(artifact);
    listed?.(artifacts.length);
  }
  return { artifacts, cut: walk.cut !== undefined };
}

/**
 * Whether the run has outputs a review would show: a new version of a file uploaded from here,
 * or a patch. A list cut by the cap counts as yes: the review then says it read only the first outputs.
 */
export async function hasReviewableOutputs(client: OutputsClient, runId: string, originOf: OriginLookup, signal: AbortSignal): Promise<boolean> {
  const walk = client.iterateRunArtifacts(runId, { limit: 100 }, { signal, maxItems: MAX_REVIEW_OUTPUTS });
  for await (const artifact of walk) {
    const kind = classifyArtifact(artifact, originOf).kind;
    if (kind === 'revision' || kind === 'patch') return true;
  }
  return walk.cut !== undefined;
}
