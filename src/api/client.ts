// ApiClient: the one request path to the Agent Runtime (auth, idempotency, retries, errors,
// logging) and the typed resource calls built on it. Plain Node; never imports vscode.
import { randomUUID } from 'node:crypto';
import { backoffDelay, parseRetryAfter, sleep, type BackoffPolicy } from './backoff';
import { normaliseBaseUrl, withoutUserInfo } from './baseUrl';
import { downloadToFile, readLimited } from './download';
import { ApiError, errorFromResponse, errorFromTransport, isApiError, isTlsFailure } from './errors';
import { escapingLogger, silentLogger, type Logger } from './logger';
import { clampLimit, paginate } from './pagination';
import { parseDeleted, parsePage, parseRecord } from './parse';
import { Transport, type ResponseHeaders, type TransportResponse } from './transport';
import { pathSegment } from './pathSegment';
import { prepareUpload, type UploadOptions } from './upload';
import { MAX_UPLOAD_BYTES } from './types';
import type {
  ArtifactRecord,
  CreateTaskRequest,
  DeletedFile,
  FileRecord,
  Page,
  PageParams,
  RunRecord,
  TaskRecord,
} from './types';

export interface ApiClientOptions {
  /** Validated; trailing slashes dropped; the client adds /v1. */
  baseUrl: string;
  getApiKey: () => Promise<string | undefined>;
  logger?: Logger;
  /** Default 'agent-runtime-vscode/dev'. */
  userAgent?: string;
  /** Connect, headers and body-idle timeout, default 30000. */
  timeoutMs?: number;
  /** Default 2. */
  maxRetries?: number;
  /** An extra trusted CA (tests, private deployments). */
  ca?: string | Buffer;
  /** Backoff between retries; default 0.5 s x 2^n capped at 8 s. */
  backoff?: BackoffPolicy;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface PostOptions extends CallOptions {
  /** Sent as Idempotency-Key on every attempt; a fresh UUID when absent. */
  idempotencyKey?: string;
}

export interface DownloadOptions extends CallOptions {
  onProgress?: (received: number, total?: number) => void;
  /** Past this many bytes the download fails as 'too_large' (a body without a length has no other cap). */
  maxBytes?: number;
}

/** Twice the spec's upload limit: no file the service stores should be larger. */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 2 * MAX_UPLOAD_BYTES;

export interface EventStreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Uint8Array> & { destroy(error?: Error): void };
  requestId?: string;
}

type Method = 'GET' | 'POST' | 'DELETE';
type Query = Record<string, string | number | undefined>;

interface RequestSpec<T> {
  method: Method;
  /** Below /v1, e.g. /files/file_1. */
  path: string;
  query?: Query;
  json?: unknown;
  /** A body built afresh for each attempt (an upload reopens its file). */
  body?: (signal: AbortSignal) => { body: AsyncIterable<Uint8Array>; headers: Record<string, string> };
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** An endpoint PROTOCOL-NOTES assumes: 404/405 means "not supported by this server". */
  assumed?: boolean;
  /** Reads a 2xx response; its failures are retried like the request's. */
  consume: (res: TransportResponse, signal: AbortSignal) => Promise<T>;
}

const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 8000 };
const RETRY_STATUSES = new Set([408, 409, 429]);
/** Error bodies are small; anything beyond this is cut off unread. */
const MAX_ERROR_BODY = 64 * 1024;
/** JSON answers (records, pages of at most 100) stay far below this. */
const MAX_JSON_BODY = 16 * 1024 * 1024;

function header(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isRetryable(err: ApiError): boolean {
  if (err.kind === 'connection' || err.kind === 'timeout') return !isTlsFailure(err);
  // The key was used for another body: retrying the same request can only get the same answer.
  if (err.status === 409 && err.code === 'idempotency_key_reused') return false;
  return err.status !== undefined && (RETRY_STATUSES.has(err.status) || err.status >= 500);
}


function pageQuery(params: PageParams | undefined, extra: Query = {}): Query {
  const limit = params?.limit === undefined ? undefined : clampLimit(params.limit);
  return { ...extra, limit, after: params?.after };
}

function withQuery(path: string, query: Query | undefined): string {
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') search.set(k, String(v));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

async function readJson(res: TransportResponse): Promise<unknown> {
  if (res.status === 204) {
    res.body.destroy();
    return undefined;
  }
  let bytes: Uint8Array;
  try {
    bytes = await readLimited(res.body, MAX_JSON_BODY, 'error');
  } catch (err) {
    // "Too large" here is the server's answer, not the user's file: say so.
    if (isApiError(err, 'too_large')) throw new ApiError({ kind: 'protocol', message: `The service sent a JSON answer larger than ${MAX_JSON_BODY} bytes.` });
    throw err;
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError({ kind: 'protocol', status: res.status, message: `The answer (${res.status}) is not valid JSON.` });
  }
}

export class ApiClient {
  /** The normalised base URL, without /v1 (the raw text when it is invalid). */
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly prefix: string;
  /** Why the base URL cannot be used, if it cannot (every call rejects with it). */
  readonly configError?: ApiError;
  private readonly getApiKey: () => Promise<string | undefined>;
  private readonly logger: Logger;
  private readonly userAgent: string;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly backoff: BackoffPolicy;
  private readonly transport: Transport;
  private disposed = false;

  /** Never throws: an invalid or insecure base URL makes every call reject with that error. */
  constructor(options: ApiClientOptions) {
    let base: string;
    try {
      base = normaliseBaseUrl(options.baseUrl);
    } catch (err) {
      this.configError = err instanceof ApiError ? err : new ApiError({ kind: 'validation', message: 'The service address is not valid.' });
      base = withoutUserInfo(String(options.baseUrl).trim());
    }
    this.baseUrl = base;
    let origin = '';
    let prefix = '/v1';
    if (!this.configError) {
      const url = new URL(base);
      origin = url.origin;
      prefix = `${url.pathname.replace(/\/+$/, '')}/v1`;
    }
    this.origin = origin;
    this.prefix = prefix;
    this.getApiKey = options.getApiKey;
    this.logger = escapingLogger(options.logger ?? silentLogger);
    this.userAgent = options.userAgent ?? 'agent-runtime-vscode/dev';
    this.maxRetries = Math.max(0, options.maxRetries ?? 2);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.transport = new Transport({ timeoutMs: this.timeoutMs, ca: options.ca });
  }

  // ---- files ----

  async uploadFile(path: string, opts: UploadOptions & PostOptions = {}): Promise<FileRecord> {
    this.checkUsable();
    const upload = await prepareUpload(path, opts);
    return this.call({
      method: 'POST',
      path: '/files',
      body: (signal) => ({ body: upload.body(signal), headers: upload.headers }),
      idempotencyKey: opts.idempotencyKey,
      signal: opts.signal,
      consume: async (res) => parseRecord<FileRecord>(await readJson(res), 'file'),
    });
  }

  async getFile(id: string, opts: CallOptions = {}): Promise<FileRecord> {
    return this.getJson(`/files/${pathSegment(id)}`, opts, (v) => parseRecord<FileRecord>(v, 'file'));
  }

  async deleteFile(id: string, opts: CallOptions = {}): Promise<DeletedFile> {
    return this.call({
      method: 'DELETE',
      path: `/files/${pathSegment(id)}`,
      signal: opts.signal,
      consume: async (res) => parseDeleted(await readJson(res), id),
    });
  }

  /** ApiError 'not_supported' when the server has no file list. */
  async listFiles(params: PageParams & { purpose?: string } = {}, opts: CallOptions = {}): Promise<Page<FileRecord>> {
    return this.getPage<FileRecord>('/files', 'files', pageQuery(params, { purpose: params.purpose }), opts, true);
  }

  iterateFiles(params: PageParams & { purpose?: string } = {}, opts: CallOptions = {}): AsyncIterable<FileRecord> {
    return paginate((p) => this.listFiles({ ...params, ...p }, opts), params);
  }

  /** Streams a file's content to `targetPath` through a temporary file; no partial file is ever left. */
  async downloadFile(fileId: string, targetPath: string, opts: DownloadOptions = {}): Promise<{ path: string; bytes: number }> {
    return this.call({
      method: 'GET',
      path: `/files/${pathSegment(fileId)}/content`,
      signal: opts.signal,
      consume: (res, signal) => downloadToFile(res, targetPath, signal, opts.onProgress, opts.maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES),
    });
  }

  /** A file's content in memory (previews); ApiError 'too_large' beyond maxBytes (default 10 MB). */
  async readFileContent(fileId: string, opts: CallOptions & { maxBytes?: number } = {}): Promise<{ content: Uint8Array; contentType?: string }> {
    return this.call({
      method: 'GET',
      path: `/files/${pathSegment(fileId)}/content`,
      signal: opts.signal,
      consume: async (res) => ({
        content: await readLimited(res.body, opts.maxBytes ?? 10 * 1024 * 1024, 'error'),
        contentType: header(res.headers, 'content-type'),
      }),
    });
  }

  // ---- tasks ----

  async createTask(req: CreateTaskRequest, opts: PostOptions = {}): Promise<TaskRecord> {
    if (typeof req?.objective !== 'string' || req.objective.trim() === '') {
      throw new ApiError({ kind: 'validation', param: 'objective', message: 'A task needs an objective.' });
    }
    return this.call({
      method: 'POST',
      path: '/tasks',
      json: req,
      idempotencyKey: opts.idempotencyKey,
      signal: opts.signal,
      consume: async (res) => parseRecord<TaskRecord>(await readJson(res), 'task'),
    });
  }

  async getTask(id: string, opts: CallOptions = {}): Promise<TaskRecord> {
    return this.getJson(`/tasks/${pathSegment(id)}`, opts, (v) => parseRecord<TaskRecord>(v, 'task'), true);
  }

  async listTasks(params: PageParams = {}, opts: CallOptions = {}): Promise<Page<TaskRecord>> {
    return this.getPage<TaskRecord>('/tasks', 'tasks', pageQuery(params), opts, true);
  }

  iterateTasks(params: PageParams = {}, opts: CallOptions = {}): AsyncIterable<TaskRecord> {
    return paginate((p) => this.listTasks({ ...params, ...p }, opts), params);
  }

  // ---- runs and artifacts ----

  async getRun(id: string, opts: CallOptions = {}): Promise<RunRecord> {
    return this.getJson(`/runs/${pathSegment(id)}`, opts, (v) => parseRecord<RunRecord>(v, 'run'), true);
  }

  async listRuns(params: PageParams & { task_id?: string } = {}, opts: CallOptions = {}): Promise<Page<RunRecord>> {
    return this.getPage<RunRecord>('/runs', 'runs', pageQuery(params, { task_id: params.task_id }), opts, true);
  }

  iterateRuns(params: PageParams & { task_id?: string } = {}, opts: CallOptions = {}): AsyncIterable<RunRecord> {
    return paginate((p) => this.listRuns({ ...params, ...p }, opts), params);
  }

  async listRunArtifacts(runId: string, params: PageParams = {}, opts: CallOptions = {}): Promise<Page<ArtifactRecord>> {
    return this.getPage<ArtifactRecord>(`/runs/${pathSegment(runId)}/artifacts`, 'artifacts', pageQuery(params), opts, false);
  }

  iterateRunArtifacts(runId: string, params: PageParams = {}, opts: CallOptions = {}): AsyncIterable<ArtifactRecord> {
    return paginate((p) => this.listRunArtifacts(runId, { ...params, ...p }, opts), params);
  }

  /**
   * Opens the run's event stream: one attempt, no retry (the subscription owns reconnects),
   * no body timeout (it owns idle detection). ApiError on a non-2xx answer or a failed connect.
   */
  async openEventStream(runId: string, opts: { after?: number; signal?: AbortSignal } = {}): Promise<EventStreamResponse> {
    this.checkUsable();
    const path = `/runs/${pathSegment(runId)}/events`;
    const signal = opts.signal;
    const key = await this.apiKey(signal);
    const started = performance.now();
    let res: TransportResponse;
    try {
      this.throwIfAborted(signal);
      res = await this.transport.request({
        origin: this.origin,
        path: withQuery(this.prefix + path, { after: opts.after }),
        method: 'GET',
        headers: { ...this.baseHeaders(key), accept: 'text/event-stream', 'cache-control': 'no-cache' },
        signal,
        bodyTimeout: 0,
      });
    } catch (err) {
      const error = errorFromTransport(err, { origin: this.origin, callerAborted: signal?.aborted ?? false, secret: key });
      this.logLine('GET', path, started, 1, 1, undefined, undefined, error);
      throw error;
    }
    const requestId = header(res.headers, 'x-request-id');
    if (res.status < 200 || res.status > 299) {
      const error = await this.responseError(res, 'GET', path, key, false);
      this.logLine('GET', path, started, 1, 1, res.status, requestId, error);
      throw error;
    }
    this.logLine('GET', path, started, 1, 1, res.status, requestId);
    return { status: res.status, headers: res.headers, body: res.body, requestId };
  }

  /** Closes every connection; calls made afterwards fail with ApiError 'aborted'. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.transport.destroy();
  }

  // ---- the request path ----

  private getJson<T>(path: string, opts: CallOptions, parse: (v: unknown) => T, assumed = false): Promise<T> {
    return this.call({
      method: 'GET',
      path,
      signal: opts.signal,
      assumed,
      consume: async (res) => parse(await readJson(res)),
    });
  }

  private getPage<T>(path: string, what: string, query: Query, opts: CallOptions, assumed: boolean): Promise<Page<T>> {
    return this.call({
      method: 'GET',
      path,
      query,
      signal: opts.signal,
      assumed,
      consume: async (res) => parsePage<T>(await readJson(res), what, this.logger),
    });
  }

  private checkUsable(): void {
    if (this.configError) throw this.configError;
    if (this.disposed) throw new ApiError({ kind: 'aborted', message: 'The API client was closed.' });
  }

  private throwIfAborted(signal: AbortSignal | undefined): void {
    if (signal?.aborted) throw new ApiError({ kind: 'aborted', message: 'The request was cancelled.' });
  }

  private async apiKey(signal: AbortSignal | undefined): Promise<string> {
    this.throwIfAborted(signal);
    let key: string | undefined;
    try {
      key = await this.getApiKey();
    } catch {
      throw new ApiError({ kind: 'authentication', code: 'api_key_unavailable', message: 'The API key could not be read' });
    }
    if (!key) throw new ApiError({ kind: 'authentication', code: 'missing_api_key', message: 'No API key is set' });
    return key;
  }

  private baseHeaders(key: string): Record<string, string> {
    return { authorization: `Bearer ${key}`, accept: 'application/json', 'user-agent': this.userAgent };
  }

  private async responseError(res: TransportResponse, method: Method, path: string, key: string, assumed: boolean): Promise<ApiError> {
    let bodyText = '';
    try {
      bodyText = new TextDecoder().decode(await readLimited(res.body, MAX_ERROR_BODY, 'truncate'));
    } catch {
      // A body cut short still leaves the status, which is what matters here.
    }
    return errorFromResponse({
      status: res.status,
      bodyText,
      requestId: header(res.headers, 'x-request-id'),
      retryAfterMs: parseRetryAfter(res.headers),
      method,
      path: this.prefix + path,
      assumedEndpoint: assumed,
      secret: key,
    });
  }

  private async call<T>(spec: RequestSpec<T>): Promise<T> {
    this.checkUsable();
    const { signal } = spec;
    const key = await this.apiKey(signal);
    const idempotencyKey = spec.method === 'POST' ? (spec.idempotencyKey ?? randomUUID()) : undefined;
    const attempts = this.maxRetries + 1;
    for (let attempt = 0; ; attempt++) {
      this.throwIfAborted(signal);
      // A controller per attempt: undici's listeners die with it, and the caller's signal
      // carries exactly one listener of ours, removed when the attempt ends.
      const controller = new AbortController();
      const onAbort = () => controller.abort(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const started = performance.now();
      let status: number | undefined;
      let requestId: string | undefined;
      let error: ApiError;
      try {
        const headers: Record<string, string> = { ...this.baseHeaders(key) };
        if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
        let body: string | AsyncIterable<Uint8Array> | undefined;
        if (spec.json !== undefined) {
          headers['content-type'] = 'application/json; charset=utf-8';
          body = JSON.stringify(spec.json);
        } else if (spec.body) {
          const built = spec.body(controller.signal);
          Object.assign(headers, built.headers);
          body = built.body;
        }
        const res = await this.transport.request({
          origin: this.origin,
          path: withQuery(this.prefix + spec.path, spec.query),
          method: spec.method,
          headers,
          body,
          signal: controller.signal,
        });
        status = res.status;
        requestId = header(res.headers, 'x-request-id');
        if (status >= 200 && status <= 299) {
          const value = await spec.consume(res, controller.signal);
          this.logLine(spec.method, spec.path, started, attempt + 1, attempts, status, requestId);
          return value;
        }
        error = await this.responseError(res, spec.method, spec.path, key, spec.assumed ?? false);
      } catch (err) {
        error = errorFromTransport(err, { origin: this.origin, callerAborted: signal?.aborted ?? false, secret: key });
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
      const retry = error.kind !== 'aborted' && attempt < this.maxRetries && isRetryable(error);
      const delay = retry ? (error.retryAfterMs ?? backoffDelay(attempt, this.backoff)) : undefined;
      this.logLine(spec.method, spec.path, started, attempt + 1, attempts, status, requestId, error, delay);
      if (delay === undefined) throw error;
      try {
        await sleep(delay, signal);
      } catch {
        throw new ApiError({ kind: 'aborted', message: 'The request was cancelled.' });
      }
    }
  }

  /** One line per attempt: never headers, never the query (cursors and filters stay out of logs). */
  private logLine(
    method: string,
    path: string,
    started: number,
    attempt: number,
    attempts: number,
    status: number | undefined,
    requestId: string | undefined,
    error?: ApiError,
    retryInMs?: number,
  ): void {
    const ms = Math.round(performance.now() - started);
    const outcome = status !== undefined ? String(status) : (error?.kind ?? 'failed');
    const parts = [`${ms} ms`, `attempt ${attempt}/${attempts}`];
    if (requestId) parts.push(`request ${requestId}`);
    let line = `${method} ${this.prefix}${path} -> ${outcome} (${parts.join(', ')})`;
    if (error) line += `: ${error.message}`;
    if (retryInMs !== undefined) line += `; retrying in ${retryInMs} ms`;
    if (error) this.logger.warn(line);
    else this.logger.info(line);
  }
}
