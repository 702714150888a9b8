// The runtime's error responses: one class carrying status, type, code and param, one JSON shape.
import type { ServerResponse } from 'node:http';

export interface ErrorBody {
  error: { type: string; code: string; message: string; param?: string; [detail: string]: unknown };
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string,
    message: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  private details: Record<string, unknown> = {};

  /** Extra fields of the error object that a client can act on (`limit`, the current `approval`). */
  with(details: Record<string, unknown>): this {
    this.details = { ...this.details, ...details };
    return this;
  }

  body(): ErrorBody {
    const error: ErrorBody['error'] = { type: this.type, code: this.code, message: this.message };
    if (this.param !== undefined) {
      error.param = this.param;
    }
    return { error: { ...error, ...this.details } };
  }
}

export const badRequest = (message: string, param?: string, code = 'invalid_parameter'): HttpError =>
  new HttpError(400, 'invalid_request_error', code, message, param);

export const notFound = (message: string, param?: string): HttpError =>
  new HttpError(404, 'invalid_request_error', 'not_found', message, param);

export const conflict = (code: string, message: string, param?: string): HttpError =>
  new HttpError(409, 'invalid_request_error', code, message, param);

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}
