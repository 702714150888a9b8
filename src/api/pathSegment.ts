// The one check for an id placed into a request path: exactly one segment, so that no id (from
// the user, a workspace or a hostile server) can climb to another endpoint (`..`), add a query or
// fragment, or smuggle an encoded separator past the server's router.
import { ApiError } from './errors';

// Separators, query and fragment marks, '%' (pre-encoded text), whitespace, controls, bidi marks.
const FORBIDDEN = /[/\\?#%\s\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

/** `id` encoded as one path segment; ApiError 'validation' (nothing sent) when it cannot be one. */
export function pathSegment(id: unknown, what = 'identifier'): string {
  if (typeof id !== 'string' || id === '') {
    throw new ApiError({ kind: 'validation', message: `An ${what} is required.` });
  }
  if (id === '.' || id === '..' || FORBIDDEN.test(id)) {
    throw new ApiError({
      kind: 'validation',
      message: `"${JSON.stringify(id).slice(1, -1).slice(0, 80)}" is not a valid ${what}.`,
    });
  }
  return encodeURIComponent(id);
}
