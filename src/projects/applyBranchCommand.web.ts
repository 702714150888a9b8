// The web bundle's twin of applyBranchCommand.ts: Apply to a New Branch makes a branch in a git
// clone and writes its files there, which VS Code for the Web cannot; the command says so in the
// one sentence of notInBrowser(), and no repository is ever found for a project here.
import * as vscode from 'vscode';
import type { ProjectRecord } from '../api/types';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { notInBrowser } from '../commandSupport/notInBrowser';
import type { GitAPI, GitRepository } from './gitTypes';

/** No git clone is open in a browser. */
export function repositoryFor(
  _git: GitAPI,
  _project: ProjectRecord,
  _folder: string | undefined,
): GitRepository | undefined {
  return undefined;
}

export async function applyToNewBranch(
  _deps: CommandDeps,
  _arg: unknown,
): Promise<{ branch: string; written: string[] } | undefined> {
  throw new UserFacingError(notInBrowser(vscode.l10n.t('Apply to a New Branch')));
}
