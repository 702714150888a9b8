// Projects in VS Code: each workspace folder that is a git repository is bound to the
// service's project of its remote; "Create Project for This Repository" and "New Task in
// Project..." (palette, Source Control title, Explorer folder). A project task carries
// project_id and context {ref, commit} from the branch and HEAD; uncommitted changes travel as
// one patch, listed file by file before anything is sent. A commit the service cannot see gets
// the choice to push (the Git extension's repository.push()) or to use the upstream commit.
// Loaded at the first of these commands: they are registered at activation by projectLoader.ts,
// and in the bundle this file is dist/projects.js (esbuild.js LAZY_FILES).
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import { ProjectErrors } from '../api/projects';
import type { ProjectRecord, TaskRecord } from '../api/types';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { describeErrorForUser } from '../commandSupport/errorText';
import { withAbortSignal } from '../common/abortOn';
import { Commands } from '../common/ids';
import { askModal, notify } from '../common/notify';
import { isSingular } from '../common/vscodeTranslate';
import { gitAccess, type RepoRemote, repositoryFor, usableRemotes } from './gitAccess';
import { gitStoppedMessage, runGit, settleWithin } from './gitExec';
import type { GitAPI, GitRepository } from './gitTypes';
import { announceProjectTask, findProject, type ProjectTasksView, reportProjectsUnsupported } from './projectLookup';
import { createProjectFor, createProjectRequest } from './projectRequests';
import {
  currentBranch,
  GitCommandError,
  MAX_LISTED_FILES,
  resolveCommit,
  uncommittedFiles,
  uncommittedPatch,
  type WorkingTreeOptions,
} from './workingTree';

/** The language of a stopped git command's sentence (each command keeps gitExec's time bound). */
const gitOptions: WorkingTreeOptions = { t: vscode.l10n.t };
/** How long a push through the Git extension is waited for (a person may be typing credentials). */
const PUSH_TIMEOUT_MS = 5 * 60_000;

/** For a read whose failure has its own sentence: a git that was stopped is said as such instead. */
function unlessStopped(err: unknown): undefined {
  if (err instanceof GitCommandError && err.stopped) {
    throw new UserFacingError(err.message);
  }
  return undefined;
}

/** What the extension-host tests pass instead of answering prompts (trustedAutomation only). */
export interface ProjectAutomation {
  folder?: string;
  remote?: string;
  name?: string;
  objective?: string;
  /** Tracked files to include in the patch (default: all); untracked ones to add. */
  tracked?: string[];
  untracked?: string[];
  /** On unknown_commit: 'push' or 'upstream' (default: stop). */
  onUnknownCommit?: 'push' | 'upstream';
}

interface Bound {
  folder: vscode.Uri;
  repository: GitRepository;
  git: GitAPI;
  remotes: RepoRemote[];
}

function automationOf(deps: CommandDeps, arg: unknown): ProjectAutomation {
  if (!deps.trustedAutomation || typeof arg !== 'object' || arg === null || arg instanceof vscode.Uri) {
    return {};
  }
  return arg;
}

/** The folder a command was invoked on: an Explorer folder (Uri), an SCM title (rootUri), else asked. */
async function folderOf(arg: unknown, automation: ProjectAutomation, git: GitAPI): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri) {
    return arg;
  }
  if (automation.folder) {
    return vscode.Uri.file(automation.folder);
  }
  const root = (arg as { rootUri?: unknown } | undefined)?.rootUri;
  if (root instanceof vscode.Uri) {
    return root;
  }
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => git.getRepository(f.uri));
  if (folders.length === 0) {
    throw new UserFacingError(vscode.l10n.t('No folder of this workspace is a git repository.'));
  }
  if (folders.length === 1) {
    return folders[0].uri;
  }
  const picked = await vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('Which repository?') });
  return picked?.uri;
}

async function bind(arg: unknown, automation: ProjectAutomation): Promise<Bound | undefined> {
  const access = await gitAccess();
  if (!access.ok) {
    throw new UserFacingError(access.message);
  }
  const folder = await folderOf(arg, automation, access.api);
  if (!folder) {
    return undefined;
  }
  const repository = access.api.getRepository(folder);
  if (!repository) {
    throw new UserFacingError(
      vscode.l10n.t('{0} is not in a git repository.', vscode.workspace.asRelativePath(folder, true)),
    );
  }
  return { folder, repository, git: access.api, remotes: usableRemotes(repository) };
}

/** The service's project of one of the repository's remotes (origin first). */
function projectOf(deps: CommandDeps, bound: Bound): Promise<ProjectRecord | undefined> {
  return findProject(
    deps,
    bound.remotes.map((r) => r.url),
  );
}

/** projectOf, with a server without projects reported once ('unsupported'). */
async function projectOrReport(deps: CommandDeps, bound: Bound): Promise<ProjectRecord | undefined | 'unsupported'> {
  try {
    return await projectOf(deps, bound);
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
  if (bound.remotes.length === 0) {
    throw new UserFacingError(
      vscode.l10n.t(
        'This repository has no remote the service could clone. Add one (git remote add origin <url>) and push first.',
      ),
    );
  }
  try {
    const existing = await projectOf(deps, bound);
    if (existing) {
      void notify.info(vscode.l10n.t('This repository already has the project "{0}".', existing.name ?? existing.id));
      return existing;
    }
    let remote =
      bound.remotes.find((r) => r.name === automation.remote) ??
      (bound.remotes.length === 1 ? bound.remotes[0] : undefined);
    if (!remote) {
      const picked = await vscode.window.showQuickPick(
        bound.remotes.map((r) => ({ label: r.name, description: r.url, remote: r })),
        { placeHolder: vscode.l10n.t('Which remote is the repository the service works on?') },
      );
      remote = picked?.remote;
    }
    if (!remote) {
      return undefined;
    }
    const suggested = createProjectRequest(remote.url)?.name;
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
    const request = createProjectRequest(remote.url, name);
    if (!request) {
      throw new UserFacingError(vscode.l10n.t('The remote {0} is not a clone URL the service could use.', remote.url));
    }
    const created = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Creating the project...') },
      () => createProjectFor(deps.service.client, request),
    );
    deps.log.info(
      `Project ${created.project.id} ${created.existed ? 'already existed' : 'created'} for remote ${remote.name}`,
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

export interface PatchChoice {
  text: string;
  files: string[];
}

/** Lists the uncommitted files against `commit`, lets the user tick them, and builds one patch. */
async function choosePatch(
  bound: Bound,
  commit: string,
  automation: ProjectAutomation,
  interactive: boolean,
): Promise<PatchChoice | undefined | 'cancelled'> {
  const gitPath = bound.git.git.path;
  const root = bound.repository.rootUri.fsPath;
  const files = await uncommittedFiles(gitPath, root, commit, gitOptions);
  if (files.tracked.length === 0 && files.untracked.length === 0) {
    return undefined;
  }
  // Only what the person can see and tick is sent: past the list's bound, nothing is.
  if (files.trackedCut) {
    throw new UserFacingError(
      vscode.l10n.t(
        'More than {0} tracked files have uncommitted changes, too many to list, so none is sent. Commit or stash some of them, then try again.',
        MAX_LISTED_FILES,
      ),
    );
  }
  let tracked: string[];
  let untracked: string[];
  if (!interactive) {
    tracked = automation.tracked ?? files.tracked;
    untracked = automation.untracked ?? [];
  } else {
    const items = [
      ...files.tracked.map((file) => ({
        label: file,
        description: vscode.l10n.t('changed'),
        picked: true,
        file,
        untracked: false,
      })),
      ...files.untracked.map((file) => ({
        label: file,
        description: vscode.l10n.t('untracked'),
        picked: false,
        file,
        untracked: true,
      })),
    ];
    const picked = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      title: vscode.l10n.t('Uncommitted changes: tick the files to send as one patch with the task'),
      placeHolder: files.cut
        ? vscode.l10n.t('Only the first {0} files are listed.', items.length)
        : vscode.l10n.t('Untracked files are sent only when ticked.'),
    });
    if (picked === undefined) {
      return 'cancelled';
    }
    tracked = picked.filter((p) => !p.untracked).map((p) => p.file);
    untracked = picked.filter((p) => p.untracked).map((p) => p.file);
  }
  if (tracked.length === 0 && untracked.length === 0) {
    return undefined;
  }
  // "Every tracked change" only when every one was listed and ticked; else exactly the ticked ones.
  const allTracked = !files.trackedCut && tracked.length === files.tracked.length;
  const text = await uncommittedPatch(gitPath, root, commit, untracked, allTracked ? undefined : tracked, gitOptions);
  if (text === '') {
    return undefined;
  }
  return { text, files: [...tracked, ...untracked] };
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
  // From git itself: the Git extension's state may not have caught up with a commit just made.
  const gitPath = bound.git.git.path;
  const root = bound.repository.rootUri.fsPath;
  let commit = await resolveCommit(gitPath, root, 'HEAD', gitOptions).catch(unlessStopped);
  if (!commit) {
    throw new UserFacingError(vscode.l10n.t('This repository has no commit yet; commit and push first.'));
  }
  const ref =
    (await currentBranch(gitPath, root, gitOptions).catch(unlessStopped)) ?? bound.repository.state.HEAD?.name;
  const objective =
    automation.objective ??
    (await vscode.window.showInputBox({
      prompt: vscode.l10n.t('What should the agent do in {0}?', project.name ?? project.id),
      validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('Describe the task.') : undefined),
    }));
  if (objective === undefined || objective.trim() === '') {
    return undefined;
  }
  const cap = await deps.budgets.choose('person');
  if (cap.refused !== undefined) {
    return undefined;
  }

  /** The patch already uploaded (a retry after a push sends the same one again only by id). */
  let uploaded: { text: string; fileId: string } | undefined;
  for (;;) {
    const patch = await choosePatch(bound, commit, automation, interactive);
    if (patch === 'cancelled') {
      return undefined;
    }
    const short = commit.slice(0, 7);
    if (interactive) {
      const go = vscode.l10n.t('Create Task');
      const message = patch
        ? isSingular(patch.files.length)
          ? vscode.l10n.t(
              'Create the task in "{0}" at {1}{2}, with a patch of this uncommitted file?',
              project.name ?? project.id,
              short,
              ref ? ` (${ref})` : '',
            )
          : vscode.l10n.t(
              'Create the task in "{0}" at {1}{2}, with a patch of these {3} uncommitted files?',
              project.name ?? project.id,
              short,
              ref ? ` (${ref})` : '',
              patch.files.length,
            )
        : vscode.l10n.t(
            'Create the task in "{0}" at {1}{2}?',
            project.name ?? project.id,
            short,
            ref ? ` (${ref})` : '',
          );
      if ((await askModal('info', message, patch?.files ?? [], go)) !== go) {
        return undefined;
      }
    }
    const attachments = [];
    if (patch) {
      if (uploaded?.text !== patch.text) {
        const file = await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: vscode.l10n.t('Uploading the uncommitted changes...'),
          },
          () =>
            deps.service.client.uploadBytes(Buffer.from(patch.text, 'utf8'), {
              filename: 'uncommitted.diff',
              contentType: 'text/x-diff',
              purpose: 'task_input',
            }),
        );
        uploaded = { text: patch.text, fileId: file.id };
      }
      attachments.push({ type: 'document' as const, fileId: uploaded.fileId });
    }
    const request = {
      objective,
      project_id: project.id,
      context: { ...(ref ? { ref } : {}), commit },
      attachments,
      ...(cap.budget ? { budget: cap.budget } : {}),
    };
    try {
      const task = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Creating the task...') },
        () => deps.service.client.createTask(request, { idempotencyKey: randomUUID() }),
      );
      deps.log.info(
        `Created ${task.id} in ${project.id} at ${commit}${patch ? ` with a patch of ${patch.files.length} file(s)` : ''}`,
      );
      deps.budgets.noteStarted(cap, task, typeof task.run_id === 'string' ? task.run_id : undefined, objective);
      announceProjectTask(deps, task, objective);
      return task;
    } catch (err) {
      if (!isApiError(err) || err.code !== ProjectErrors.unknownCommit) {
        if (reportProjectsUnsupported(err)) {
          return undefined;
        }
        throw err;
      }
      deps.log.warn(`The service cannot see ${commit}: ${describeError(err)}`);
      const next = await onUnknownCommit(bound, commit, automation, interactive);
      if (!next) {
        return undefined;
      }
      commit = next;
    }
  }
}

/** Push (then the same commit) or the upstream's commit (the patch is then made against it). */
async function onUnknownCommit(
  bound: Bound,
  commit: string,
  automation: ProjectAutomation,
  interactive: boolean,
): Promise<string | undefined> {
  const head = bound.repository.state.HEAD;
  const upstream = head?.upstream?.commit;
  const push = vscode.l10n.t('Push and Retry');
  const useUpstream = vscode.l10n.t('Use the Upstream Commit');
  const actions = [...(head?.name ? [push] : []), ...(upstream && upstream !== commit ? [useUpstream] : [])];
  const choice = interactive
    ? await notify.warn(
        vscode.l10n.t(
          'The service cannot see commit {0}: it is probably not pushed yet. Push it, or use the upstream commit (your local commits then travel in the patch).',
          commit.slice(0, 7),
        ),
        ...actions,
      )
    : automation.onUnknownCommit === 'push'
      ? push
      : automation.onUnknownCommit === 'upstream'
        ? useUpstream
        : undefined;
  if (choice === push && head?.name) {
    let pushed;
    try {
      // The Git extension's push cannot be killed from here: the wait for it is bounded instead.
      pushed = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Pushing {0}...', head.name),
          cancellable: true,
        },
        (_progress, token) =>
          withAbortSignal(token, (signal) =>
            settleWithin(
              head.upstream
                ? bound.repository.push()
                : bound.repository.push(usableRemotes(bound.repository)[0]?.name, head.name, true),
              PUSH_TIMEOUT_MS,
              signal,
            ),
          ),
      );
    } catch (err) {
      void notify.error(vscode.l10n.t('The push failed: {0}', describeErrorForUser(err)));
      return undefined;
    }
    if (pushed.kind !== 'done') {
      void notify.warn(
        pushed.kind === 'timedOut'
          ? vscode.l10n.t(
              "The push of {0} did not finish within {1} minutes, so no task was created. VS Code's Git may still be pushing: see Git in the Output view, then try again.",
              head.name,
              PUSH_TIMEOUT_MS / 60_000,
            )
          : vscode.l10n.t(
              "Stopped waiting for the push of {0}, so no task was created. VS Code's Git may still finish it: see Git in the Output view, then try again.",
              head.name,
            ),
      );
      return undefined;
    }
    return commit;
  }
  if (choice === useUpstream && upstream) {
    return upstream;
  }
  return undefined;
}

/** Commits of base..HEAD read at most (one more than listed, so a longer list is said to be cut). */
const MAX_READ_COMMITS = 51;

/** Where the workspace's clone of a project stands against a run's base commit (src/reviewTalk/catchUp.ts). */
export interface ClonePosition {
  /** The clone's folder, as the person knows it. */
  folder: string;
  head: string;
  ref?: string;
  baseKnown: boolean;
  /** base..HEAD, newest first, at most 51. */
  commits: { sha: string; subject: string }[];
  /** The uncommitted work against HEAD, ticked by the person as for New Task in Project. */
  choosePatch(automation: ProjectAutomation, interactive: boolean): Promise<PatchChoice | undefined | 'cancelled'>;
}

/**
 * The workspace's clone of the project, its HEAD and the commits after `baseCommit`, read from git
 * itself. A sentence (a string) when there is no git, no clone or no commit.
 */
export async function clonePosition(
  deps: CommandDeps,
  projectId: string,
  baseCommit: string,
): Promise<ClonePosition | string> {
  const access = await gitAccess();
  if (!access.ok) {
    return access.message;
  }
  const project = await deps.service.client.getProject(projectId);
  const repository = repositoryFor(access.api, project, undefined);
  if (!repository) {
    return vscode.l10n.t('No folder of this workspace is a clone of the project "{0}".', project.name ?? project.id);
  }
  const gitPath = access.api.git.path;
  const root = repository.rootUri.fsPath;
  const head = await resolveCommit(gitPath, root, 'HEAD', gitOptions).catch(unlessStopped);
  if (!head) {
    return vscode.l10n.t('This repository has no commit yet; commit and push first.');
  }
  const ref = (await currentBranch(gitPath, root, gitOptions).catch(unlessStopped)) ?? repository.state.HEAD?.name;
  const knownArgs = ['cat-file', '-e', `${baseCommit}^{commit}`];
  const known = await runGit(gitPath, root, knownArgs, { maxBuffer: 1024 });
  const knownStopped = gitStoppedMessage(known, knownArgs, {}, vscode.l10n.t);
  if (knownStopped) {
    throw new UserFacingError(knownStopped);
  }
  let commits: { sha: string; subject: string }[] = [];
  if (known.code === 0) {
    const logArgs = ['log', `--max-count=${MAX_READ_COMMITS}`, '--format=%H%x1f%s', `${baseCommit}..${head}`];
    const log = await runGit(gitPath, root, logArgs, { maxBuffer: 1024 * 1024 });
    const logStopped = gitStoppedMessage(log, logArgs, {}, vscode.l10n.t);
    if (logStopped) {
      throw new UserFacingError(logStopped);
    }
    if (log.code !== 0) {
      throw new UserFacingError(
        vscode.l10n.t('git could not list the commits since {0}: {1}', baseCommit.slice(0, 7), log.err),
      );
    }
    commits = log.out
      .toString('utf8')
      .split('\n')
      .filter((line) => line.includes('\x1f'))
      .map((line) => {
        const [sha, subject] = line.split('\x1f');
        return { sha, subject: subject ?? '' };
      });
  }
  const bound: Bound = { folder: repository.rootUri, repository, git: access.api, remotes: usableRemotes(repository) };
  return {
    folder: vscode.workspace.asRelativePath(repository.rootUri, true),
    head,
    ...(ref ? { ref } : {}),
    baseKnown: known.code === 0,
    commits,
    choosePatch: (automation, interactive) => choosePatch(bound, head, automation, interactive),
  };
}

export type { ProjectTasksView } from './projectLookup';

/**
 * Shows only the current folder's project's tasks in the Tasks view, or all tasks again. The
 * current folder: the active editor's, else the one folder that is a repository (else asked).
 */
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
  const automation = automationOf(deps, arg);
  const active = vscode.window.activeTextEditor?.document.uri;
  const activeFolder = active ? vscode.workspace.getWorkspaceFolder(active)?.uri : undefined;
  const bound = await bind(arg instanceof vscode.Uri || automation.folder ? arg : activeFolder, automation);
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
      : vscode.workspace.asRelativePath(bound.repository.rootUri, true);
  const scope = { id: project.id, label };
  view.setProjectScope(scope);
  return scope;
}
