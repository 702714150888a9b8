// The built-in Git extension, reached through its API (vscode.git, getAPI(1)): missing, turned
// off (git.enabled false) or without a git binary, the caller gets one clear sentence instead,
// and only the repository features step aside (files, tasks and runs work without git).
import * as vscode from 'vscode';
import type { ProjectRecord } from '../api/types';
import { settleWithin } from './gitExec';
import type { GitAPI, GitExtension, GitRepository } from './gitTypes';
import { repositoryName, sameRepository, withoutCredentials } from './repositoryUrl';

export type GitAccess = { ok: true; api: GitAPI } | { ok: false; message: string };

const GIT_EXTENSION_ID = 'vscode.git';
/** How long the Git extension may take to find its repositories (a bound, not a guess at timing). */
const INIT_TIMEOUT_MS = 15_000;
/** How long the Git extension may take to start. */
const ACTIVATE_TIMEOUT_MS = 30_000;

export async function gitAccess(): Promise<GitAccess> {
  const extension = vscode.extensions.getExtension<GitExtension>(GIT_EXTENSION_ID);
  const filesStillWork = vscode.l10n.t('Files, tasks and runs work without it.');
  if (!extension) {
    return {
      ok: false,
      message: `${vscode.l10n.t('The built-in Git extension is disabled or missing, so repositories cannot be used.')} ${filesStillWork}`,
    };
  }
  let exports: GitExtension;
  try {
    const started = extension.isActive
      ? { kind: 'done' as const, value: extension.exports }
      : await settleWithin(extension.activate(), ACTIVATE_TIMEOUT_MS);
    if (started.kind !== 'done') {
      return {
        ok: false,
        message: `${vscode.l10n.t('The built-in Git extension did not start within {0} seconds, so repositories cannot be used; reload the window, then try again.', ACTIVATE_TIMEOUT_MS / 1000)} ${filesStillWork}`,
      };
    }
    exports = started.value;
  } catch {
    return {
      ok: false,
      message: `${vscode.l10n.t('The built-in Git extension could not start, so repositories cannot be used.')} ${filesStillWork}`,
    };
  }
  if (!exports?.enabled) {
    return {
      ok: false,
      message: `${vscode.l10n.t('Git is turned off in VS Code (the setting git.enabled), so repositories cannot be used.')} ${filesStillWork}`,
    };
  }
  let api: GitAPI;
  try {
    api = exports.getAPI(1);
  } catch {
    return {
      ok: false,
      message: `${vscode.l10n.t('Git is not installed or VS Code cannot find it (the setting git.path), so repositories cannot be used.')} ${filesStillWork}`,
    };
  }
  if (api.state !== 'initialized') {
    await initialized(api);
  }
  return { ok: true, api };
}

function initialized(api: GitAPI): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, INIT_TIMEOUT_MS);
    const listener = api.onDidChangeState((state) => {
      if (state === 'initialized') {
        done();
      }
    });
    function done(): void {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    }
  });
}

export interface RepoRemote {
  name: string;
  /** Without credentials: the only form used from here on. */
  url: string;
}

/** Remotes with a clone URL the service could know, origin first; URLs without credentials. */
export function usableRemotes(repository: GitRepository): RepoRemote[] {
  const remotes: RepoRemote[] = [];
  for (const remote of repository.state.remotes ?? []) {
    const raw = remote.fetchUrl ?? remote.pushUrl;
    if (typeof raw !== 'string' || !repositoryName(raw)) {
      continue;
    }
    remotes.push({ name: remote.name, url: withoutCredentials(raw) });
  }
  return remotes.sort((a, b) => (a.name === 'origin' ? -1 : b.name === 'origin' ? 1 : a.name.localeCompare(b.name)));
}

/** The open repository that is a clone of the project (or the one in `folder`, when given). */
export function repositoryFor(
  git: GitAPI,
  project: ProjectRecord,
  folder: string | undefined,
): GitRepository | undefined {
  if (folder) {
    return git.getRepository(vscode.Uri.file(folder)) ?? undefined;
  }
  const url = project.repository?.url;
  if (typeof url !== 'string') {
    return undefined;
  }
  // Every repository the Git extension knows in this window: a folder's own, or one inside a folder.
  const known = [
    ...(vscode.workspace.workspaceFolders ?? []).map((f) => git.getRepository(f.uri)),
    ...git.repositories,
  ].filter((r): r is GitRepository => r !== null && vscode.workspace.getWorkspaceFolder(r.rootUri) !== undefined);
  for (const repository of known) {
    if (usableRemotes(repository).some((r) => sameRepository(r.url, url))) {
      return repository;
    }
  }
  return undefined;
}
