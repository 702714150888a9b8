// The streamed upload: checks made before any byte is sent, then a multipart body read from disk
// in chunks (memory stays flat whatever the size), reopened for each retry.
import { open, stat } from 'node:fs/promises';
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
}

export interface PreparedUpload {
  size: number;
  filename: string;
  headers: Record<string, string>;
  /** A fresh body for one attempt; it reopens the file and stops when `signal` aborts. */
  body(signal: AbortSignal): AsyncIterable<Uint8Array>;
}

const CHUNK_BYTES = 512 * 1024;

function invalid(message: string, param = 'file'): ApiError {
  return new ApiError({ kind: 'validation', param, message });
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function fsProblem(err: unknown, name: string): ApiError {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return invalid(`The file "${name}" does not exist.`);
  if (code === 'EACCES' || code === 'EPERM') return invalid(`The file "${name}" cannot be read (permission denied).`);
  if (code === 'EISDIR') return invalid(`"${name}" is a folder, not a file.`);
  return invalid(`The file "${name}" cannot be read (${typeof code === 'string' ? code : 'unknown error'}).`);
}

/** Runs every check that can fail without the network and frames the body. */
export async function prepareUpload(path: string, opts: UploadOptions = {}): Promise<PreparedUpload> {
  const purpose = opts.purpose ?? 'task_input';
  if (!(FILE_PURPOSES as readonly string[]).includes(purpose)) {
    throw invalid(`"${String(purpose)}" is not a file purpose; use one of ${FILE_PURPOSES.join(', ')}.`, 'purpose');
  }
  const name = basename(path);
  const filename = opts.filename ?? name;
  if (filename.trim() === '') throw invalid('The file name is empty.');
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw invalid(`"${name}" is a folder, not a file.`);
    if (!info.isFile()) throw invalid(`"${name}" is not a regular file.`);
    size = info.size;
  } catch (err) {
    throw err instanceof ApiError ? err : fsProblem(err, name);
  }
  const limit = opts.maxBytes ?? MAX_UPLOAD_BYTES;
  if (size > limit) {
    throw invalid(`"${name}" is ${megabytes(size)} (${size} bytes), over the limit of ${megabytes(limit)} (${limit} bytes) per file.`);
  }
  try {
    await (await open(path, 'r')).close();
  } catch (err) {
    throw fsProblem(err, name);
  }

  const frame = buildMultipartFrame({ purpose }, { field: 'file', filename, contentType: opts.contentType ?? contentTypeFor(filename) });
  const onProgress = opts.onProgress;
  return {
    size,
    filename,
    headers: {
      'content-type': frame.contentType,
      'content-length': String(frame.head.length + size + frame.tail.length),
    },
    async *body(signal: AbortSignal) {
      const cancelled = () => new ApiError({ kind: 'aborted', message: 'The upload was cancelled.' });
      let handle;
      try {
        handle = await open(path, 'r');
      } catch (err) {
        throw fsProblem(err, name);
      }
      try {
        if ((await handle.stat()).size !== size) throw invalid(`"${name}" changed while it was being uploaded.`);
        yield frame.head;
        onProgress?.(0, size);
        let sent = 0;
        while (sent < size) {
          if (signal.aborted) throw cancelled();
          const length = Math.min(CHUNK_BYTES, size - sent);
          // A fresh buffer per chunk: the socket may still hold the previous one.
          const chunk = Buffer.allocUnsafe(length);
          let bytesRead: number;
          try {
            ({ bytesRead } = await handle.read(chunk, 0, length, sent));
          } catch (err) {
            throw fsProblem(err, name);
          }
          if (bytesRead === 0) throw invalid(`"${name}" got shorter while it was being uploaded.`);
          yield bytesRead === length ? chunk : chunk.subarray(0, bytesRead);
          sent += bytesRead;
          onProgress?.(sent, size);
        }
        yield frame.tail;
      } finally {
        await handle.close();
      }
    },
  };
}
