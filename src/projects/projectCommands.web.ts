// The web bundle's twin of projectCommands.ts: projects in VS Code for the Web, where there is no
// git and no clone. A workspace folder opened from a GitHub repository
// (`vscode-vfs://github/owner/repo`, workspaceRepository.ts) is bound to the service's project of
// that repository's URL, by the same rule as a clone's remote (projectLookup.ts). New Task in
// Project sends the branch and commit the GitHub Repositories extension tells (browserRevision.ts);
// when nothing tells them, the branch is left to the service's default and the confirmation says
// so. Uncommitted edits are not sent from here (no patch). A workspace without such a folder gets
// one sentence; files, tasks, runs and Review Changes work without it.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { ProjectErrors } from '../api/projects';
import type { ProjectRecord, TaskRecord } from '../api/types';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { Commands } from '../common/ids';
import { askModal, notify } from '../common/notify';
import { browserRevision } from './browserRevision';
import { announceProjectTask, findProject, type ProjectTasksView, reportProjectsUnsupported } from './projectLookup';
import { createProjectFor, createProjectRequest } from './projectRequests';
import { repositoryOfFolder, type WorkspaceRepository } from './workspaceRepository';

/** What the extension-host tests pass instead of answering prompts (trustedAutomation only). */
export interface ProjectAutomation {
  /** A workspace folder's URI (a string, as the desktop's folder path). */
  folder?: string;
  remote?: string;
  name?: string;
  objective?: string;
  tracked?: string[];
  untracked?: string[];
  onUnknownCommit?: 'push' | 'upstream';
}

interface Bound {
  folder: vscode.Uri;
  repository: WorkspaceRepository;
}

function automationOf(deps: CommandDeps, arg: unknown): ProjectAutomation {
  if (!deps.trustedAutomation || typeof arg !== 'object' || arg === null || arg instanceof vscode.Uri) {
    return {};
  }
  return arg;
}

/** The one sentence of a workspace with no folder opened from a GitHub repository. */
function noRepository(): string {
  return vscode.l10n.t(
    'Projects in VS Code for the Web need a workspace opened from a GitHub repository (GitHub Repositories: vscode-vfs://github/owner/repo), and this workspace has none. Files, tasks, runs and Review Changes work without it.',
  );
}

/** The folder a command was invoked on (an Explorer folder), else the active editor's, else the only one, else asked. */
async function bind(arg: unknown, automation: ProjectAutomation): Promise<Bound | undefined> {
  const candidates = (vscode.workspace.workspaceFolders ?? [])
    .map((f) => ({ folder: f.uri, repository: repositoryOfFolder(f.uri) }))
    .filter((c): c is Bound => c.repository !== undefined);
  const given =
    arg instanceof vscode.Uri ? arg : automation.folder ? vscode.Uri.parse(automation.folder) : activeFolder();
  if (given) {
    const folder = vscode.workspace.getWorkspaceFolder(given)?.uri ?? given;
    const repository = repositoryOfFolder(folder);
    if (repository) {
      return { folder, repository };
    }
    if (arg instanceof vscode.Uri || automation.folder) {
      throw new UserFacingError(noRepository());
    }
  }
  if (candidates.length === 0) {
    throw new UserFacingError(noRepository());
  }
  if (candidates.length === 1) {
    return candidates[0];
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((c) => ({ label: `${c.repository.owner}/${c.repository.name}`, bound: c })),
    { placeHolder: vscode.l10n.t('Which repository?') },
  );
  return picked?.bound;
}

function activeFolder(): vscode.Uri | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  return active ? vscode.workspace.getWorkspaceFolder(active)?.uri : undefined;
}

async function projectOrReport(deps: CommandDeps, bound: Bound): Promise<ProjectRecord | undefined | 'unsupported'> {
  try {
    return await findProject(deps, [bound.repository.url]);
  } catch (err) {
    if (reportProjectsUnsupported(err)) {
      return 'unsupported';
    }
    throw err;
  }
}

export async function createProjectFlow(deps: CommandDeps, arg: unknown): Promise<ProjectRecord | undefined> {
  if (!(await deps.ensureSignedIn())) {
    return undefined;
  }
  const automation = automationOf(deps, arg);
  const bound = await bind(arg, automation);
  if (!bound) {
    return undefined;
  }
  try {
    const existing = await findProject(deps, [bound.repository.url]);
    if (existing) {
      void notify.info(vscode.l10n.t('This repository already has the project "{0}".', existing.name ?? existing.id));
      return existing;
    }
    const suggested = createProjectRequest(bound.repository.url)?.name;
    const name =
      automation.name ??
      (await vscode.window.showInputBox({
        prompt: vscode.l10n.t("The project's name"),
        value: suggested,
        validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('A project needs a name.') : undefined),
      }));
    if (name === undefined) {
      return undefined;
    }
    const request = createProjectRequest(bound.repository.url, name);
    if (!request) {
      throw new UserFacingError(
        vscode.l10n.t('The remote {0} is not a clone URL the service could use.', bound.repository.url),
      );
    }
    const created = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Creating the project...') },
      () => createProjectFor(deps.service.client, request),
    );
    deps.log.info(
      `Project ${created.project.id} ${created.existed ? 'already existed' : 'created'} for ${request.repository.url}`,
    );
    void notify.info(
      created.existed
        ? vscode.l10n.t('This repository already has the project "{0}".', created.project.name ?? created.project.id)
        : vscode.l10n.t('Project "{0}" created for this repository.', created.project.name ?? created.project.id),
    );
    return created.project;
  } catch (err) {
    if (reportProjectsUnsupported(err)) {
      return undefined;
    }
    throw err;
  }
}

export async function newTaskFlow(deps: CommandDeps, arg: unknown): Promise<TaskRecord | undefined> {
  if (!(await deps.ensureSignedIn())) {
    return undefined;
  }
  const automation = automationOf(deps, arg);
  const interactive = automation.objective === undefined;
  const bound = await bind(arg, automation);
  if (!bound) {
    return undefined;
  }
  const found = await projectOrReport(deps, bound);
  if (found === 'unsupported') {
    return undefined;
  }
  let project = found;
  if (!project) {
    const create = vscode.l10n.t('Create Project');
    const choice = interactive
      ? await notify.info(vscode.l10n.t('This repository has no project on the service yet.'), create)
      : undefined;
    if (choice !== create) {
      return undefined;
    }
    project = await createProjectFlow(deps, bound.folder);
    if (!project) {
      return undefined;
    }
  }
  const { ref, commit } = await browserRevision(bound.folder);
  const projectName = project.name ?? project.id;
  const objective =
    automation.objective ??
    (await vscode.window.showInputBox({
      prompt: vscode.l10n.t('What should the agent do in {0}?', projectName),
      validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('Describe the task.') : undefined),
    }));
  if (objective === undefined || objective.trim() === '') {
    return undefined;
  }
  const cap = await deps.budgets.choose('person');
  if (cap.refused !== undefined) {
    return undefined;
  }
  const unsent = vscode.l10n.t('Edits not yet committed in this workspace are not sent from the browser.');
  const where = commit
    ? vscode.l10n.t('Create the task in "{0}" at {1}{2}?', projectName, commit.slice(0, 7), ref ? ` (${ref})` : '')
    : vscode.l10n.t(
        'Create the task in "{0}" on the service\'s default branch? VS Code for the Web cannot tell this workspace\'s branch or commit (the GitHub Repositories extension did not say).',
        projectName,
      );
  deps.log.info(
    `New task in ${project.id} from ${bound.repository.url}: ${commit ? `at ${commit}${ref ? ` (${ref})` : ''}` : 'branch and commit unknown, the service default'}`,
  );
  if (interactive) {
    const go = vscode.l10n.t('Create Task');
    if ((await askModal('info', `${where} ${unsent}`, [], go)) !== go) {
      return undefined;
    }
  }
  const request = {
    objective,
    project_id: project.id,
    ...(commit || ref ? { context: { ...(ref ? { ref } : {}), ...(commit ? { commit } : {}) } } : {}),
    attachments: [],
    ...(cap.budget ? { budget: cap.budget } : {}),
  };
  try {
    const task = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Creating the task...') },
      () => deps.service.client.createTask(request, { idempotencyKey: globalThis.crypto.randomUUID() }),
    );
    deps.log.info(`Created ${task.id} in ${project.id}${commit ? ` at ${commit}` : ''}`);
    deps.budgets.noteStarted(cap, task, typeof task.run_id === 'string' ? task.run_id : undefined, objective);
    announceProjectTask(deps, task, objective);
    return task;
  } catch (err) {
    if (reportProjectsUnsupported(err)) {
      return undefined;
    }
    if (isApiError(err) && err.code === ProjectErrors.unknownCommit) {
      throw new UserFacingError(
        vscode.l10n.t(
          'The service cannot see the commit {0} of this workspace. Push it to the repository first, then try again.',
          (commit ?? '').slice(0, 7),
        ),
      );
    }
    throw err;
  }
}

export type { ProjectTasksView } from './projectLookup';

/** The desktop's uncommitted work as a patch (never made in a browser: no working tree here). */
export interface PatchChoice {
  text: string;
  files: string[];
}

/** Where the workspace's clone stands against a run's base commit (src/reviewTalk/catchUp.ts): no clone here. */
export interface ClonePosition {
  folder: string;
  head: string;
  ref?: string;
  baseKnown: boolean;
  commits: { sha: string; subject: string }[];
  choosePatch(automation: ProjectAutomation, interactive: boolean): Promise<PatchChoice | undefined | 'cancelled'>;
}

/** A browser has no clone to compare with a run's base commit: the one sentence saying so. */
export async function clonePosition(
  _deps: CommandDeps,
  _projectId: string,
  _baseCommit: string,
): Promise<ClonePosition | string> {
  return vscode.l10n.t(
    "VS Code for the Web has no git clone of the project to compare with the run's base commit: open the project in VS Code on the desktop.",
  );
}

/** Shows only this workspace's project's tasks in the Tasks view, or all tasks again. */
export async function toggleProjectTasks(
  deps: CommandDeps,
  view: ProjectTasksView,
  arg: unknown,
): Promise<{ id: string; label: string } | undefined> {
  if (view.projectScope) {
    view.setProjectScope(undefined);
    return undefined;
  }
  if (!(await deps.ensureSignedIn())) {
    return undefined;
  }
  const bound = await bind(arg, automationOf(deps, arg));
  if (!bound) {
    return undefined;
  }
  const project = await projectOrReport(deps, bound);
  if (project === 'unsupported') {
    return undefined;
  }
  if (!project) {
    const create = vscode.l10n.t('Create Project');
    void notify
      .info(vscode.l10n.t('This repository has no project on the service yet.'), create)
      .then((choice) =>
        choice === create
          ? vscode.commands.executeCommand(Commands.createProjectForRepository, bound.folder)
          : undefined,
      );
    return undefined;
  }
  const label =
    typeof project.name === 'string' && project.name.trim() !== ''
      ? project.name
      : `${bound.repository.owner}/${bound.repository.name}`;
  const scope = { id: project.id, label };
  view.setProjectScope(scope);
  return scope;
}
