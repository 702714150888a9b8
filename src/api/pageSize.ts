// The one page-size rule: the spec's `limit` is an integer from 1 to 100 (default 25). Used for
// the setting and for every list request, so both round the same way.
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './types';

export function clampPageSize(size: unknown): number {
  const n = typeof size === 'number' ? size : Number(size);
  if (!Number.isFinite(n)) {
    return DEFAULT_PAGE_SIZE;
  }
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Math.round(n)));
}
