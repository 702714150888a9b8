// Creating a task for someone other than the Explorer's own commands: a language model tool (the
// person confirmed in VS Code's tool confirmation, which named the files and the service), the
// @agent-runtime chat participant (a person typed /task; the files they referenced are named in
// a modal before anything is sent) and the extension API (another extension asks: a modal names
// the objective, the files and the service, always). Both then take the upload flow a person's
// upload takes (save first, symbolic links, secrets, the archive question, retries, cleanup).
import * as vscode from 'vscode';
import type { TaskRecord } from '../api/types';
import type { BudgetRequester } from '../commandSupport/budgetChoice';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { askModal } from '../common/notify';
import { isSingular } from '../common/vscodeTranslate';
import { looksSecretFile } from '../upload/secretFiles';
import { createTaskWithAttachments } from './createTaskCommands';
import { uploadFlow } from './uploadCommands';

export type TaskRequester = 'chat' | 'extension';

export interface TaskRequests {
  /**
   * After a confirmation the person already gave (a tool's): the upload flow, then the task. The
   * run gets agentRuntime.budget.perRun and is refused past the monthly limit (budgetChoice.ts).
   */
  startConfirmed(
    objective: string,
    files: readonly vscode.Uri[],
    requester?: Exclude<BudgetRequester, 'person'>,
  ): Promise<TaskRecord | undefined>;
  /** Asks first where the requester needs it (chat with files; another extension always). */
  startAsked(
    objective: string,
    files: readonly vscode.Uri[],
    requester: TaskRequester,
  ): Promise<TaskRecord | undefined>;
  /**
   * In the extension-host test run only: the questions that would have been asked (VS Code
   * refuses modal dialogs in extension tests), each answered yes. Empty anywhere else.
   */
  readonly askedInTests: { message: string; detail: string[] }[];
}

export function createTaskRequests(deps: CommandDeps): TaskRequests {
  const askedInTests: { message: string; detail: string[] }[] = [];

  const startConfirmed = async (
    objective: string,
    files: readonly vscode.Uri[],
    requester: Exclude<BudgetRequester, 'person'> = 'tool',
  ): Promise<TaskRecord | undefined> => {
    if (!(await deps.ensureSignedIn())) {
      return undefined;
    }
    if (files.length === 0) {
      return createTaskWithAttachments(deps, objective, [], undefined, requester);
    }
    const made = await uploadFlow(deps, [...files], { createTask: true, objective, promptsSkipped: false, requester });
    return made && !Array.isArray(made) ? made : undefined;
  };

  const ask = async (requester: TaskRequester, objective: string, files: readonly vscode.Uri[]): Promise<boolean> => {
    const url = deps.service.serviceUrl;
    const message =
      requester === 'extension'
        ? vscode.l10n.t('Another extension asks to create an Agent Runtime task on {0}.', url)
        : isSingular(files.length)
          ? vscode.l10n.t('Upload 1 file to {0} for this task?', url)
          : vscode.l10n.t('Upload {0} files to {1} for this task?', files.length, url);
    const detail = [vscode.l10n.t('Objective: {0}', objective), ''];
    if (files.length === 0) {
      detail.push(vscode.l10n.t('No files are sent.'));
    } else {
      detail.push(vscode.l10n.t('Files sent:'));
      const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
      // Every file and the whole objective: askModal shows what a dialog cannot hold in Show All.
      for (const uri of files) {
        const name = vscode.workspace.asRelativePath(uri, multiRoot);
        // The upload flow then offers such a file unticked (src/upload/sentFilesPrompts.ts).
        detail.push(
          looksSecretFile(name, uri.path) ? vscode.l10n.t('{0} (looks like a secret; asked again)', name) : name,
        );
      }
    }
    if (deps.trustedAutomation) {
      askedInTests.push({ message, detail });
      return true;
    }
    const go = files.length > 0 ? vscode.l10n.t('Upload and Create Task') : vscode.l10n.t('Create Task');
    return (await askModal('warn', message, detail, go)) === go;
  };

  return {
    askedInTests,
    startConfirmed,
    startAsked: async (objective, files, requester) => {
      if (!(await deps.ensureSignedIn())) {
        return undefined;
      }
      // A person typing /task without files asked for exactly this; anything else is asked.
      if ((requester === 'extension' || files.length > 0) && !(await ask(requester, objective, files))) {
        return undefined;
      }
      return startConfirmed(objective, files, requester);
    },
  };
}
