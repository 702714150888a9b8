// Reads a multipart upload with busboy: the file part streams into an encrypted blob, never into memory.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import * as path from 'node:path';
import busboy from 'busboy';
import type { BlobStore, BlobWriter } from './blobStore';
import { badRequest, HttpError } from './httpErrors';
import { MAX_UPLOAD_BYTES } from './records';

export interface ParsedUpload {
  fields: Record<string, string>;
  filename: string;
  contentType: string;
  bytes: number;
  blob: BlobWriter;
  /**
   * What makes two uploads "the same request" for idempotency: the text fields (sorted) and the
   * file part's name, filename, type and bytes; the multipart boundary is deliberately left out.
   */
  fingerprint: string;
}

const TYPES_BY_EXTENSION: Record<string, string> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
};

export function guessContentType(filename: string, declared: string | undefined): string {
  if (declared && declared !== 'application/octet-stream') {
    return declared;
  }
  return TYPES_BY_EXTENSION[path.extname(filename).toLowerCase()] ?? 'application/octet-stream';
}

export function tooLarge(limit = MAX_UPLOAD_BYTES): HttpError {
  return new HttpError(
    413,
    'invalid_request_error',
    'file_too_large',
    `The file is larger than the limit of ${limit} bytes${limit === MAX_UPLOAD_BYTES ? ' (512 MB)' : ''}.`,
    'file',
    {
      Connection: 'close',
    },
  );
}

/** `checkField` may refuse a text field as soon as it arrives, before a large file part is read. */
export function parseUpload(
  req: IncomingMessage,
  blobs: BlobStore,
  checkField: (name: string, value: string) => HttpError | undefined = () => undefined,
  maxBytes = MAX_UPLOAD_BYTES,
): Promise<ParsedUpload> {
  return new Promise<ParsedUpload>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        highWaterMark: 1024 * 1024,
        fileHwm: 1024 * 1024,
        limits: { fileSize: maxBytes + 1, files: 1, fields: 20, fieldSize: 64 * 1024 },
      });
    } catch {
      reject(
        badRequest(
          'The body must be multipart/form-data with a purpose field and a file part.',
          'file',
          'invalid_content_type',
        ),
      );
      return;
    }
    const fields: Record<string, string> = {};
    const fileHash = createHash('sha256');
    let blob: BlobWriter | undefined;
    let fileInfo: { filename: string; contentType: string } | undefined;
    let failed = false;

    const fail = (err: HttpError | Error): void => {
      if (failed) {
        return;
      }
      failed = true;
      req.unpipe(parser);
      // Stop reading at once: the socket fills up and the client's send stalls until it gives up.
      req.pause();
      blob?.discard();
      reject(err);
    };

    parser.on('field', (name, value) => {
      fields[name] = value;
      const refusal = checkField(name, value);
      if (refusal) {
        fail(refusal);
      }
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || blob) {
        stream.resume();
        return;
      }
      const filename = path.basename(info.filename || 'upload.bin') || 'upload.bin';
      fileInfo = { filename, contentType: guessContentType(filename, info.mimeType) };
      blob = blobs.createWriter();
      // busboy fires 'limit' on reaching fileSize, which is maxBytes + 1: the file is over the limit.
      stream.on('limit', () => fail(tooLarge(maxBytes)));
      stream.on('data', (chunk: Buffer) => fileHash.update(chunk));
      stream.pipe(blob.sink);
    });
    parser.on('error', (err) =>
      fail(badRequest(`The multipart body could not be read: ${(err as Error).message}`, 'file', 'invalid_multipart')),
    );
    parser.on('close', () => {
      if (failed) {
        return;
      }
      if (!blob || !fileInfo) {
        fail(badRequest('The request has no file part named "file".', 'file', 'missing_parameter'));
        return;
      }
      const writer = blob;
      const info = fileInfo;
      writer.finished().then(
        (bytes) => {
          if (failed) {
            return;
          }
          const fingerprint = createHash('sha256')
            .update(JSON.stringify(Object.entries(fields).sort()))
            .update(JSON.stringify([info.filename, info.contentType, bytes]))
            .update(fileHash.digest('hex'))
            .digest('hex');
          resolve({ fields, filename: info.filename, contentType: info.contentType, bytes, blob: writer, fingerprint });
        },
        (err: Error) => fail(err),
      );
    });
    req.once('close', () => {
      if (!req.complete) {
        fail(new Error('the client went away during the upload'));
      }
    });
    req.pipe(parser);
  });
}
