// A scenario's own view of the reference runtime over HTTP, to set up data and to check on the
// server what the UI did (never through the extension).
import { type RuntimeHandle } from '../../../runtime';

export interface FileRecord {
  id: string;
  filename: string;
}
export interface TaskRecord {
  id: string;
  objective: string;
  status: string;
  run_id?: string;
  attachments?: { type: string; fileId?: string; file_id?: string }[];
}
export interface RunRecord {
  id: string;
  status: string;
}
export interface ArtifactRecord {
  id: string;
  name: string;
}
interface List<T> {
  data: T[];
}

async function call<T>(runtime: RuntimeHandle, method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const headers: Record<string, string> = { authorization: `Bearer ${runtime.apiKey}` };
  let payload: string | FormData | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  if (method === 'POST') headers['idempotency-key'] = crypto.randomUUID();
  const res = await fetch(`${runtime.baseUrl}/v1${path}`, { method, headers, body: payload });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : undefined) as T };
}

async function ok<T>(runtime: RuntimeHandle, method: string, path: string, body?: unknown): Promise<T> {
  const { status, json } = await call<T>(runtime, method, path, body);
  if (status < 200 || status > 299) throw new Error(`${method} ${path} answered ${status}`);
  return json;
}

export function uploadFile(runtime: RuntimeHandle, filename: string, content: string): Promise<FileRecord> {
  const form = new FormData();
  form.set('purpose', 'task_input');
  form.set('file', new Blob([content], { type: 'text/plain' }), filename);
  return ok(runtime, 'POST', '/files', form);
}

export function createTask(runtime: RuntimeHandle, objective: string, fileIds: string[] = []): Promise<TaskRecord> {
  return ok(runtime, 'POST', '/tasks', { objective, attachments: fileIds.map((fileId) => ({ type: 'document', fileId })) });
}

export const listFiles = async (runtime: RuntimeHandle): Promise<FileRecord[]> => (await ok<List<FileRecord>>(runtime, 'GET', '/files?limit=100')).data;
export const listTasks = async (runtime: RuntimeHandle): Promise<TaskRecord[]> => (await ok<List<TaskRecord>>(runtime, 'GET', '/tasks?limit=100')).data;
export const getRun = (runtime: RuntimeHandle, runId: string): Promise<RunRecord> => ok(runtime, 'GET', `/runs/${runId}`);
export const listArtifacts = async (runtime: RuntimeHandle, runId: string): Promise<ArtifactRecord[]> =>
  (await ok<List<ArtifactRecord>>(runtime, 'GET', `/runs/${runId}/artifacts`)).data;
export const fileStatus = async (runtime: RuntimeHandle, fileId: string): Promise<number> => (await call(runtime, 'GET', `/files/${fileId}`)).status;

/** Polls `check` (a server-side condition, not the UI) until it gives a value. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
export const isTerminalEvent = (event: string): boolean => /^run\.(completed|failed|cancelled)$/.test(event);
