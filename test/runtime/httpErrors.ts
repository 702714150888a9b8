// The runtime's error responses: one class carrying status, type, code and param, one JSON shape.
import type { ServerResponse } from 'http';

export interface ErrorBody {
  error: { type: string; code: string; message: string; param?: string };
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

  body(): ErrorBody {
    const error: ErrorBody['error'] = { type: this.type, code: this.code, message: this.message };
    if (this.param !== undefined) error.param = this.param;
    return { error };
  }
}

export const badRequest = (message: string, param?: string, code = 'invalid_parameter'): HttpError =>
  new HttpError(400, 'invalid_request_error', code, message, param);

export const notFound = (message: string, param?: string): HttpError =>
  new HttpError(404, 'invalid_request_error', 'not_found', message, param);

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}
