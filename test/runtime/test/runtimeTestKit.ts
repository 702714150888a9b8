// Helpers for the runtime's tests: plain HTTP calls, uploads, and a raw SSE reader over node:http.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RuntimeHandle } from '../index';

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body; `{}` when the body is not JSON. */
  json: Record<string, unknown>;
}

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** The API key to send; null sends no Authorization header. Default: the runtime's key. */
  key?: string | null;
}

export async function call(
  rt: RuntimeHandle,
  method: string,
  urlPath: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? rt.apiKey : options.key;
  if (key !== null) {
    headers.Authorization = `Bearer ${key}`;
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(`${rt.baseUrl}${urlPath}`, { method, headers, body });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON (content downloads, HTML faults)
  }
  return { status: res.status, headers: res.headers, text, json };
}

export async function upload(
  rt: RuntimeHandle,
  filename: string,
  content: string | Buffer,
  options: { purpose?: string | null; headers?: Record<string, string>; type?: string } = {},
): Promise<CallResult> {
  const form = new FormData();
  if (options.purpose !== null) {
    form.append('purpose', options.purpose ?? 'task_input');
  }
  form.append('file', new Blob([content], { type: options.type ?? 'application/octet-stream' }), filename);
  const res = await fetch(`${rt.baseUrl}/v1/files`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${rt.apiKey}`, ...options.headers },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: safeJson(text) };
}

export async function uploadOk(
  rt: RuntimeHandle,
  filename: string,
  content: string | Buffer,
  purpose = 'task_input',
): Promise<string> {
  const res = await upload(rt, filename, content, { purpose });
  if (res.status !== 201) {
    throw new Error(`upload failed: ${res.status} ${res.text}`);
  }
  return res.json.id as string;
}

export async function createTask(
  rt: RuntimeHandle,
  objective: string,
  fileIds: string[] = [],
): Promise<{ id: string; run_id: string; status?: string }> {
  const res = await call(rt, 'POST', '/v1/tasks', {
    body: { objective, attachments: fileIds.map((fileId) => ({ type: 'document', fileId })) },
  });
  if (res.status !== 201) {
    throw new Error(`create task failed: ${res.status} ${res.text}`);
  }
  return res.json as { id: string; run_id: string; status?: string };
}

export interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
}

export interface SseReading {
  status: number;
  headers: http.IncomingHttpHeaders;
  raw: string;
  messages: SseMessage[];
  /** `data` of each message, parsed. */
  events: { event: string; data: Record<string, unknown> }[];
  comments: string[];
  /** How many separate chunks reached the client. */
  chunks: number;
  /** 'ended': the server finished the response; 'cut': the connection died mid-stream. */
  outcome: 'ended' | 'cut' | 'stopped';
}

/**
 * Reads an SSE response until it ends, is cut, or `stopWhen` says stop. A raw reader (no
 * EventSource) so the tests see exactly what went over the wire.
 */
export function readEvents(
  rt: RuntimeHandle,
  runId: string,
  options: { after?: number; key?: string; stopWhen?: (reading: SseReading) => boolean; timeoutMs?: number } = {},
): Promise<SseReading> {
  const query = options.after === undefined ? '' : `?after=${options.after}`;
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${rt.baseUrl}/v1/runs/${runId}/events${query}`,
      { headers: { Authorization: `Bearer ${options.key ?? rt.apiKey}`, Accept: 'text/event-stream' } },
      (res) => {
        const reading: SseReading = {
          status: res.statusCode ?? 0,
          headers: res.headers,
          raw: '',
          messages: [],
          events: [],
          comments: [],
          chunks: 0,
          outcome: 'ended',
        };
        let settled = false;
        const timer = setTimeout(() => finish('stopped'), options.timeoutMs ?? 20000);
        const finish = (outcome: SseReading['outcome']): void => {
          if (settled) {
            return;
          }
          settled = true;
          clearTimeout(timer);
          reading.outcome = outcome;
          parseInto(reading);
          resolve(reading);
        };
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          reading.raw += chunk;
          reading.chunks++;
          if (options.stopWhen) {
            parseInto(reading);
            if (options.stopWhen(reading)) {
              finish('stopped');
              req.destroy();
            }
          }
        });
        res.on('end', () => finish('ended'));
        res.on('aborted', () => finish('cut'));
        res.on('error', () => finish('cut'));
        res.on('close', () => finish(res.complete ? 'ended' : 'cut'));
      },
    );
    req.on('error', (err) => reject(err));
  });
}

/** Parses every complete message of `reading.raw` (any of \n, \r\n, \r line endings). */
function parseInto(reading: SseReading): void {
  reading.messages = [];
  reading.events = [];
  reading.comments = [];
  const blocks = reading.raw.split(/\r\n\r\n|\n\n|\r\r/);
  blocks.pop(); // the last piece is incomplete (or empty)
  for (const block of blocks) {
    const message: SseMessage = {};
    let hasField = false;
    for (const line of block.split(/\r\n|\n|\r/)) {
      if (line.startsWith(':')) {
        reading.comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id' || field === 'event' || field === 'retry') {
        message[field] = value;
      }
      if (field === 'data') {
        message.data = message.data === undefined ? value : `${message.data}\n${value}`;
      }
      hasField = true;
    }
    if (!hasField) {
      continue;
    }
    reading.messages.push(message);
    if (message.event !== undefined && message.data !== undefined) {
      reading.events.push({ event: message.event, data: JSON.parse(message.data) as Record<string, unknown> });
    }
  }
}

/** Follows the run's events to the end and returns them. */
export async function runToEnd(rt: RuntimeHandle, runId: string): Promise<SseReading> {
  const reading = await readEvents(rt, runId);
  if (reading.outcome !== 'ended') {
    throw new Error(`event stream of ${runId} did not end cleanly (${reading.outcome})`);
  }
  return reading;
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-test-'));
}

export function safeJson(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** Polls `condition` until it holds (a condition exists, so no fixed sleeps). */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function errorOf(result: CallResult): { type?: string; code?: string; message?: string; param?: string } {
  return result.json.error ?? {};
}

/** Polls the run until it has `status` (e.g. awaiting_approval) and returns its record. */
export async function untilRunStatus(
  rt: RuntimeHandle,
  runId: string,
  status: string,
): Promise<Record<string, unknown>> {
  let run: Record<string, unknown> = {};
  await waitFor(async () => {
    run = (await call(rt, 'GET', `/v1/runs/${runId}`)).json;
    return run.status === status;
  }, `run ${runId} to be ${status}`);
  return run;
}

/** The run's first approval in whatever state (pending, or already expired), once it asked for one. */
export async function firstApproval(rt: RuntimeHandle, runId: string): Promise<Record<string, unknown>> {
  let found: Record<string, unknown> | undefined;
  await waitFor(async () => {
    const page = (await call(rt, 'GET', `/v1/approvals?run_id=${runId}`)).json;
    const all = (page.data as Record<string, unknown>[] | undefined) ?? [];
    found = all.sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)))[0];
    return found !== undefined;
  }, `an approval request of ${runId}`);
  return found as Record<string, unknown>;
}

/** The run's pending approval, once it asks for one. */
export async function pendingApproval(rt: RuntimeHandle, runId: string): Promise<Record<string, unknown>> {
  let found: Record<string, unknown> | undefined;
  await waitFor(async () => {
    const page = (await call(rt, 'GET', `/v1/approvals?status=pending&run_id=${runId}`)).json;
    found = (page.data as Record<string, unknown>[] | undefined)?.[0];
    return found !== undefined;
  }, `an approval request of ${runId}`);
  return found as Record<string, unknown>;
}

export function decide(
  rt: RuntimeHandle,
  approvalId: string,
  decision: string,
  options: { note?: string; key?: string } = {},
): Promise<CallResult> {
  return call(rt, 'POST', `/v1/approvals/${approvalId}/decision`, {
    body: { decision, ...(options.note !== undefined ? { note: options.note } : {}) },
    headers: options.key ? { 'Idempotency-Key': options.key } : {},
  });
}
