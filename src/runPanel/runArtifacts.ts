// A finished run's artifacts as the panel lists them: every page up to a cap, items without a
// string id skipped (they could never be opened or saved), and the view the webview draws.
import { paginate } from '../api/pagination';
import type { ArtifactRecord, Page, PageParams } from '../api/types';
import type { ArtifactsView } from './protocol';

/** At most this many artifacts are listed (100 per page). */
export const MAX_ARTIFACTS = 1000;

/** Undefined when `stopped()` turned true meanwhile (the panel closed). */
export async function listArtifacts(
  listPage: (params: PageParams) => Promise<Page<ArtifactRecord>>,
  stopped: () => boolean,
): Promise<{ records: ArtifactRecord[]; view: ArtifactsView } | undefined> {
  const records: ArtifactRecord[] = [];
  let truncated = false;
  // paginate() stops on an empty page or a missing cursor: a broken server cannot loop us.
  for await (const record of paginate(listPage, { limit: 100 })) {
    if (stopped()) return undefined;
    if (typeof record !== 'object' || record === null || typeof record.id !== 'string') continue;
    if (records.length >= MAX_ARTIFACTS) {
      truncated = true;
      break;
    }
    records.push(record);
  }
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
