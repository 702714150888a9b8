// What the project commands share on the desktop (projectCommands.ts, git) and in the browser
// (projectCommands.web.ts, a GitHub Repositories workspace): the service's project of a
// repository URL by the one rule of repositoryUrl.ts, a server without projects said once, and
// the notice of a task created in a project.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import type { ProjectRecord, TaskRecord } from '../api/types';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { shortenText } from '../common/format';
import { Commands, ContextKeys } from '../common/ids';
import { notify } from '../common/notify';
import { setContextCommand } from '../common/setContext';
import { matchProject } from './repositoryUrl';

/** The Tasks view as the toggle sees it (src/views/tasksProvider.ts has it). */
export interface ProjectTasksView {
  readonly projectScope: { id: string; label: string } | undefined;
  setProjectScope(scope: { id: string; label: string } | undefined): void;
}

/** The server has no /v1/projects: say so once per call, and hide the project actions. */
export function reportProjectsUnsupported(err: unknown): boolean {
  if (!isApiError(err, 'not_supported')) {
    return false;
  }
  setContextCommand(ContextKeys.projectsUnsupported, true);
  void notify.warn(vscode.l10n.t('This server does not offer projects. Files, tasks and runs work as before.'));
  return true;
}

/** The service's project of the first of `urls` that has one (clone URLs without credentials). */
export async function findProject(deps: CommandDeps, urls: readonly string[]): Promise<ProjectRecord | undefined> {
  const projects: ProjectRecord[] = [];
  for await (const project of deps.service.client.iterateProjects({ limit: 100 })) {
    projects.push(project);
  }
  for (const url of urls) {
    const found = matchProject(url, projects);
    if (found) {
      return found;
    }
  }
  return undefined;
}

/** "Task created in the project" with Watch Run, and the task revealed in the Tasks view. */
export function announceProjectTask(deps: CommandDeps, task: TaskRecord, objective: string): void {
  const watch = vscode.l10n.t('Watch Run');
  const runId = typeof task.run_id === 'string' ? task.run_id : undefined;
  void notify
    .info(vscode.l10n.t('Task "{0}" created in the project.', shortenText(objective, 60)), ...(runId ? [watch] : []))
    .then((choice) => {
      if (choice === watch && runId) {
        void vscode.commands.executeCommand(Commands.watchRun, { runId, objective });
      }
    });
  void deps.tasks
    .followNewTask(task)
    .catch((err: unknown) => deps.log.warn(`Revealing ${task.id}: ${describeError(err)}`));
}
