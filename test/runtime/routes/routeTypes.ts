// What a route is: a GET/DELETE handler that replies, or a POST split into prepare (read) and commit.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultState } from '../faults';
import { badRequest, HttpError } from '../httpErrors';
import type { RuntimeCore } from '../runtimeCore';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The pattern's capture groups, decoded. */
  params: string[];
  requestId: string;
  core: RuntimeCore;
  faults: FaultState;
  keepAliveMs: number;
  maxUploadBytes: number;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * A POST whose body has been read but whose effect has not happened yet: the idempotency layer
 * compares `fingerprint` with a stored first request before deciding to commit or discard.
 */
export interface PreparedWrite {
  fingerprint: string;
  commit(): Promise<Reply>;
  discard(): void;
}

export type Route =
  | { method: 'GET' | 'DELETE' | 'PATCH'; pattern: RegExp; handle(ctx: RequestContext): Promise<Reply | undefined> }
  | { method: 'POST'; pattern: RegExp; prepare(ctx: RequestContext): Promise<PreparedWrite> };

const MAX_JSON_BYTES = 1024 * 1024;

export function readBody(req: IncomingMessage): Promise<Buffer> {
  // Event listeners, not `for await`: throwing out of a for-await destroys the request, and the
  // 413 could then never be answered.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_JSON_BYTES) {
        cleanup();
        req.pause();
        reject(
          new HttpError(
            413,
            'invalid_request_error',
            'body_too_large',
            'The JSON body is larger than 1 MiB.',
            undefined,
            { Connection: 'close' },
          ),
        );
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** A JSON POST: the fingerprint is the raw body; validation happens at commit so its answer is stored too. */
export function jsonWrite(
  run: (body: Record<string, unknown>) => Promise<Reply> | Reply,
): (ctx: RequestContext) => Promise<PreparedWrite> {
  return async (ctx) => {
    const raw = await readBody(ctx.req);
    return {
      fingerprint: createHash('sha256').update(raw).digest('hex'),
      commit: async () => run(parseJsonObject(raw)),
      discard: () => undefined,
    };
  };
}

/** The JSON object body of a PATCH (not idempotency-keyed: it carries its own `version`). */
export async function readJsonObject(ctx: RequestContext): Promise<Record<string, unknown>> {
  return parseJsonObject(await readBody(ctx.req));
}

export function parseJsonObject(raw: Buffer): Record<string, unknown> {
  if (raw.length === 0) {
    return {};
  }
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('The body is not valid JSON.', undefined, 'invalid_json');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('The body must be a JSON object.', undefined, 'invalid_json');
  }
  return value as Record<string, unknown>;
}
