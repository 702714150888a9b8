// ApiClient: the typed resource calls of the Agent Runtime API, each through the one request
// path (requestPath.ts: auth, idempotency, retries, errors, logging). Never imports vscode.
import { escapingLogger, type Logger, silentLogger } from '../common/logger';
import type { BackoffPolicy } from './backoff';
import { normaliseBaseUrl, withoutUserInfo } from './baseUrl';
import { downloadToFile } from './download';
import { ApiError } from './errors';
import type { OpenedEventStream } from './events';
import { pageQuery, type PageWalk, type PageWalkOptions, paginate } from './pagination';
import { parseDeleted, parsePage, parseRecord } from './parse';
import { pathSegment } from './pathSegment';
import { platformTransport } from './platformTransport';
import * as projects from './projects';
import { readLimited } from './readLimited';
import { header, type Query, readJson, RequestPath, type RequestSpec } from './requestPath';
import * as resources from './resources';
import type {
  ConnectorRecord,
  CreatedWebhook,
  InvocationListParams,
  InvocationRecord,
  MemoryChange,
  MemoryListParams,
  MemoryRecord,
  ToolRecord,
  WebhookDelivery,
  WebhookRecord,
} from './resourceTypes';
import type { ApprovalListParams, SteeringCaller, SteeringOptions } from './steering';
import * as steering from './steering';
import type { HttpTransport, NetworkSettings, TransportFactory } from './transport';
import {
  type ApprovalDecision,
  type ApprovalRecord,
  type ArtifactRecord,
  type CreateProjectRequest,
  type CreateTaskRequest,
  type DeletedFile,
  type FileRecord,
  MAX_UPLOAD_BYTES,
  type Money,
  type Page,
  type PageParams,
  type ProjectRecord,
  type RunRecord,
  type TaskRecord,
  type UsageRecord,
} from './types';
import { prepareBytesUpload, type PreparedUpload, type UploadOptions } from './upload';
import { prepareUpload } from './uploadFromDisk';

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
  /** Proxy and CA settings (VS Code's http.*); absent: direct connections. Change = new client. */
  network?: NetworkSettings;
  /** Backoff between retries; default 0.5 s x 2^n capped at 8 s. */
  backoff?: BackoffPolicy;
  /** What carries the requests; default the platform's (undici on Node, fetch in a browser). */
  transport?: TransportFactory;
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

const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 8000 };

export class ApiClient {
  /** The normalised base URL, without /v1 (the raw text when it is invalid). */
  readonly baseUrl: string;
  /** Why the base URL cannot be used, if it cannot (every call rejects with it). */
  readonly configError?: ApiError;
  private readonly logger: Logger;
  private readonly transport: HttpTransport;
  private readonly requests: RequestPath;
  private readonly origin: string;
  private disposed = false;

  /** Never throws: an invalid or insecure base URL makes every call reject with that error. */
  constructor(options: ApiClientOptions) {
    let base: string;
    try {
      base = normaliseBaseUrl(options.baseUrl);
    } catch (err) {
      this.configError =
        err instanceof ApiError
          ? err
          : new ApiError({ kind: 'validation', message: 'The service address is not valid.' });
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
    const timeoutMs = options.timeoutMs ?? 30_000;
    this.logger = escapingLogger(options.logger ?? silentLogger);
    const transport = options.transport ?? platformTransport;
    this.transport = transport({ timeoutMs, ca: options.ca, network: options.network, logger: this.logger });
    this.requests = new RequestPath({
      origin,
      prefix,
      getApiKey: options.getApiKey,
      logger: this.logger,
      userAgent: options.userAgent ?? 'agent-runtime-vscode/dev',
      maxRetries: Math.max(0, options.maxRetries ?? 2),
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      transport: this.transport,
    });
  }

  // ---- files ----

  async uploadFile(path: string, opts: UploadOptions & PostOptions = {}): Promise<FileRecord> {
    this.checkUsable();
    return this.sendUpload(await prepareUpload(path, opts), opts);
  }

  /**
   * Uploads bytes already in memory (a file the editor read from a file system that is not this
   * machine's disk), named by `opts.filename`, with the same checks as uploadFile.
   */
  async uploadBytes(bytes: Uint8Array, opts: UploadOptions & PostOptions & { filename: string }): Promise<FileRecord> {
    this.checkUsable();
    return this.sendUpload(prepareBytesUpload(bytes, opts), opts);
  }

  private sendUpload(upload: PreparedUpload, opts: PostOptions): Promise<FileRecord> {
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

  iterateFiles(params: PageParams & { purpose?: string } = {}, opts: PageWalkOptions = {}): PageWalk<FileRecord> {
    return paginate((p, signal) => this.listFiles({ ...params, ...p }, { signal }), params, opts);
  }

  /** Streams a file's content to `targetPath` through a temporary file; no partial file is ever left. */
  async downloadFile(
    fileId: string,
    targetPath: string,
    opts: DownloadOptions = {},
  ): Promise<{ path: string; bytes: number }> {
    return this.call({
      method: 'GET',
      path: `/files/${pathSegment(fileId)}/content`,
      signal: opts.signal,
      consume: (res, signal) =>
        downloadToFile(res, targetPath, signal, opts.onProgress, opts.maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES),
    });
  }

  /** A file's content in memory (previews); ApiError 'too_large' beyond maxBytes (default 10 MB). */
  async readFileContent(
    fileId: string,
    opts: CallOptions & { maxBytes?: number } = {},
  ): Promise<{ content: Uint8Array; contentType?: string }> {
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
    const commit = req.context?.commit;
    if (commit !== undefined && !/^[0-9a-f]{40}$/.test(commit)) {
      throw new ApiError({
        kind: 'validation',
        param: 'context.commit',
        message: 'The commit must be a full 40-character commit id.',
      });
    }
    const budget = steering.budgetField(req.budget);
    return this.call({
      method: 'POST',
      path: '/tasks',
      json: { ...req, ...budget },
      idempotencyKey: opts.idempotencyKey,
      signal: opts.signal,
      consume: async (res) => parseRecord<TaskRecord>(await readJson(res), 'task'),
    });
  }

  async getTask(id: string, opts: CallOptions = {}): Promise<TaskRecord> {
    return this.getJson(`/tasks/${pathSegment(id)}`, opts, (v) => parseRecord<TaskRecord>(v, 'task'), true);
  }

  /** `project_id`: only that project's tasks (docs/PROTOCOL.md, Projects). */
  async listTasks(
    params: PageParams & { project_id?: string; updated_after?: string } = {},
    opts: CallOptions = {},
  ): Promise<Page<TaskRecord>> {
    return this.getPage<TaskRecord>(
      '/tasks',
      'tasks',
      pageQuery(params, { project_id: params.project_id, updated_after: params.updated_after }),
      opts,
      true,
    );
  }

  iterateTasks(params: PageParams & { project_id?: string } = {}, opts: PageWalkOptions = {}): PageWalk<TaskRecord> {
    return paginate((p, signal) => this.listTasks({ ...params, ...p }, { signal }), params, opts);
  }

  // ---- runs and artifacts ----

  async getRun(id: string, opts: CallOptions = {}): Promise<RunRecord> {
    return this.getJson(`/runs/${pathSegment(id)}`, opts, (v) => parseRecord<RunRecord>(v, 'run'), true);
  }

  /** `updated_after`: only the runs changed after that instant, oldest change first (docs/PROTOCOL.md, Staying current). */
  async listRuns(
    params: PageParams & { task_id?: string; updated_after?: string } = {},
    opts: CallOptions = {},
  ): Promise<Page<RunRecord>> {
    return this.getPage<RunRecord>(
      '/runs',
      'runs',
      pageQuery(params, { task_id: params.task_id, updated_after: params.updated_after }),
      opts,
      true,
    );
  }

  iterateRuns(params: PageParams & { task_id?: string } = {}, opts: PageWalkOptions = {}): PageWalk<RunRecord> {
    return paginate((p, signal) => this.listRuns({ ...params, ...p }, { signal }), params, opts);
  }

  async listRunArtifacts(
    runId: string,
    params: PageParams = {},
    opts: CallOptions = {},
  ): Promise<Page<ArtifactRecord>> {
    return this.getPage<ArtifactRecord>(
      `/runs/${pathSegment(runId)}/artifacts`,
      'artifacts',
      pageQuery(params),
      opts,
      false,
    );
  }

  iterateRunArtifacts(runId: string, params: PageParams = {}, opts: PageWalkOptions = {}): PageWalk<ArtifactRecord> {
    return paginate((p, signal) => this.listRunArtifacts(runId, { ...params, ...p }, { signal }), params, opts);
  }

  /**
   * Opens the run's event stream: one attempt, no retry (the subscription owns reconnects),
   * no body timeout (it owns idle detection). ApiError on a non-2xx answer or a failed connect.
   */
  async openEventStream(
    runId: string,
    opts: { after?: number; signal?: AbortSignal } = {},
  ): Promise<OpenedEventStream> {
    return this.call({
      method: 'GET',
      path: `/runs/${pathSegment(runId)}/events`,
      query: { after: opts.after },
      headers: { accept: 'text/event-stream', 'cache-control': 'no-cache' },
      signal: opts.signal,
      stream: true,
      consume: async (res) => ({
        status: res.status,
        headers: res.headers,
        body: res.body,
        requestId: header(res.headers, 'x-request-id'),
      }),
    });
  }

  // ---- projects (assumed endpoints: 404/405 -> 'not_supported'; see projects.ts) ----

  listProjects(params: PageParams = {}, opts: CallOptions = {}): Promise<Page<ProjectRecord>> {
    return projects.listProjects(this.steer, params, opts.signal);
  }

  /** Every project, through the bounded pager (a cap says so in `cut`). */
  iterateProjects(params: PageParams = {}, opts: PageWalkOptions = {}): PageWalk<ProjectRecord> {
    return paginate((p, signal) => this.listProjects({ ...params, ...p }, { signal }), params, opts);
  }

  getProject(id: string, opts: CallOptions = {}): Promise<ProjectRecord> {
    return projects.getProject(this.steer, id, opts.signal);
  }

  createProject(body: CreateProjectRequest, opts: SteeringOptions = {}): Promise<ProjectRecord> {
    return projects.createProject(this.steer, body, opts);
  }

  deleteProject(id: string, opts: CallOptions = {}): Promise<DeletedFile> {
    return projects.deleteProject(this.steer, id, opts);
  }

  // ---- steering and spend (assumed endpoints: 404/405 -> 'not_supported'; see steering.ts) ----

  cancelRun(id: string, opts: SteeringOptions = {}): Promise<RunRecord> {
    return steering.cancelRun(this.steer, id, opts);
  }

  resumeRun(
    id: string,
    body: { instructions?: string; reviewComments?: readonly steering.ReviewCommentBody[]; budget?: Money } = {},
    opts: SteeringOptions = {},
  ): Promise<RunRecord> {
    return steering.resumeRun(this.steer, id, body, opts);
  }

  forkRun(
    id: string,
    body: {
      after_sequence: number;
      instructions?: string;
      reviewComments?: readonly steering.ReviewCommentBody[];
      budget?: Money;
    } & steering.ForkInputs,
    opts: SteeringOptions = {},
  ): Promise<RunRecord> {
    return steering.forkRun(this.steer, id, body, opts);
  }

  /** The run's new cap (docs/PROTOCOL.md, Budgets); the same key on every attempt of one decision. */
  raiseBudget(runId: string, budget: Money, idempotencyKey: string, opts: CallOptions = {}): Promise<RunRecord> {
    return steering.raiseBudget(this.steer, runId, budget, idempotencyKey, opts.signal);
  }

  listApprovals(params: ApprovalListParams = {}, opts: CallOptions = {}): Promise<Page<ApprovalRecord>> {
    return steering.listApprovals(this.steer, params, opts.signal);
  }

  iterateApprovals(params: ApprovalListParams = {}, opts: PageWalkOptions = {}): PageWalk<ApprovalRecord> {
    return paginate((p, signal) => this.listApprovals({ ...params, ...p }, { signal }), params, opts);
  }

  getApproval(id: string, opts: CallOptions = {}): Promise<ApprovalRecord> {
    return steering.getApproval(this.steer, id, opts.signal);
  }

  decideApproval(
    id: string,
    body: { decision: ApprovalDecision; note?: string },
    opts: SteeringOptions = {},
  ): Promise<ApprovalRecord> {
    return steering.decideApproval(this.steer, id, body, opts);
  }

  getUsage(opts: CallOptions = {}): Promise<UsageRecord> {
    return steering.getUsage(this.steer, opts.signal);
  }

  // ---- memory, tools, connectors, webhooks (assumed endpoints: 404/405 -> 'not_supported'; see resources.ts) ----

  listMemory(params: MemoryListParams = {}, opts: CallOptions = {}): Promise<Page<MemoryRecord>> {
    return resources.listMemory(this.steer, params, opts.signal);
  }

  /** Bounded walk (pages and items capped; `cut` says when it stopped early). */
  iterateMemory(params: MemoryListParams = {}, opts: PageWalkOptions = {}): PageWalk<MemoryRecord> {
    return paginate((p, signal) => this.listMemory({ ...params, ...p }, { signal }), params, opts);
  }

  getMemory(id: string, opts: CallOptions = {}): Promise<MemoryRecord> {
    return resources.getMemory(this.steer, id, opts.signal);
  }

  createMemory(
    body: { content: string; tags?: string[]; project_id?: string },
    opts: SteeringOptions = {},
  ): Promise<MemoryRecord> {
    return resources.createMemory(this.steer, body, opts);
  }

  /** 409 version_conflict carries the current record: `conflictMemory(err)`. */
  updateMemory(id: string, change: MemoryChange, opts: CallOptions = {}): Promise<MemoryRecord> {
    return resources.updateMemory(this.steer, id, change, opts);
  }

  deleteMemory(id: string, opts: CallOptions = {}): Promise<DeletedFile> {
    return resources.deleteMemory(this.steer, id, opts);
  }

  listTools(params: PageParams & { query?: string } = {}, opts: CallOptions = {}): Promise<Page<ToolRecord>> {
    return resources.listTools(this.steer, params, opts.signal);
  }

  iterateTools(params: PageParams & { query?: string } = {}, opts: PageWalkOptions = {}): PageWalk<ToolRecord> {
    return paginate((p, signal) => this.listTools({ ...params, ...p }, { signal }), params, opts);
  }

  getTool(id: string, opts: CallOptions = {}): Promise<ToolRecord> {
    return resources.getTool(this.steer, id, opts.signal);
  }

  listInvocations(params: InvocationListParams = {}, opts: CallOptions = {}): Promise<Page<InvocationRecord>> {
    return resources.listInvocations(this.steer, params, opts.signal);
  }

  iterateInvocations(params: InvocationListParams = {}, opts: PageWalkOptions = {}): PageWalk<InvocationRecord> {
    return paginate((p, signal) => this.listInvocations({ ...params, ...p }, { signal }), params, opts);
  }

  getInvocation(id: string, opts: CallOptions = {}): Promise<InvocationRecord> {
    return resources.getInvocation(this.steer, id, opts.signal);
  }

  listConnectors(params: PageParams = {}, opts: CallOptions = {}): Promise<Page<ConnectorRecord>> {
    return resources.listConnectors(this.steer, params, opts.signal);
  }

  iterateConnectors(params: PageParams = {}, opts: PageWalkOptions = {}): PageWalk<ConnectorRecord> {
    return paginate((p, signal) => this.listConnectors({ ...params, ...p }, { signal }), params, opts);
  }

  getConnector(id: string, opts: CallOptions = {}): Promise<ConnectorRecord> {
    return resources.getConnector(this.steer, id, opts.signal);
  }

  removeGrant(connectorId: string, grantId: string, opts: CallOptions = {}): Promise<ConnectorRecord> {
    return resources.removeGrant(this.steer, connectorId, grantId, opts);
  }

  revokeConnector(connectorId: string, opts: SteeringOptions = {}): Promise<ConnectorRecord> {
    return resources.revokeConnector(this.steer, connectorId, opts);
  }

  listWebhooks(params: PageParams = {}, opts: CallOptions = {}): Promise<Page<WebhookRecord>> {
    return resources.listWebhooks(this.steer, params, opts.signal);
  }

  iterateWebhooks(params: PageParams = {}, opts: PageWalkOptions = {}): PageWalk<WebhookRecord> {
    return paginate((p, signal) => this.listWebhooks({ ...params, ...p }, { signal }), params, opts);
  }

  /** The secret comes back this once: show it, keep it nowhere. */
  createWebhook(body: { url: string; events: string[] }, opts: SteeringOptions = {}): Promise<CreatedWebhook> {
    return resources.createWebhook(this.steer, body, opts);
  }

  deleteWebhook(id: string, opts: CallOptions = {}): Promise<DeletedFile> {
    return resources.deleteWebhook(this.steer, id, opts);
  }

  testWebhook(id: string, opts: SteeringOptions = {}): Promise<WebhookDelivery> {
    return resources.testWebhook(this.steer, id, opts);
  }

  /**
   * Does the transport's set-up for the service now (on Node: loading undici and gathering the
   * trusted CAs, tens of milliseconds), connecting nothing: activation calls it while it waits for
   * the key, so the first request does not pay for it. Never throws.
   */
  prepare(): void {
    if (this.configError || this.disposed) {
      return;
    }
    try {
      this.transport.prepare?.(this.origin);
    } catch (err) {
      // The first request meets the same failure and reports it where it is shown.
      this.logger.debug(`Preparing the connection failed: ${String(err)}`);
    }
  }

  /** Closes every connection; calls made afterwards fail with ApiError 'aborted'. */
  async dispose(): Promise<void> {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    await this.transport.destroy();
  }

  // ---- what the calls share ----

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
      consume: async (res) =>
        parsePage<T>(await readJson(res), what, this.logger, typeof query.limit === 'number' ? query.limit : undefined),
    });
  }

  private get steer(): SteeringCaller {
    return { call: (spec) => this.call(spec), logger: this.logger };
  }

  private checkUsable(): void {
    if (this.configError) {
      throw this.configError;
    }
    if (this.disposed) {
      throw new ApiError({ kind: 'aborted', message: 'The API client was closed.' });
    }
  }

  private async call<T>(spec: RequestSpec<T>): Promise<T> {
    this.checkUsable();
    return this.requests.call(spec);
  }
}
