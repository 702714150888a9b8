// Deletes the files uploaded for one attempt that did not become a task (cancelled, or the task
// was refused): exactly those, never other files of the account. Plain Node.
import type { ApiClient } from '../api/client';
import { isApiError } from '../api/errors';
import { mapLimited } from '../common/mapLimited';

export interface CleanupResult {
  deleted: string[];
  failed: { id: string; error: unknown }[];
}

const DELETE_CONCURRENCY = 4;

export async function deleteUploaded(
  client: Pick<ApiClient, 'deleteFile'>,
  ids: readonly string[],
  onDeleted?: (id: string) => Promise<void>,
): Promise<CleanupResult> {
  const result: CleanupResult = { deleted: [], failed: [] };
  await mapLimited([...new Set(ids)], DELETE_CONCURRENCY, async (id) => {
    try {
      await client.deleteFile(id);
      result.deleted.push(id);
    } catch (error) {
      // Already gone is what was wanted.
      if (isApiError(error, 'not_found')) {
        result.deleted.push(id);
      } else {
        return void result.failed.push({ id, error });
      }
    }
    await onDeleted?.(id);
  });
  return result;
}
