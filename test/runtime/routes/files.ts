// /v1/files: upload (streamed, encrypted), metadata, content download, delete, list.
import type { ServerResponse } from 'node:http';
import { badRequest, type HttpError, notFound } from '../httpErrors';
import { parseUpload } from '../multipartUpload';
import { pageOf, parsePageParams } from '../pagination';
import { type FilePurpose, type FileRecord, newId, UPLOAD_PURPOSES } from '../records';
import type { RequestContext, Route } from './routeTypes';

function requireFile(ctx: RequestContext): FileRecord {
  const file = ctx.core.files.get(ctx.params[0]);
  if (!file) {
    throw notFound(`No file with id ${ctx.params[0]}.`, 'id');
  }
  return file;
}

export const fileRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/v1\/files$/,
    async prepare(ctx) {
      const badPurpose = (purpose: string | undefined): HttpError =>
        badRequest(
          `purpose must be one of ${UPLOAD_PURPOSES.join(', ')}.`,
          'purpose',
          purpose === undefined ? 'missing_parameter' : 'invalid_parameter',
        );
      const upload = await parseUpload(
        ctx.req,
        ctx.core.blobs,
        (name, value) => (name === 'purpose' && !UPLOAD_PURPOSES.includes(value) ? badPurpose(value) : undefined),
        ctx.maxUploadBytes,
      );
      const purpose = upload.fields.purpose;
      if (purpose === undefined || !UPLOAD_PURPOSES.includes(purpose)) {
        upload.blob.discard();
        throw badPurpose(purpose);
      }
      return {
        fingerprint: upload.fingerprint,
        discard: () => upload.blob.discard(),
        commit: async () => {
          const id = newId('file');
          upload.blob.commit(id);
          const record = ctx.core.addFile(
            id,
            purpose as FilePurpose,
            upload.filename,
            upload.contentType,
            upload.bytes,
          );
          return { status: 201, body: record };
        },
      };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/files$/,
    async handle(ctx) {
      const params = parsePageParams(ctx.url.searchParams);
      const purpose = ctx.url.searchParams.get('purpose');
      // Artifact outputs are files too, but a plain listing shows what people uploaded.
      const include = (file: FileRecord): boolean => (purpose ? file.purpose === purpose : file.purpose !== 'artifact');
      return { status: 200, body: pageOf(ctx.core.files.newestFirst(), params, include) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/files\/([^/]+)$/,
    async handle(ctx) {
      return { status: 200, body: requireFile(ctx) };
    },
  },
  {
    method: 'DELETE',
    pattern: /^\/v1\/files\/([^/]+)$/,
    async handle(ctx) {
      const file = requireFile(ctx);
      ctx.core.deleteFile(file.id);
      return { status: 200, body: { id: file.id, object: 'file', deleted: true } };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/files\/([^/]+)\/content$/,
    async handle(ctx) {
      const file = requireFile(ctx);
      await sendContent(ctx.res, ctx, file);
      return undefined;
    },
  },
];

async function sendContent(res: ServerResponse, ctx: RequestContext, file: FileRecord): Promise<void> {
  const content = ctx.core.blobs.openRead(file.id);
  res.writeHead(200, {
    'Content-Type': file.content_type,
    'Content-Length': String(file.bytes),
    'Content-Disposition': contentDisposition(file.filename),
  });
  const cutAfter = ctx.faults.current.cutDownloadAfterBytes;
  let sent = 0;
  // GCM authenticates only at the end of the stream, so the last chunk is held back until the
  // tag checks out: a tampered blob is never delivered whole (Content-Length exposes the cut).
  let held: Buffer | undefined;
  const send = async (chunk: Buffer): Promise<boolean> => {
    let piece = chunk;
    const cutting = cutAfter !== undefined && sent + piece.length > cutAfter;
    if (cutting) {
      piece = piece.subarray(0, cutAfter - sent);
    }
    sent += piece.length;
    await writeChunk(res, piece);
    if (cutting) {
      res.destroy();
    } // fault: the first cutAfter bytes leave, then the connection dies
    return !res.destroyed;
  };
  try {
    for await (const chunk of content) {
      if (held && !(await send(held))) {
        content.destroy();
        return;
      }
      held = chunk as Buffer;
    }
    if (held && !(await send(held))) {
      return;
    }
    res.end();
  } catch {
    // A blob that fails to decrypt (tampered) or a client that left: the body cannot be trusted.
    res.destroy();
  }
}

/** Writes with backpressure and resolves once the bytes are handed to the socket (or it closed). */
function writeChunk(res: ServerResponse, chunk: Buffer): Promise<void> {
  return new Promise<void>((resolve) => {
    if (res.destroyed) {
      resolve();
      return;
    }
    const onClose = (): void => resolve();
    res.once('close', onClose);
    res.write(chunk, () => {
      res.off('close', onClose);
      resolve();
    });
  });
}

export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
