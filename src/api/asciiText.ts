// The text of bytes that are all ASCII, through Node's latin1 decoding (a fraction of UTF-8
// decoding's cost); undefined for any other bytes. The web bundle takes asciiText.web.ts.
import { isAscii } from 'node:buffer';

export function asciiText(bytes: Uint8Array): string | undefined {
  if (!isAscii(bytes)) {
    return undefined;
  }
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buffer.toString('latin1');
}
