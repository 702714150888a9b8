// A scenario's own view of the reference runtime over HTTP, to set up data and to check on the
// server what the UI did (never through the extension).
import { type RuntimeHandle } from '../../../runtime';
import { type ScenarioContext } from '../types';
import { UI } from '../ui';

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
  follow_up_of?: string;
}
export interface ArtifactRecord {
  id: string;
  name: string;
}
interface List<T> {
  data: T[];
}

async function call<T>(
  runtime: RuntimeHandle,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const headers: Record<string, string> = { authorization: `Bearer ${runtime.apiKey}` };
  let payload: string | FormData | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  if (method === 'POST') {
    headers['idempotency-key'] = crypto.randomUUID();
  }
  const res = await fetch(`${runtime.baseUrl}/v1${path}`, { method, headers, body: payload });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : undefined) as T };
}

async function ok<T>(runtime: RuntimeHandle, method: string, path: string, body?: unknown): Promise<T> {
  const { status, json } = await call<T>(runtime, method, path, body);
  if (status < 200 || status > 299) {
    throw new Error(`${method} ${path} answered ${status}`);
  }
  return json;
}

export function uploadFile(runtime: RuntimeHandle, filename: string, content: string): Promise<FileRecord> {
  const form = new FormData();
  form.set('purpose', 'task_input');
  form.set('file', new Blob([content], { type: 'text/plain' }), filename);
  return ok(runtime, 'POST', '/files', form);
}

export function createTask(runtime: RuntimeHandle, objective: string, fileIds: string[] = []): Promise<TaskRecord> {
  return ok(runtime, 'POST', '/tasks', {
    objective,
    attachments: fileIds.map((fileId) => ({ type: 'document', fileId })),
  });
}

export const listFiles = async (runtime: RuntimeHandle): Promise<FileRecord[]> =>
  (await ok<List<FileRecord>>(runtime, 'GET', '/files?limit=100')).data;
export const listTasks = async (runtime: RuntimeHandle): Promise<TaskRecord[]> =>
  (await ok<List<TaskRecord>>(runtime, 'GET', '/tasks?limit=100')).data;
export const listRuns = async (runtime: RuntimeHandle): Promise<RunRecord[]> =>
  (await ok<List<RunRecord>>(runtime, 'GET', '/runs?limit=100')).data;
export const getRun = (runtime: RuntimeHandle, runId: string): Promise<RunRecord> =>
  ok(runtime, 'GET', `/runs/${runId}`);
export const listArtifacts = async (runtime: RuntimeHandle, runId: string): Promise<ArtifactRecord[]> =>
  (await ok<List<ArtifactRecord>>(runtime, 'GET', `/runs/${runId}/artifacts`)).data;
export const fileStatus = async (runtime: RuntimeHandle, fileId: string): Promise<number> =>
  (await call(runtime, 'GET', `/files/${fileId}`)).status;

/** The whole event stream of an ended run (the server closes it after the terminal event). */
export async function runEventsText(runtime: RuntimeHandle, runId: string): Promise<string> {
  const res = await fetch(`${runtime.baseUrl}/v1/runs/${runId}/events`, {
    headers: { authorization: `Bearer ${runtime.apiKey}` },
  });
  return res.text();
}

/** Polls `check` (a server-side condition, not the UI) until it gives a value. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Runs a view's Refresh and waits until the runtime has answered the view's new listing. A root
 * refresh makes VS Code forget every row's handle until the extension gives the new rows, and a
 * row's context-menu command run in between gets no row (seen: Delete File saying "Choose a file
 * in the Files view first."), so a scenario acts on rows only after the listing is back. The view
 * must be open (a hidden view lists nothing).
 */
export async function refreshView(
  ctx: Pick<ScenarioContext, 'workbench' | 'runtimeLog'>,
  view: 'files' | 'tasks',
  commandTitle?: string,
): Promise<void> {
  const listing = view === 'files' ? /^GET \/v1\/files(\?|\s|$)/ : /^GET \/v1\/tasks(\?|\s|$)/;
  const count = () => ctx.runtimeLog.filter((line) => listing.test(line)).length;
  // The view's first listing (at activation) answered first, so that it is not taken for the refresh's.
  await until(`the ${view} view's first listing`, async () => (count() > 0 ? true : undefined), 30_000);
  const before = count();
  await ctx.workbench.runCommand(
    commandTitle ?? (view === 'files' ? UI.commands.refreshFiles : UI.commands.refreshTasks),
  );
  await until(`the ${view} view's new listing`, async () => (count() > before ? true : undefined), 30_000);
}

export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
export const isTerminalEvent = (event: string): boolean => /^run\.(completed|failed|cancelled)$/.test(event);
