// "Apply to a New Branch..." on a project run: its patch artifact (text/x-diff
// with base_commit) becomes a branch at base_commit with the patch applied, left uncommitted.
// Before anything is written, one modal lists every file that will change and every one that
// will not (and why); refused paths and binary parts are never written.
import * as vscode from 'vscode';
import type { ArtifactRecord } from '../api/types';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { resolveRun } from '../commandSupport/runArgs';
import { withAbortSignal } from '../common/abortOn';
import { askModal, notify } from '../common/notify';
import { isSingular } from '../common/vscodeTranslate';
import { applyOnNewBranch, prepareBranchApply } from './branchApply';
import { gitAccess, repositoryFor } from './gitAccess';
import { settleWithin } from './gitExec';
import { isProjectPatch, MAX_BASE_FILE_BYTES as MAX_PATCH_BYTES } from './patchAtBase';

// Review Changes (src/reviewUi/projectReview.ts) finds the clone through here.
export { repositoryFor };

/** How long the Git extension's refresh after the apply is waited for. */
const STATUS_TIMEOUT_MS = 30_000;

interface BranchAutomation {
  runId?: string;
  folder?: string;
  branch?: string;
  artifactId?: string;
}

export async function applyToNewBranch(
  deps: CommandDeps,
  arg: unknown,
): Promise<{ branch: string; written: string[] } | undefined> {
  if (!(await deps.ensureSignedIn())) {
    return undefined;
  }
  const automation: BranchAutomation = deps.trustedAutomation && typeof arg === 'object' && arg !== null ? arg : {};
  const target = resolveRun(automation.runId ?? arg, {
    selection: deps.selection('tasks'),
    activePanel: deps.activeRunPanel,
  });
  if (!target) {
    throw new UserFacingError(vscode.l10n.t('Choose a run of a project task.'));
  }
  const client = deps.service.client;
  const run = await client.getRun(target.runId);
  const task = typeof run.task_id === 'string' ? await client.getTask(run.task_id) : undefined;
  const projectId = task?.project_id;
  if (typeof projectId !== 'string') {
    throw new UserFacingError(vscode.l10n.t("This run's task is not in a project; use Review Changes for its files."));
  }
  const patches: ArtifactRecord[] = [];
  for await (const artifact of client.iterateRunArtifacts(target.runId, { limit: 100 })) {
    if (isProjectPatch(artifact)) {
      patches.push(artifact);
    }
  }
  let artifact = patches.find((a) => a.id === automation.artifactId) ?? (patches.length === 1 ? patches[0] : undefined);
  if (patches.length === 0) {
    throw new UserFacingError(vscode.l10n.t('This run produced no patch for its repository.'));
  }
  if (!artifact) {
    const picked = await vscode.window.showQuickPick(
      patches.map((a) => ({ label: a.name ?? a.id, description: a.base_commit?.slice(0, 7), artifact: a })),
      {
        placeHolder: vscode.l10n.t('Which patch?'),
      },
    );
    artifact = picked?.artifact;
    if (!artifact) {
      return undefined;
    }
  }
  const baseCommit = artifact.base_commit as string;
  const access = await gitAccess();
  if (!access.ok) {
    throw new UserFacingError(access.message);
  }
  const project = await client.getProject(projectId);
  const repository = repositoryFor(access.api, project, automation.folder);
  if (!repository) {
    throw new UserFacingError(
      vscode.l10n.t('No folder of this workspace is a clone of the project "{0}".', project.name ?? project.id),
    );
  }
  const root = repository.rootUri.fsPath;
  const gitPath = access.api.git.path;
  const text = Buffer.from(
    (await client.readFileContent(artifact.file_id ?? artifact.id, { maxBytes: MAX_PATCH_BYTES })).content,
  ).toString('utf8');
  const prepared = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Reading the patch at {0}...', baseCommit.slice(0, 7)),
      cancellable: true,
    },
    (_progress, token) =>
      withAbortSignal(token, (signal) =>
        prepareBranchApply(gitPath, root, text, baseCommit, vscode.l10n.t, { signal }),
      ),
  );
  if (!prepared.ok) {
    throw new UserFacingError(prepared.message);
  }
  const { plan } = prepared;
  const notApplied = [
    ...plan.failed.map((f) => f.message),
    ...plan.refused.map((f) => f.message),
    ...plan.binary.map((name) => vscode.l10n.t('{0} is a binary change; it is not applied.', name)),
  ];
  if (plan.files.length === 0) {
    void notify.warn(vscode.l10n.t('Nothing of the patch can be applied: {0}', notApplied.slice(0, 3).join(' ')));
    return undefined;
  }
  const branch =
    automation.branch ??
    (await vscode.window.showInputBox({
      prompt: vscode.l10n.t(
        'The new branch (it starts at {0}, the commit the agent worked on)',
        baseCommit.slice(0, 7),
      ),
      value: `agent/${target.runId.replace(/^run_/, '').slice(0, 8)}`,
      validateInput: (value) =>
        value.trim() === '' || /\s/.test(value) ? vscode.l10n.t('A branch name without spaces.') : undefined,
    }));
  if (branch === undefined) {
    return undefined;
  }
  if (!automation.branch) {
    const go = vscode.l10n.t('Create Branch and Apply');
    const lines = [
      ...plan.files.map((f) => (f.created ? vscode.l10n.t('{0} (new)', f.path) : f.path)),
      ...(notApplied.length > 0 ? ['', vscode.l10n.t('Not applied:'), ...notApplied] : []),
    ];
    const message = isSingular(plan.files.length)
      ? vscode.l10n.t(
          "Create the branch {0} at {1} and write one file of the agent's patch? Nothing is committed.",
          branch,
          baseCommit.slice(0, 7),
        )
      : vscode.l10n.t(
          "Create the branch {0} at {1} and write {2} files of the agent's patch? Nothing is committed.",
          branch,
          baseCommit.slice(0, 7),
          plan.files.length,
        );
    // Every file: what the dialog cannot hold, its Show All lists before the button is offered.
    if ((await askModal('info', message, lines, go)) !== go) {
      return undefined;
    }
  }
  const applied = await applyOnNewBranch(gitPath, root, branch.trim(), plan, vscode.l10n.t);
  if (!applied.ok) {
    throw new UserFacingError(applied.message);
  }
  // Only a refresh of the Git extension's view: waited for at most a bound, its failure only logged.
  const refreshed = await settleWithin(repository.status(), STATUS_TIMEOUT_MS).catch(() => undefined);
  if (refreshed?.kind !== 'done') {
    deps.log.warn(`The Git extension did not refresh ${root} within ${STATUS_TIMEOUT_MS / 1000} s; its view may lag.`);
  }
  deps.log.info(
    `Applied ${artifact.id} of ${target.runId} on the new branch (${applied.written.length} file(s), ${notApplied.length + applied.refused.length} not applied)`,
  );
  const left = notApplied.length + applied.refused.length;
  const created = isSingular(applied.written.length)
    ? vscode.l10n.t('Branch {0} created with one changed file, not committed.', applied.branch)
    : vscode.l10n.t(
        'Branch {0} created with {1} changed files, not committed.',
        applied.branch,
        applied.written.length,
      );
  const skipped = isSingular(left)
    ? vscode.l10n.t('One part of the patch was not applied (see the log).')
    : vscode.l10n.t('{0} parts of the patch were not applied (see the log).', left);
  void notify.info(left > 0 ? `${created} ${skipped}` : created);
  for (const line of [...notApplied, ...applied.refused.map((r) => r.message)]) {
    deps.log.info(`Not applied: ${line}`);
  }
  return { branch: applied.branch, written: applied.written };
}
