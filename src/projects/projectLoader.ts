// The project commands (Show the Project's Tasks, Create Project for This Repository, New Task in
// Project...) are registered at activation, but what they run (projectCommands.ts with what only
// it uses) loads at the first of them. In the bundle, esbuild.js (LAZY_FILES) resolves the require
// below to a guard that loads dist/projects.js, a bundle that takes every module it shares with
// extension.js from extension.js's `__shared` (one class, one singleton); under tsc it is the
// plain module.
import * as vscode from 'vscode';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { Commands } from '../common/ids';
import type * as ProjectCommands from './projectCommands';
import type { ClonePosition, ProjectTasksView } from './projectCommands';

let loaded: typeof ProjectCommands | undefined;

function projectCommands(): typeof ProjectCommands {
  // Synchronous on purpose: the file is local, and the command then runs as it did before (a
  // missing file throws into the command's guard, which shows its "Reinstall the extension").
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./projectCommands') as typeof ProjectCommands;
  return loaded;
}

export function registerProjectCommands(deps: CommandDeps, tasksView: ProjectTasksView): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(
      Commands.toggleProjectTasks,
      deps.guard("Show the project's tasks", (arg?: unknown) =>
        projectCommands().toggleProjectTasks(deps, tasksView, arg),
      ),
    ),
    vscode.commands.registerCommand(
      Commands.createProjectForRepository,
      deps.guard('Create project for this repository', (arg?: unknown) =>
        projectCommands().createProjectFlow(deps, arg),
      ),
    ),
    vscode.commands.registerCommand(
      Commands.newTaskInProject,
      deps.guard('New task in project', (arg?: unknown) => projectCommands().newTaskFlow(deps, arg)),
    ),
  ];
}

/**
 * Where the workspace's clone of a project stands against a run's base commit, for "Ask the Agent
 * to Update Its Changes..." (src/reviewTalk/catchUp.ts reaches it through extension.ts).
 */
export function clonePositions(
  deps: CommandDeps,
): (projectId: string, baseCommit: string) => Promise<ClonePosition | string> {
  return (projectId, baseCommit) => projectCommands().clonePosition(deps, projectId, baseCommit);
}
