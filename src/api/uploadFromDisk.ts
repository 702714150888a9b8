// An upload of a file on this machine's disk (Node): checked before any byte is sent (a link is
// refused unless confirmed, a folder or a too large file fails), then read in chunks, reopened
// for each retry, and failed before the closing boundary if it changed meanwhile. The framing and
// checks are upload.ts's, shared with bytes in memory; the web bundle takes uploadFromDisk.web.ts.
import { constants } from 'node:fs';
import { lstat, open, realpath, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { ApiError } from './errors';
import {
  checkedPurpose,
  checkSize,
  CHUNK_BYTES,
  framed,
  invalid,
  type PreparedUpload,
  type UploadOptions,
} from './upload';

// The file checked is the file read: a path swapped for a link after the checks fails to open
// (ELOOP) instead of sending the link's target. Windows has no O_NOFOLLOW (and no such links by default).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

function fsProblem(err: unknown, name: string): ApiError {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return invalid(`The file "${name}" does not exist.`);
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return invalid(`The file "${name}" cannot be read (permission denied).`);
  }
  if (code === 'EISDIR') {
    return invalid(`"${name}" is a folder, not a file.`);
  }
  if (code === 'ELOOP') {
    return invalid(`"${name}" was replaced by a symbolic link; nothing was sent.`);
  }
  return invalid(`The file "${name}" cannot be read (${typeof code === 'string' ? code : 'unknown error'}).`);
}

/** Runs every check that can fail without the network and frames the body. */
export async function prepareUpload(path: string, opts: UploadOptions = {}): Promise<PreparedUpload> {
  const purpose = checkedPurpose(opts);
  const name = basename(path);
  const filename = opts.filename ?? name;
  if (filename.trim() === '') {
    throw invalid('The file name is empty.');
  }
  let size: number;
  let readPath = path;
  try {
    if ((await lstat(path)).isSymbolicLink()) {
      readPath = await realpath(path);
      if (opts.followSymlinks !== true) {
        throw invalid(
          `"${name}" is a symbolic link to ${readPath}; it is sent only when following links is confirmed.`,
        );
      }
    }
    const info = await stat(readPath);
    if (info.isDirectory()) {
      throw invalid(`"${name}" is a folder, not a file.`);
    }
    if (!info.isFile()) {
      throw invalid(`"${name}" is not a regular file.`);
    }
    size = info.size;
  } catch (err) {
    throw err instanceof ApiError ? err : fsProblem(err, name);
  }
  checkSize(name, size, opts);
  try {
    await (await open(readPath, OPEN_FLAGS)).close();
  } catch (err) {
    throw fsProblem(err, name);
  }

  const onProgress = opts.onProgress;
  return framed(purpose, filename, size, opts, async function* (signal, frame) {
    const cancelled = () => new ApiError({ kind: 'aborted', message: 'The upload was cancelled.' });
    let handle;
    try {
      handle = await open(readPath, OPEN_FLAGS);
    } catch (err) {
      throw fsProblem(err, name);
    }
    // Thrown before the closing boundary: the request is abandoned and the server keeps nothing.
    const changed = () => invalid(`"${name}" changed while it was being uploaded; nothing was kept.`);
    try {
      const atOpen = await handle.stat({ bigint: true });
      if (atOpen.size !== BigInt(size)) {
        throw changed();
      }
      yield frame.head;
      onProgress?.(0, size);
      let sent = 0;
      while (sent < size) {
        if (signal.aborted) {
          throw cancelled();
        }
        const length = Math.min(CHUNK_BYTES, size - sent);
        // A fresh buffer per chunk: the socket may still hold the previous one.
        const chunk = Buffer.allocUnsafe(length);
        let bytesRead: number;
        try {
          ({ bytesRead } = await handle.read(chunk, 0, length, sent));
        } catch (err) {
          throw fsProblem(err, name);
        }
        if (bytesRead === 0) {
          throw changed();
        }
        yield bytesRead === length ? chunk : chunk.subarray(0, bytesRead);
        sent += bytesRead;
        onProgress?.(sent, size);
      }
      // An edit in place keeps the size: the modification time tells (nanoseconds where the OS has them).
      const atEnd = await handle.stat({ bigint: true });
      if (atEnd.size !== atOpen.size || atEnd.mtimeNs !== atOpen.mtimeNs) {
        throw changed();
      }
      yield frame.tail;
    } finally {
      await handle.close();
    }
  });
}
