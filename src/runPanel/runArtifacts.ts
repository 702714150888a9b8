// A finished run's artifacts as the panel lists them: every page up to a cap (the one pager's:
// every item the server sent counts), items without a string id skipped (they could never be
// opened or saved), and the view the webview draws (it says when the list was cut).
import { type PageFetch, paginate } from '../api/pagination';
import type { ArtifactRecord } from '../api/types';
import type { ArtifactsView } from './protocol';

/** At most this many artifacts are read (100 per page). */
export const MAX_ARTIFACTS = 1000;

/** Undefined when `stopped()` turned true meanwhile (the panel closed). */
export async function listArtifacts(
  listPage: PageFetch<ArtifactRecord>,
  stopped: () => boolean,
  signal?: AbortSignal,
): Promise<{ records: ArtifactRecord[]; view: ArtifactsView } | undefined> {
  const records: ArtifactRecord[] = [];
  const walk = paginate(listPage, { limit: 100 }, { maxItems: MAX_ARTIFACTS, signal });
  for await (const record of walk) {
    if (stopped()) {
      return undefined;
    }
    if (typeof record !== 'object' || record === null || typeof record.id !== 'string') {
      continue;
    }
    records.push(record);
  }
  const truncated = walk.cut !== undefined;
  return {
    records,
    view: {
      state: 'loaded',
      truncated,
      artifacts: records.map((r) => ({
        id: r.id,
        name: typeof r.name === 'string' && r.name ? r.name : r.id,
        bytes: typeof r.bytes === 'number' ? r.bytes : undefined,
        contentType: typeof r.content_type === 'string' ? r.content_type : undefined,
      })),
    },
  };
}
