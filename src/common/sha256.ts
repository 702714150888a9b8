// SHA-256 as lower-case hex, synchronous: hunk ids, the content hashes a review compares. Node's
// crypto here; the web bundle takes sha256.web.ts, the same digest in plain JavaScript.
import { createHash } from 'node:crypto';

/** The SHA-256 of `data` (a string is hashed as UTF-8), lower-case hex. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}
