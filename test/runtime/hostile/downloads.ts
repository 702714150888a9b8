// Hostile file content: no Content-Length, bytes past the real end, and a hostile name in Content-Disposition.
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { FileRecord } from '../records';
import { contentDisposition } from '../routes/files';
import type { RuntimeCore } from '../runtimeCore';
import type { HostileOptions } from './options';

const FILLER_CHUNK = Buffer.alloc(64 * 1024, 'hostile download keeps going. ');

export function downloadsAreHostile(options: HostileOptions): boolean {
  return Boolean(options.chunkedDownloads || options.names || (options.endlessDownloadBytes ?? 0) > 0);
}

export async function serveHostileContent(
  res: ServerResponse,
  core: RuntimeCore,
  file: FileRecord,
  shownName: string,
  options: HostileOptions,
): Promise<void> {
  const extra = Math.max(0, options.endlessDownloadBytes ?? 0);
  const headers: Record<string, string> = {
    'Content-Type': file.content_type,
    'Content-Disposition': contentDisposition(shownName),
  };
  if (!options.chunkedDownloads) {
    headers['Content-Length'] = String(file.bytes + extra);
  }
  res.writeHead(200, headers);
  async function* body(): AsyncGenerator<Buffer> {
    for await (const chunk of core.blobs.openRead(file.id)) {
      yield chunk as Buffer;
    }
    for (let left = extra; left > 0; left -= FILLER_CHUNK.length) {
      yield left >= FILLER_CHUNK.length ? FILLER_CHUNK : FILLER_CHUNK.subarray(0, left);
    }
  }
  try {
    await pipeline(body(), res);
  } catch {
    // The client left, or the blob failed to decrypt: the response is already destroyed.
  }
}
