// Downloads to this machine's disk (Node): file content streamed to a temporary file beside the
// target and renamed on success, so no partial file is ever left. The web bundle takes
// download.web.ts. Small bodies read into memory: readLimited.ts.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ApiError } from './errors';
import type { TransportResponse } from './transport';

function contentLength(res: TransportResponse): number | undefined {
  const raw = res.headers['content-length'];
  const value = Number(Array.isArray(raw) ? raw[0] : raw);
  return raw !== undefined && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** Streams `res`'s body to `targetPath` (replacing it) via a temporary file in the same folder. */
export async function downloadToFile(
  res: TransportResponse,
  targetPath: string,
  signal: AbortSignal,
  onProgress?: (received: number, total?: number) => void,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<{ path: string; bytes: number }> {
  const total = contentLength(res);
  const tooLarge = () =>
    new ApiError({
      kind: 'too_large',
      message: `The download is larger than ${maxBytes} bytes; it was stopped and nothing was kept`,
    });
  if (total !== undefined && total > maxBytes) {
    res.body.destroy();
    throw tooLarge();
  }
  const folder = dirname(targetPath);
  // Same folder, so the final rename is atomic and never crosses file systems.
  const temp = join(folder, `.${basename(targetPath)}.${randomBytes(6).toString('hex')}.part`);
  let received = 0;
  try {
    await onDisk(mkdir(folder, { recursive: true }), targetPath);
    const handle = await onDisk(open(temp, 'wx'), targetPath);
    let failure: { error: unknown } | undefined;
    try {
      onProgress?.(0, total);
      for await (const chunk of res.body) {
        // Counted as it streams: a body without Content-Length (or lying about it) has no other cap.
        if (received + chunk.length > maxBytes) {
          throw tooLarge();
        }
        let offset = 0;
        while (offset < chunk.length) {
          const { bytesWritten } = await onDisk(handle.write(chunk, offset, chunk.length - offset), targetPath);
          offset += bytesWritten;
        }
        received += chunk.length;
        onProgress?.(received, total);
      }
    } catch (error) {
      failure = { error };
    }
    // A failing close must not hide the error that got us here (nor pass for a network fault).
    const closing = onDisk(handle.close(), targetPath);
    if (failure) {
      await closing.catch(() => undefined);
      throw failure.error;
    }
    await closing;
    if (signal.aborted) {
      throw new ApiError({ kind: 'aborted', message: 'The download was cancelled.' });
    }
    if (total !== undefined && received !== total) {
      throw new ApiError({ kind: 'connection', message: `The download ended after ${received} of ${total} bytes.` });
    }
    await onDisk(rename(temp, targetPath), targetPath);
    return { path: targetPath, bytes: received };
  } catch (err) {
    res.body.destroy();
    await rm(temp, { force: true });
    throw err;
  }
}

const DISK_PROBLEMS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'the disk is full',
  EISDIR: 'a folder has that name',
  ENOTEMPTY: 'a folder has that name',
  EROFS: 'the file system is read-only',
};

/** A failure of our own disk is not the network's: not retried, and it names the path. */
async function onDisk<T>(operation: Promise<T>, targetPath: string): Promise<T> {
  try {
    return await operation;
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    const why = typeof code === 'string' ? (DISK_PROBLEMS[code] ?? code) : 'unknown error';
    throw new ApiError({ kind: 'validation', message: `Could not save to ${targetPath} (${why}).` });
  }
}
