// A project run's patch artifacts in Review Changes: each patch is planned at its
// base_commit in the workspace's clone of the project (src/projects/patchAtBase.ts, the one
// owner of `git show base_commit:path`) and joins the review as ordinary file changes, so the
// multi-file diff, the per-hunk choice, the one undoable edit and the three-way merge all work
// as for uploads. Without git, or without a clone open here, the patches are listed with why.
import * as vscode from 'vscode';
import type { ApiClient } from '../api/client';
import type { ArtifactRecord, TaskRecord } from '../api/types';
import { describeErrorForUser } from '../commandSupport/errorText';
import { inert } from '../common/inertText';
import { repositoryFor } from '../projects/applyBranchCommand';
import { gitAccess } from '../projects/gitAccess';
import { MAX_BASE_FILE_BYTES, planPatchAtBase, readAtCommit } from '../projects/patchAtBase';
import { projectChanges } from '../projects/projectChanges';
import { projectPatchesOf } from '../projects/projectPatch';
import type { FileChange, ReviewProblem } from '../review';
import { listRunOutputs, runTaskOf } from './runOutputs';

export interface ProjectReview {
  /** The artifacts handled here (the rest go to the upload review). */
  handled: Set<string>;
  files: FileChange[];
  problems: ReviewProblem[];
  /** The clone the patches were planned in (none: no git, no clone, or no patch). */
  clone?: { gitPath: string; root: string };
}

export async function reviewProjectPatches(
  client: ApiClient,
  task: TaskRecord | undefined,
  artifacts: readonly ArtifactRecord[],
  signal: AbortSignal,
): Promise<ProjectReview> {
  const patches = projectPatchesOf(task, artifacts);
  const out: ProjectReview = { handled: new Set(patches.map((a) => a.id)), files: [], problems: [] };
  if (patches.length === 0 || !task?.project_id) {
    return out;
  }
  const allFail = (message: string) => {
    for (const a of patches) {
      out.problems.push({ code: 'readFailed', artifactId: a.id, file: a.name, message });
    }
    return out;
  };
  const access = await gitAccess();
  if (!access.ok) {
    return allFail(access.message);
  }
  let project;
  try {
    project = await client.getProject(task.project_id, { signal });
  } catch (err) {
    signal.throwIfAborted();
    return allFail(vscode.l10n.t("The run's project could not be read: {0}", describeErrorForUser(err)));
  }
  const repository = repositoryFor(access.api, project, undefined);
  const folder = repository ? vscode.workspace.getWorkspaceFolder(repository.rootUri) : undefined;
  if (!repository || !folder) {
    return allFail(
      vscode.l10n.t('No folder of this workspace is a clone of the project "{0}".', inert(project.name ?? project.id)),
    );
  }
  out.clone = { gitPath: access.api.git.path, root: repository.rootUri.fsPath };
  const taken = new Set<string>();
  for (const artifact of patches) {
    let text: string;
    try {
      const read = await client.readFileContent(artifact.file_id ?? artifact.id, {
        signal,
        maxBytes: MAX_BASE_FILE_BYTES,
      });
      text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(read.content);
    } catch (err) {
      signal.throwIfAborted();
      out.problems.push({
        code: 'readFailed',
        artifactId: artifact.id,
        file: artifact.name,
        message: vscode.l10n.t(
          'Could not read {0}: {1}',
          inert(artifact.name ?? artifact.id),
          describeErrorForUser(err),
        ),
      });
      continue;
    }
    const planned = await planPatchAtBase(
      access.api.git.path,
      repository.rootUri.fsPath,
      text,
      artifact.base_commit as string,
      vscode.l10n.t,
      { signal },
    );
    signal.throwIfAborted();
    if (!planned.ok) {
      out.problems.push({
        code: 'patchUnparsable',
        artifactId: artifact.id,
        file: artifact.name,
        message: inert(planned.message),
      });
      continue;
    }
    const changes = projectChanges(
      planned.plan,
      { artifactId: artifact.id, artifactName: artifact.name },
      {
        workspaceFolder: folder.uri.toString(),
        uriOf: (path) => vscode.Uri.joinPath(repository.rootUri, ...path.split('/')).toString(),
      },
      vscode.l10n.t,
    );
    out.problems.push(...changes.problems);
    for (const change of changes.files) {
      if (taken.has(change.origin.uri)) {
        out.problems.push({
          code: 'duplicate',
          artifactId: artifact.id,
          file: change.origin.relativePath,
          message: inert(
            vscode.l10n.t(
              '{0} already has a new version from another patch; this one is left out.',
              change.origin.relativePath,
            ),
          ),
        });
        continue;
      }
      taken.add(change.origin.uri);
      out.files.push(change);
    }
  }
  return out;
}

/** A file of a project run's revision read to judge a comment at most (a larger one is not judged). */
export const MAX_REVISION_TEXT_BYTES = 10 * 1024 * 1024;

/**
 * What a project run left in each of `paths` (repository paths), as text, for judging review
 * comments: its patches planned at their base_commit in this workspace's clone, and a path its
 * patches leave alone read at that base_commit. Undefined when the run is no project run or has
 * no patch; a path missing from the map could not be read (gone, binary, too large, or no clone).
 */
export async function projectRevisionTexts(
  client: ApiClient,
  runId: string,
  paths: readonly string[],
  signal: AbortSignal,
): Promise<Map<string, string> | undefined> {
  const { task } = await runTaskOf(client, runId, signal);
  const { artifacts } = await listRunOutputs(client, runId, signal);
  if (projectPatchesOf(task, artifacts).length === 0) {
    return undefined;
  }
  const review = await reviewProjectPatches(client, task, artifacts, signal);
  const wanted = new Set(paths);
  const out = new Map<string, string>();
  const baseCommits = new Set<string>();
  for (const file of review.files) {
    if (file.origin.baseCommit !== undefined) {
      baseCommits.add(file.origin.baseCommit);
    }
    // A file a hunk of which did not apply is only partly the run's: not judged.
    const whole = !review.problems.some((p) => p.file === file.origin.relativePath);
    const text = whole && wanted.has(file.origin.relativePath) ? textOf(file.agentBytes) : undefined;
    if (text !== undefined) {
      out.set(file.origin.relativePath, text);
    }
  }
  // A path the patches do not edit is as the base commit has it (one base only: else unknown).
  const base = baseCommits.size === 1 ? [...baseCommits][0] : undefined;
  if (review.clone && base !== undefined) {
    for (const path of wanted) {
      signal.throwIfAborted();
      if (!out.has(path) && !review.problems.some((p) => p.file === path)) {
        const bytes = await readAtCommit(review.clone.gitPath, review.clone.root, base, path);
        const text = bytes && textOf(bytes);
        if (text !== undefined) {
          out.set(path, text);
        }
      }
    }
  }
  return out;
}

function textOf(bytes: Uint8Array): string | undefined {
  if (bytes.length > MAX_REVISION_TEXT_BYTES) {
    return undefined;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
