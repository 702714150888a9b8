// The streamed upload: checks made before any byte is sent, then a multipart body read from disk
// in chunks (memory stays flat whatever the size), reopened for each retry. Bytes already in
// memory (a file read through another file system by the editor) go through the same checks.
import { constants } from 'node:fs';
import { lstat, open, realpath, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { contentTypeFor } from './contentType';
import { ApiError } from './errors';
import { buildMultipartFrame } from './multipart';
import { FILE_PURPOSES, MAX_UPLOAD_BYTES, type FilePurpose } from './types';

export interface UploadOptions {
  /** Default 'task_input'. */
  purpose?: FilePurpose;
  /** The name the server stores; default the path's base name. */
  filename?: string;
  /** Default: guessed from the extension. */
  contentType?: string;
  /** Bytes of the file sent so far, of its size; first (0, size), last (size, size). */
  onProgress?: (sent: number, total: number) => void;
  /**
   * The size limit checked before sending, default the spec's 512 MB. Only for tests that need
   * to reach the server's own check.
   */
  maxBytes?: number;
  /**
   * Send the target of a symbolic link given as `path`; without it a link is refused, because
   * its target may be a file the user never meant to share (the editor asks first).
   */
  followSymlinks?: boolean;
}

export interface PreparedUpload {
  size: number;
  filename: string;
  headers: Record<string, string>;
  /** A fresh body for one attempt; it reopens the file and stops when `signal` aborts. */
  body(signal: AbortSignal): AsyncIterable<Uint8Array>;
}

const CHUNK_BYTES = 512 * 1024;

// The file checked is the file read: a path swapped for a link after the checks fails to open
// (ELOOP) instead of sending the link's target. Windows has no O_NOFOLLOW (and no such links by default).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

function invalid(message: string, param = 'file'): ApiError {
  return new ApiError({ kind: 'validation', param, message });
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

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

function checkedPurpose(opts: UploadOptions): FilePurpose {
  const purpose = opts.purpose ?? 'task_input';
  if (!(FILE_PURPOSES as readonly string[]).includes(purpose)) {
    throw invalid(`"${String(purpose)}" is not a file purpose; use one of ${FILE_PURPOSES.join(', ')}.`, 'purpose');
  }
  return purpose;
}

type MultipartFrame = ReturnType<typeof buildMultipartFrame>;

/**
 * The multipart framing both sources share (a file on disk, bytes in memory): the headers with
 * the exact length, and a body that yields the frame's head, the content, then its tail.
 */
function framed(
  purpose: FilePurpose,
  filename: string,
  size: number,
  opts: UploadOptions,
  body: (signal: AbortSignal, frame: MultipartFrame) => AsyncIterable<Uint8Array>,
): PreparedUpload {
  const frame = buildMultipartFrame(
    { purpose },
    { field: 'file', filename, contentType: opts.contentType ?? contentTypeFor(filename) },
  );
  return {
    size,
    filename,
    headers: {
      'content-type': frame.contentType,
      'content-length': String(frame.head.length + size + frame.tail.length),
    },
    body: (signal) => body(signal, frame),
  };
}

function checkSize(name: string, size: number, opts: UploadOptions): void {
  const limit = opts.maxBytes ?? MAX_UPLOAD_BYTES;
  if (size > limit) {
    throw invalid(
      `"${name}" is ${megabytes(size)} (${size} bytes), over the limit of ${megabytes(limit)} (${limit} bytes) per file.`,
    );
  }
}

/**
 * The same checks and framing for bytes already in memory; `opts.filename` names them. The body
 * sends the bytes as given: the caller passes its own copy.
 */
export function prepareBytesUpload(bytes: Uint8Array, opts: UploadOptions & { filename: string }): PreparedUpload {
  const purpose = checkedPurpose(opts);
  const filename = opts.filename;
  if (filename.trim() === '') {
    throw invalid('The file name is empty.');
  }
  const size = bytes.byteLength;
  checkSize(filename, size, opts);
  const onProgress = opts.onProgress;
  return framed(purpose, filename, size, opts, async function* (signal, frame) {
    yield frame.head;
    onProgress?.(0, size);
    for (let sent = 0; sent < size;) {
      if (signal.aborted) {
        throw new ApiError({ kind: 'aborted', message: 'The upload was cancelled.' });
      }
      const end = Math.min(size, sent + CHUNK_BYTES);
      yield bytes.subarray(sent, end);
      sent = end;
      onProgress?.(sent, size);
    }
    yield frame.tail;
  });
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
