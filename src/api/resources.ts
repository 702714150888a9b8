// Memory, tools, connectors and webhooks (docs/PROTOCOL.md, their sections). Every
// endpoint is assumed: 404/405 -> ApiError 'not_supported' (as for steering), so one feature hides
// with a message and the rest works. Records are parsed loosely: the fields the views show made
// safe, unknown fields kept. Plain Node.
import { ApiError, redactWebhookSecrets } from './errors';
import { pageQuery } from './pagination';
import { parsePage, parseRecord } from './parse';
import { pathSegment } from './pathSegment';
import {
  type ConnectorGrant,
  type ConnectorRecord,
  type CreatedWebhook,
  type InvocationListParams,
  type InvocationRecord,
  MAX_MEMORY_BYTES,
  type MemoryChange,
  type MemoryListParams,
  type MemoryRecord,
  type ToolRecord,
  type WebhookDelivery,
  type WebhookRecord,
} from './resourceTypes';
import {
  assumedGet as get,
  assumedSend as send,
  orUnsupported,
  type SteeringCaller,
  type SteeringOptions,
  whenListMissing,
} from './steering';
import type { DeletedFile, Page, PageParams } from './types';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function count(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function errorMessage(value: unknown): { message: string } | undefined {
  if (!isObject(value)) {
    return undefined;
  }
  const message = text(value.message);
  return message === undefined ? undefined : { message: redactWebhookSecrets(message) };
}

// ---- parsing ----

export function memoryFrom(value: Json & { id: string }): MemoryRecord {
  const score = typeof value.score === 'number' && value.score >= 0 && value.score <= 1 ? value.score : undefined;
  const version =
    Number.isSafeInteger(value.version) && (value.version as number) >= 0 ? (value.version as number) : undefined;
  const source = isObject(value.source)
    ? { run_id: text(value.source.run_id), sequence: count(value.source.sequence) }
    : undefined;
  return {
    ...value,
    content: text(value.content) ?? '',
    tags: strings(value.tags),
    project_id: text(value.project_id),
    source,
    version,
    updated_at: text(value.updated_at),
    created_at: text(value.created_at),
    score,
  };
}

export const parseMemory = (v: unknown): MemoryRecord => memoryFrom(parseRecord<Json & { id: string }>(v, 'memory'));

export function toolFrom(value: Json & { id: string }): ToolRecord {
  return {
    ...value,
    name: text(value.name),
    description: text(value.description),
    input_schema: isObject(value.input_schema) ? value.input_schema : undefined,
    requires_approval: value.requires_approval === true,
    connector_id: text(value.connector_id),
  };
}

export function invocationFrom(value: Json & { id: string }): InvocationRecord {
  return {
    ...value,
    tool: text(value.tool),
    run_id: text(value.run_id),
    step_id: text(value.step_id),
    sequence: count(value.sequence),
    arguments: isObject(value.arguments) ? value.arguments : undefined,
    status: text(value.status),
    output: text(value.output),
    output_truncated: value.output_truncated === true,
    error: errorMessage(value.error),
    started_at: text(value.started_at),
    completed_at: text(value.completed_at),
    duration_ms: count(value.duration_ms),
  };
}

export function connectorFrom(value: Json & { id: string }): ConnectorRecord {
  const grants: ConnectorGrant[] = [];
  const seen = new Set<string>();
  for (const g of Array.isArray(value.grants) ? value.grants : []) {
    if (!isObject(g) || typeof g.id !== 'string' || g.id === '' || seen.has(g.id)) {
      continue;
    }
    seen.add(g.id);
    grants.push({ ...g, id: g.id, scope: text(g.scope), resource: text(g.resource), created_at: text(g.created_at) });
  }
  return {
    ...value,
    kind: text(value.kind),
    name: text(value.name),
    account: text(value.account),
    status: text(value.status),
    grants,
  };
}

export function webhookFrom(value: Json & { id: string }): WebhookRecord {
  // A secret is never part of a webhook record we keep.
  const { secret: _secret, ...rest } = value;
  return { ...rest, url: text(value.url), events: strings(value.events), status: text(value.status) };
}

export function parseDelivery(value: unknown): WebhookDelivery {
  if (!isObject(value)) {
    throw new ApiError({ kind: 'protocol', message: 'The test delivery answer is not an object.' });
  }
  const status = value.status_code;
  return {
    status_code:
      Number.isSafeInteger(status) && (status as number) >= 100 && (status as number) <= 999
        ? (status as number)
        : undefined,
    duration_ms: count(value.duration_ms),
    error: errorMessage(value.error),
  };
}

function pageOf<T>(
  caller: SteeringCaller,
  what: string,
  from: (v: Json & { id: string }) => T,
  limit?: number,
): (v: unknown) => Page<T> {
  return (v) => {
    const page = parsePage<Json & { id: string }>(v, what, caller.logger, limit);
    return { ...page, data: page.data.map(from) };
  };
}

// ---- the request shapes ----

const always = async (): Promise<boolean> => true;

const deleted =
  (id: string) =>
  (v: unknown): DeletedFile =>
    isObject(v) ? { ...v, id: typeof v.id === 'string' ? v.id : id } : { id, deleted: true };

// ---- memory ----

const MEMORY = 'memory';

/** The size check the service makes, before sending: 'validation' with `limit` and the size in the message. */
export function checkMemorySize(content: string): void {
  const bytes = new TextEncoder().encode(content).length;
  if (bytes > MAX_MEMORY_BYTES) {
    throw new ApiError({
      kind: 'validation',
      code: 'content_too_large',
      param: 'content',
      limit: MAX_MEMORY_BYTES,
      message: `The memory is ${bytes} bytes; at most ${MAX_MEMORY_BYTES} bytes can be remembered.`,
    });
  }
}

export function listMemory(
  caller: SteeringCaller,
  params: MemoryListParams = {},
  signal?: AbortSignal,
): Promise<Page<MemoryRecord>> {
  const query = pageQuery(params, {
    query: params.query?.trim() || undefined,
    project_id: params.project_id,
    tag: params.tag,
  });
  return orUnsupported(
    get(caller, '/memory', query, signal, pageOf(caller, 'memories', memoryFrom, params.limit)),
    MEMORY,
    always,
  );
}

export function getMemory(caller: SteeringCaller, id: string, signal?: AbortSignal): Promise<MemoryRecord> {
  return orUnsupported(
    get(caller, `/memory/${pathSegment(id)}`, undefined, signal, parseMemory),
    MEMORY,
    whenListMissing(caller, '/memory'),
  );
}

export async function createMemory(
  caller: SteeringCaller,
  body: { content: string; tags?: string[]; project_id?: string },
  opts: SteeringOptions = {},
): Promise<MemoryRecord> {
  checkMemorySize(body.content);
  const json = {
    content: body.content,
    ...(body.tags?.length ? { tags: body.tags } : {}),
    ...(body.project_id ? { project_id: body.project_id } : {}),
  };
  return orUnsupported(send(caller, 'POST', '/memory', json, opts, parseMemory), MEMORY, always);
}

/** The current record a 409 version_conflict carried, if usable. */
export function conflictMemory(err: unknown): MemoryRecord | undefined {
  if (!(err instanceof ApiError) || err.status !== 409 || err.code !== 'version_conflict' || !err.memory) {
    return undefined;
  }
  const record = err.memory;
  return typeof record.id === 'string' && record.id !== '' ? memoryFrom(record as Json & { id: string }) : undefined;
}

/**
 * 200 the entry at its new version. 409 version_conflict: someone changed it meanwhile; the
 * current record is on the error (`conflictMemory(err)`). When that current record is exactly our
 * change one version on (a retry after a lost answer), the change did land: it is returned.
 */
export async function updateMemory(
  caller: SteeringCaller,
  id: string,
  change: MemoryChange,
  opts: SteeringOptions = {},
): Promise<MemoryRecord> {
  if (!Number.isSafeInteger(change?.version)) {
    throw new ApiError({
      kind: 'validation',
      param: 'version',
      message: 'A change to a memory names the version it is based on.',
    });
  }
  if (change.content !== undefined) {
    checkMemorySize(change.content);
  }
  const json = {
    ...(change.content !== undefined ? { content: change.content } : {}),
    ...(change.tags !== undefined ? { tags: change.tags } : {}),
    version: change.version,
  };
  try {
    return await orUnsupported(
      send(caller, 'PATCH', `/memory/${pathSegment(id)}`, json, opts, parseMemory),
      MEMORY,
      whenListMissing(caller, '/memory'),
    );
  } catch (err) {
    const current = conflictMemory(err);
    const landed =
      current !== undefined &&
      current.version === change.version + 1 &&
      (change.content === undefined || current.content === change.content) &&
      (change.tags === undefined || JSON.stringify(current.tags) === JSON.stringify(change.tags));
    if (landed) {
      return current;
    }
    throw err;
  }
}

export function deleteMemory(caller: SteeringCaller, id: string, opts: SteeringOptions = {}): Promise<DeletedFile> {
  return orUnsupported(
    send(caller, 'DELETE', `/memory/${pathSegment(id)}`, undefined, opts, deleted(id)),
    MEMORY,
    whenListMissing(caller, '/memory'),
  );
}

// ---- tools ----

const TOOLS = 'tools';

export function listTools(
  caller: SteeringCaller,
  params: PageParams & { query?: string } = {},
  signal?: AbortSignal,
): Promise<Page<ToolRecord>> {
  return orUnsupported(
    get(
      caller,
      '/tools',
      pageQuery(params, { query: params.query?.trim() || undefined }),
      signal,
      pageOf(caller, 'tools', toolFrom, params.limit),
    ),
    TOOLS,
    always,
  );
}

export function getTool(caller: SteeringCaller, id: string, signal?: AbortSignal): Promise<ToolRecord> {
  return orUnsupported(
    get(caller, `/tools/${pathSegment(id)}`, undefined, signal, (v) => toolFrom(parseRecord(v, 'tool'))),
    TOOLS,
    whenListMissing(caller, '/tools'),
  );
}

export function listInvocations(
  caller: SteeringCaller,
  params: InvocationListParams = {},
  signal?: AbortSignal,
): Promise<Page<InvocationRecord>> {
  const query = pageQuery(params, { run_id: params.run_id, tool: params.tool, status: params.status });
  const request = get(caller, '/tools/invocations', query, signal, pageOf(caller, 'tool invocations', invocationFrom));
  return orUnsupported(
    request,
    'tool invocation records',
    params.run_id === undefined ? always : whenListMissing(caller, '/tools/invocations'),
  );
}

export function getInvocation(caller: SteeringCaller, id: string, signal?: AbortSignal): Promise<InvocationRecord> {
  const request = get(caller, `/tools/invocations/${pathSegment(id)}`, undefined, signal, (v) =>
    invocationFrom(parseRecord(v, 'tool invocation')),
  );
  return orUnsupported(request, 'tool invocation records', whenListMissing(caller, '/tools/invocations'));
}

// ---- connectors ----

const CONNECTORS = 'connectors';
const parseConnector = (v: unknown): ConnectorRecord => connectorFrom(parseRecord(v, 'connector'));

export function listConnectors(
  caller: SteeringCaller,
  params: PageParams = {},
  signal?: AbortSignal,
): Promise<Page<ConnectorRecord>> {
  return orUnsupported(
    get(caller, '/connectors', pageQuery(params), signal, pageOf(caller, 'connectors', connectorFrom)),
    CONNECTORS,
    always,
  );
}

export function getConnector(caller: SteeringCaller, id: string, signal?: AbortSignal): Promise<ConnectorRecord> {
  return orUnsupported(
    get(caller, `/connectors/${pathSegment(id)}`, undefined, signal, parseConnector),
    CONNECTORS,
    whenListMissing(caller, '/connectors'),
  );
}

/** The connector without that grant. */
export function removeGrant(
  caller: SteeringCaller,
  connectorId: string,
  grantId: string,
  opts: SteeringOptions = {},
): Promise<ConnectorRecord> {
  const path = `/connectors/${pathSegment(connectorId)}/grants/${pathSegment(grantId)}`;
  return orUnsupported(
    send(caller, 'DELETE', path, undefined, opts, parseConnector),
    CONNECTORS,
    whenListMissing(caller, '/connectors'),
  );
}

/** The connector, revoked, without grants. */
export function revokeConnector(
  caller: SteeringCaller,
  connectorId: string,
  opts: SteeringOptions = {},
): Promise<ConnectorRecord> {
  return orUnsupported(
    send(caller, 'POST', `/connectors/${pathSegment(connectorId)}/revoke`, undefined, opts, parseConnector),
    CONNECTORS,
    whenListMissing(caller, '/connectors'),
  );
}

// ---- webhooks ----

const WEBHOOKS = 'webhooks';

/** https only, checked before sending ('validation', param url). */
export function checkWebhookUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || parsed.protocol !== 'https:') {
    throw new ApiError({
      kind: 'validation',
      code: 'invalid_url',
      param: 'url',
      message: 'A webhook URL must start with https://.',
    });
  }
}

export function listWebhooks(
  caller: SteeringCaller,
  params: PageParams = {},
  signal?: AbortSignal,
): Promise<Page<WebhookRecord>> {
  return orUnsupported(
    get(caller, '/webhooks', pageQuery(params), signal, pageOf(caller, 'webhooks', webhookFrom)),
    WEBHOOKS,
    always,
  );
}

/** 201 the record plus the secret, this once: the caller shows it and keeps it nowhere. */
export async function createWebhook(
  caller: SteeringCaller,
  body: { url: string; events: string[] },
  opts: SteeringOptions = {},
): Promise<CreatedWebhook> {
  checkWebhookUrl(body.url);
  if (!Array.isArray(body.events) || body.events.length === 0) {
    throw new ApiError({ kind: 'validation', param: 'events', message: 'A webhook needs at least one event.' });
  }
  const parse = (v: unknown): CreatedWebhook => {
    const record = parseRecord<Json & { id: string }>(v, 'webhook');
    const secret = text(record.secret);
    return { webhook: webhookFrom(record), ...(secret ? { secret } : {}) };
  };
  return orUnsupported(
    send(caller, 'POST', '/webhooks', { url: body.url, events: body.events }, opts, parse),
    WEBHOOKS,
    always,
  );
}

export function deleteWebhook(caller: SteeringCaller, id: string, opts: SteeringOptions = {}): Promise<DeletedFile> {
  return orUnsupported(
    send(caller, 'DELETE', `/webhooks/${pathSegment(id)}`, undefined, opts, deleted(id)),
    WEBHOOKS,
    whenListMissing(caller, '/webhooks'),
  );
}

export function testWebhook(caller: SteeringCaller, id: string, opts: SteeringOptions = {}): Promise<WebhookDelivery> {
  return orUnsupported(
    send(caller, 'POST', `/webhooks/${pathSegment(id)}/test`, undefined, opts, parseDelivery),
    'webhook test deliveries',
    whenListMissing(caller, '/webhooks'),
  );
}
