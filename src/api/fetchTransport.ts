// The fetch transport: what carries the API's requests in a browser or a web worker (VS Code for
// the Web), and on Node 20's own fetch in the unit suites. The browser applies its own proxy and
// certificate settings, so `ca`, `network` and `lookup` have no meaning here. Failures throw the
// codes undici uses for the same failure (errors.ts maps them), so everything above the seam
// behaves alike: a headers timeout, an idle body, a cancelled call, a refused connection.
//
// What differs from undici, and why:
// - A streamed request body (an upload's file) is gathered into a Blob first: Chromium streams a
//   request body only over HTTP/2, and an upload is bounded (MAX_UPLOAD_BYTES) and, in a browser,
//   already in memory. Its Content-Length is the Blob's.
// - `user-agent` and `content-length` are not sent: a browser sets them itself, and a page's own
//   User-Agent would make the request one the service's CORS answer does not allow. Nor is the
//   event stream's `cache-control` (no CORS answer need allow it; a browser caches no stream).
// - Redirects are not followed (as with undici): one is a failed request.
import {
  FETCH_FAILED,
  type HttpTransport,
  type ResponseBody,
  type TransportOptions,
  type TransportRequest,
  type TransportResponse,
} from './transport';

/** Headers a browser sets itself (see above). */
const NOT_SENT = new Set(['user-agent', 'content-length', 'cache-control']);

export const fetchTransport = (options: TransportOptions): HttpTransport => new FetchTransport(options);

type Coded = Error & { code?: string };

function coded(code: string, message: string, cause?: unknown): Coded {
  const error: Coded = new Error(message, cause === undefined ? undefined : { cause });
  error.code = code;
  return error;
}

function abortError(reason?: unknown): Error {
  if (reason instanceof Error) {
    return reason;
  }
  const error = new Error('The request was aborted.');
  error.name = 'AbortError';
  return error;
}

/** Why fetch() threw: its cause's code on Node (ECONNREFUSED, UND_ERR_SOCKET...), else FETCH_FAILED. */
function fetchFailure(err: unknown): unknown {
  if (!(err instanceof TypeError)) {
    return err;
  }
  const cause = (err as { cause?: unknown }).cause as Coded | undefined;
  if (cause && typeof cause.code === 'string') {
    return cause;
  }
  return coded(FETCH_FAILED, err.message, err);
}

async function requestBody(body: TransportRequest['body']): Promise<string | Blob | undefined> {
  if (body === undefined || typeof body === 'string') {
    return body;
  }
  if (body instanceof Uint8Array) {
    return new Blob([body]);
  }
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for await (const chunk of body) {
    parts.push(chunk as Uint8Array<ArrayBuffer>);
  }
  return new Blob(parts);
}

class FetchTransport implements HttpTransport {
  /** One controller per request whose answer is not fully read: destroy() aborts them all. */
  private readonly live = new Set<AbortController>();

  constructor(private readonly options: TransportOptions) {}

  async request(req: TransportRequest): Promise<TransportResponse> {
    if (req.signal?.aborted) {
      throw abortError(req.signal.reason);
    }
    const controller = new AbortController();
    this.live.add(controller);
    let failure: Coded | undefined;
    const onAbort = () => controller.abort(req.signal?.reason);
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      req.signal?.removeEventListener('abort', onAbort);
      this.live.delete(controller);
    };
    const headersTimeout = req.headersTimeout ?? this.options.timeoutMs;
    const timer =
      headersTimeout > 0
        ? setTimeout(() => {
            failure = coded('UND_ERR_HEADERS_TIMEOUT', `No answer within ${headersTimeout} ms.`);
            controller.abort(failure);
          }, headersTimeout)
        : undefined;
    let res: Response;
    try {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (!NOT_SENT.has(name.toLowerCase())) {
          headers[name] = value;
        }
      }
      const body = await requestBody(req.body);
      res = await fetch(req.origin + req.path, {
        method: req.method,
        headers,
        body,
        signal: controller.signal,
        redirect: 'error',
        credentials: 'omit',
      });
    } catch (err) {
      done();
      if (failure) {
        throw failure;
      }
      if (req.signal?.aborted) {
        throw abortError(req.signal.reason);
      }
      if (controller.signal.aborted) {
        throw coded('UND_ERR_DESTROYED', 'The transport was closed.');
      }
      throw fetchFailure(err);
    } finally {
      clearTimeout(timer);
    }
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
    const bodyTimeout = req.bodyTimeout ?? this.options.timeoutMs;
    return {
      status: res.status,
      headers,
      body: new FetchBody(res, controller, bodyTimeout, req.signal, done),
    };
  }

  async destroy(): Promise<void> {
    const all = [...this.live];
    this.live.clear();
    for (const controller of all) {
      controller.abort(coded('UND_ERR_DESTROYED', 'The transport was closed.'));
    }
  }
}

/** A fetch response's body as the transport's ResponseBody: read once, an idle timeout, destroyable. */
class FetchBody implements ResponseBody {
  private destroyedWith?: Error;
  private destroyed = false;
  private failure?: Coded;
  private ended = false;

  constructor(
    private readonly res: Response,
    private readonly controller: AbortController,
    private readonly bodyTimeout: number,
    private readonly callerSignal: AbortSignal | undefined,
    private readonly done: () => void,
  ) {
    if (!res.body) {
      this.finish();
    }
  }

  destroy(error?: Error): void {
    if (this.destroyed) {
      return;
    }
    this.destroyed = true;
    this.destroyedWith = error;
    if (!this.ended) {
      this.controller.abort(error ?? abortError());
      this.finish();
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    if (this.destroyed) {
      throw this.destroyedWith ?? abortError();
    }
    if (!this.res.body) {
      return;
    }
    const reader = this.res.body.getReader();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      for (;;) {
        if (this.bodyTimeout > 0) {
          timer = setTimeout(() => {
            this.failure = coded('UND_ERR_BODY_TIMEOUT', `No bytes for ${this.bodyTimeout} ms.`);
            this.controller.abort(this.failure);
          }, this.bodyTimeout);
        }
        const { done, value } = await reader.read();
        clearTimeout(timer);
        if (done) {
          return;
        }
        yield value;
      }
    } catch (err) {
      if (this.destroyedWith) {
        throw this.destroyedWith;
      }
      if (this.failure) {
        throw this.failure;
      }
      if (this.callerSignal?.aborted || this.destroyed) {
        throw abortError(this.callerSignal?.reason);
      }
      throw fetchFailure(err);
    } finally {
      clearTimeout(timer);
      this.finish();
      // A reader left early (break, an error in the loop body) cancels the rest of the body.
      reader.cancel().catch(() => undefined);
    }
  }

  private finish(): void {
    if (!this.ended) {
      this.ended = true;
      this.done();
    }
  }
}
