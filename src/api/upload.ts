// The streamed upload: checks made before any byte is sent, then a multipart body sent in chunks,
// built afresh for each retry. Bytes already in memory (a file read through the editor's file
// system; every upload in the browser) are framed here; a file on this machine's disk is read in
// chunks by uploadFromDisk.ts (memory stays flat whatever the size) through the same checks.
import { contentTypeFor } from './contentType';
import { ApiError } from './errors';
import { buildMultipartFrame } from './multipart';
import { FILE_PURPOSES, type FilePurpose, MAX_UPLOAD_BYTES } from './types';

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

export const CHUNK_BYTES = 512 * 1024;

export function invalid(message: string, param = 'file'): ApiError {
  return new ApiError({ kind: 'validation', param, message });
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function checkedPurpose(opts: UploadOptions): FilePurpose {
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
export function framed(
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

export function checkSize(name: string, size: number, opts: UploadOptions): void {
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
