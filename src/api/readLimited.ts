// A small response body read into memory with a limit (JSON answers, error bodies, text content).
import { ApiError } from './errors';
import type { ResponseBody } from './transport';

/** The whole body, at most `maxBytes`: beyond that 'too_large' (overflow 'error') or cut off. */
export async function readLimited(
  body: ResponseBody,
  maxBytes: number,
  overflow: 'error' | 'truncate',
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of body) {
    if (length + chunk.length > maxBytes) {
      body.destroy();
      if (overflow === 'error') {
        throw new ApiError({ kind: 'too_large', message: `The content is larger than ${maxBytes} bytes` });
      }
      chunks.push(chunk.subarray(0, maxBytes - length));
      length = maxBytes;
      break;
    }
    chunks.push(chunk);
    length += chunk.length;
  }
  const whole = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.length;
  }
  return whole;
}
