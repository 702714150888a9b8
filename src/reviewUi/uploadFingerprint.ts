// The SHA-256 of the bytes an upload sent, taken from the file on disk: trusted only when the
// file's size and modification time are the same after hashing as they were before the upload
// started, so an edit made while the upload ran cannot pass for what was sent. Plain Node.
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';

export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/** Size and modification time, or undefined when the file cannot be read. */
export async function stampOf(path: string): Promise<FileStamp | undefined> {
  try {
    const info = await fs.stat(path);
    return info.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The file's SHA-256 (lower-case hex) when it still is what it was at `before`; undefined when
 * it changed, is gone, or cannot be read. An unknown hash is stored as '' by the caller: it never
 * matches, so a later review merges against the server's copy instead of trusting the disk.
 */
export async function hashIfUnchanged(path: string, before: FileStamp | undefined): Promise<string | undefined> {
  if (!before) {
    return undefined;
  }
  let digest: string;
  try {
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(path)) {
      hash.update(chunk as Buffer);
    }
    digest = hash.digest('hex');
  } catch {
    return undefined;
  }
  const after = await stampOf(path);
  return after && after.size === before.size && after.mtimeMs === before.mtimeMs ? digest : undefined;
}
