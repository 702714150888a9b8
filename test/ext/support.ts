// What the extension-host suites share: the extension's test API, the reference runtime's
// address and keys (handed over by the runner through the environment), and a direct client.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApiClient } from '../../src/api/client';
import type { AgentRuntimeExtensionApi } from '../../src/extension';
import type { GitExtension, GitRepository } from '../../src/projects/gitTypes';

export const EXTENSION_ID = 'agent-runtime.agent-runtime';

export function testEnv(): { baseUrl: string; apiKey: string; adminKey: string } {
  const baseUrl = process.env.AGENT_RUNTIME_TEST_BASE_URL;
  const apiKey = process.env.AGENT_RUNTIME_TEST_API_KEY;
  const adminKey = process.env.AGENT_RUNTIME_TEST_ADMIN_KEY ?? '';
  assert.ok(baseUrl && apiKey, 'the runner did not pass AGENT_RUNTIME_TEST_BASE_URL / AGENT_RUNTIME_TEST_API_KEY');
  return { baseUrl, apiKey, adminKey };
}

export async function extensionApi(): Promise<AgentRuntimeExtensionApi> {
  const extension = vscode.extensions.getExtension<AgentRuntimeExtensionApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not loaded`);
  return extension.activate();
}

/** A client of our own, to check on the server what the extension did. */
export function directClient(): ApiClient {
  const { baseUrl, apiKey } = testEnv();
  return new ApiClient({ baseUrl, getApiKey: async () => apiKey });
}

export async function signInForTests(): Promise<void> {
  const ok = await vscode.commands.executeCommand<boolean>('agentRuntime.signIn', { apiKey: testEnv().apiKey });
  assert.strictEqual(ok, true, 'sign in with the runtime key failed');
}

/**
 * The mocha setup of a suite that works against the reference runtime (call it inside
 * `describe`): before, the extension is active and signed in (and, given `pageSize`, the
 * workspace setting holds it); after, the setting is cleared, every editor closed and the
 * returned direct client disposed.
 */
export function suiteWithService(options: { pageSize?: number } = {}): ApiClient {
  const client = directClient();
  before(async () => {
    await extensionApi();
    await signInForTests();
    if (options.pageSize !== undefined) {
      await setWorkspaceSetting('pageSize', options.pageSize);
    }
  });
  after(async () => {
    if (options.pageSize !== undefined) {
      await setWorkspaceSetting('pageSize', undefined);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await client.dispose();
  });
  return client;
}

/**
 * Sets `agentRuntime.<key>` in the workspace and waits until the extension host has seen the
 * change: `update()` can resolve before onDidChangeConfiguration arrives, and the extension's
 * own reaction to it (a pageSize change refreshes the sidebar) would then land in the middle of
 * the next step.
 */
export async function setWorkspaceSetting(key: string, value: unknown): Promise<void> {
  const config = vscode.workspace.getConfiguration('agentRuntime');
  if (config.inspect(key)?.workspaceValue === value) {
    return;
  }
  let listener: vscode.Disposable | undefined;
  const seen = new Promise<void>((resolve) => {
    listener = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`agentRuntime.${key}`)) {
        resolve();
      }
    });
  });
  try {
    await config.update(key, value, vscode.ConfigurationTarget.Workspace);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      seen,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the change of agentRuntime.${key} never arrived`)), 15_000);
      }),
    ]).finally(() => clearTimeout(timer));
  } finally {
    listener?.dispose();
  }
}

/** Polls `check` until it returns a value (not undefined/false) or the timeout passes. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A POST to the reference runtime's admin API (synthetic runs, faults); its JSON answer, if any. */
export async function admin(path: string, body: unknown): Promise<unknown> {
  const { baseUrl, adminKey } = testEnv();
  const res = await fetch(`${baseUrl}/__admin${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.ok(res.ok, `admin ${path}: ${res.status}`);
  return res.json().catch(() => undefined);
}

/**
 * The reference runtime's request log (one line per request: method, path, status), read once
 * every request made before this call is in it: a marker request of our own is sent, and the
 * file is read until its line is there (the runner writes the log beside the result file).
 */
export async function runtimeRequestLog(): Promise<string[]> {
  const resultFile = process.env.AGENT_RUNTIME_TEST_RESULT_FILE;
  assert.ok(resultFile, 'the runner did not pass AGENT_RUNTIME_TEST_RESULT_FILE');
  const logFile = path.join(path.dirname(resultFile), 'runtime.log');
  const marker = `run_logmarker${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  await fetch(`${testEnv().baseUrl}/v1/runs/${marker}`, {
    headers: { authorization: `Bearer ${testEnv().apiKey}` },
  }).then((r) => r.arrayBuffer());
  return waitFor('the runtime log to show the marker request', () => {
    const lines = fs.existsSync(logFile)
      ? fs
          .readFileSync(logFile, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
      : [];
    return lines.some((line) => line.includes(marker)) ? lines : undefined;
  });
}

/**
 * Turns VS Code's Git extension on for the workspace and opens the repository at `folder` in it,
 * status read. Git stays enabled in this host from then on (see BEFORE_GIT_IS_ENABLED in index.ts).
 */
export async function openGitRepository(folder: string): Promise<GitRepository> {
  await vscode.workspace.getConfiguration('git').update('enabled', true, vscode.ConfigurationTarget.Workspace);
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  assert.ok(extension, 'code-server has no vscode.git');
  const exports = extension.isActive ? extension.exports : await extension.activate();
  await waitFor('git to be enabled', () => exports.enabled);
  const api = exports.getAPI(1) as ReturnType<GitExtension['getAPI']> & {
    openRepository(uri: vscode.Uri): Promise<GitRepository | null>;
  };
  await waitFor('the Git extension to initialise', () => api.state === 'initialized', 30_000);
  const repository = await waitFor(
    'the repository',
    async () => (await api.openRepository(vscode.Uri.file(folder))) ?? undefined,
    30_000,
  );
  await repository.status();
  return repository;
}
