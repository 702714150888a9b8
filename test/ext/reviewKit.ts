// What the review and follow-up suites in the extension host share: the workspace folder, files of
// numbered lines, a run waited to its end, the agent's revision of an upload, and a project
// repository (a bare "service" repository and its clone in the workspace) for a suite.
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import type { TaskRecord } from '../../src/api/types';
import type { AgentRuntimeExtensionApi } from '../../src/extension';
import { decodeText } from '../../src/review';
import type { StoredComment } from '../../src/reviewTalk/commentDrafts';
import type { SendResult } from '../../src/reviewTalk/sendComments';
import { isTerminalStatus } from '../../src/runEvents/runStatus';
import { gitIn } from '../unit/projects/gitRepoKit';
import { waitFor } from './support';

/** `n` lines `<tag> line 1`, `<tag> line 2`..., each ended by a newline. */
export const lines = (n: number, tag: string): string =>
  Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join('\n') + '\n';

/** The window's first workspace folder (the runner always opens one). */
export function workspaceFolder(): vscode.Uri {
  const first = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(first, 'no workspace folder');
  return first;
}

/** Waits until the run has ended, whichever way. */
export async function untilRunEnds(client: ApiClient, runId: string, what = 'the run', ms = 30_000): Promise<void> {
  await waitFor(`${what} to end`, async () => isTerminalStatus((await client.getRun(runId)).status), ms);
}

/** The agent's revision of an upload, as text. */
export async function revisionOf(client: ApiClient, runId: string, fileId: string): Promise<string> {
  for await (const artifact of client.iterateRunArtifacts(runId)) {
    if (artifact.source_file_id === fileId) {
      const decoded = decodeText((await client.readFileContent(artifact.file_id ?? artifact.id)).content);
      assert.ok(decoded.ok);
      return decoded.value.text;
    }
  }
  throw new Error(`the run made no revision of ${fileId}`);
}

/** Uploads `files` and creates a task on them; waits for its run to end. Its file ids by name. */
export async function uploadAndRun(
  files: vscode.Uri[],
  objective: string,
  client: ApiClient,
): Promise<{ runId: string; fileIds: Map<string, string> }> {
  const task = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.uploadAndCreateTask', files[0], files, {
    objective,
  });
  assert.ok(task?.run_id, `no run: ${JSON.stringify(task)}`);
  const runId = task.run_id;
  await untilRunEnds(client, runId, 'the run', 25_000);
  const fileIds = new Map<string, string>();
  for (const att of task.attachments ?? []) {
    fileIds.set((await client.getFile(att.fileId)).filename ?? '', att.fileId);
  }
  return { runId, fileIds };
}

/**
 * Sends the run's review comments (no questions asked) and waits until each of `comments`' threads
 * says what became of it.
 */
export async function sendAndJudge(
  talk: AgentRuntimeExtensionApi['reviewTalk'],
  runId: string,
  comments: readonly StoredComment[],
  ms: number,
): Promise<SendResult> {
  const sent = await vscode.commands.executeCommand<SendResult>('agentRuntime.sendReviewComments', {
    runId,
    instructions: '',
    confirm: false,
  });
  assert.ok(sent, 'nothing was sent');
  await waitFor(
    'each thread to say what became of it',
    () => comments.every((c) => talk.threads.threadOf(c.id)?.contextValue === 'judged'),
    ms,
  );
  return sent;
}

export interface SuiteRepository {
  /** The bare repository the reference runtime checks the project out from. */
  service: string;
  /** Its clone inside the workspace folder. */
  local: string;
  /** git in the clone, as a test user. */
  git: (...args: string[]) => string;
}

/**
 * A project repository for the suite (call inside `describe`; its fields are set before the
 * suite's tests): README.md (`readme`) committed on main in a clone inside the workspace folder and
 * pushed to a bare service repository; origin then fetches from
 * `https://example.com/team/<name>.git` (the project's URL) and pushes to the service. After: both
 * removed and the workspace's git.enabled cleared.
 */
export function suiteRepository(name: string, readme: string): SuiteRepository {
  const repository = {} as SuiteRepository;
  let root = '';
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), `ext-${name}-`));
    repository.service = path.join(root, 'service.git');
    repository.local = path.join(workspaceFolder().fsPath, `${name}-${Date.now()}`);
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', repository.service]);
    execFileSync('git', ['clone', '-q', repository.service, repository.local]);
    const git = gitIn(repository.local);
    repository.git = git;
    git('checkout', '-q', '-b', 'main');
    fs.writeFileSync(path.join(repository.local, 'README.md'), readme);
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    git('push', '-q', '-u', 'origin', 'main');
    git('remote', 'set-url', 'origin', `https://example.com/team/${name}.git`);
    git('remote', 'set-url', '--push', 'origin', repository.service);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('git').update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(repository.local, { recursive: true, force: true });
  });
  return repository;
}
