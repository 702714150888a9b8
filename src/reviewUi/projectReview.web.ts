// The web bundle's twin of projectReview.ts: a project patch is planned at its base_commit in a
// git clone, which a browser does not have. Each of a project run's patches is listed with one
// sentence saying so; the run's other changes are reviewed and applied as on the desktop.
import * as vscode from 'vscode';
import type { ApiClient } from '../api/client';
import type { ArtifactRecord, TaskRecord } from '../api/types';
import { projectPatchesOf } from '../projects/projectPatch';
import type { FileChange, ReviewProblem } from '../review';
import { listRunOutputs, runTaskOf } from './runOutputs';

export interface ProjectReview {
  /** The artifacts handled here (the rest go to the upload review). */
  handled: Set<string>;
  files: FileChange[];
  problems: ReviewProblem[];
  /** The clone the patches were planned in: never one in a browser. */
  clone?: { gitPath: string; root: string };
}

export async function reviewProjectPatches(
  _client: ApiClient,
  task: TaskRecord | undefined,
  artifacts: readonly ArtifactRecord[],
  _signal: AbortSignal,
): Promise<ProjectReview> {
  const patches = projectPatchesOf(task, artifacts);
  return {
    handled: new Set(patches.map((a) => a.id)),
    files: [],
    problems: patches.map((a) => ({
      code: 'readFailed',
      artifactId: a.id,
      file: a.name,
      message: vscode.l10n.t(
        "A project's patch is reviewed against its base commit in a git clone, which VS Code for the Web does not have: open the project in VS Code on the desktop to review or apply it.",
      ),
    })),
  };
}

/** A file of a project run's revision read to judge a comment at most (as on the desktop). */
export const MAX_REVISION_TEXT_BYTES = 10 * 1024 * 1024;

/**
 * What a project run left in `paths`, for judging review comments: undefined when the run is no
 * project run or has no patch; else an empty map, as no path can be read without a clone (so the
 * comments on it are left unjudged, as on the desktop without a clone).
 */
export async function projectRevisionTexts(
  client: ApiClient,
  runId: string,
  _paths: readonly string[],
  signal: AbortSignal,
): Promise<Map<string, string> | undefined> {
  const { task } = await runTaskOf(client, runId, signal);
  const { artifacts } = await listRunOutputs(client, runId, signal);
  return projectPatchesOf(task, artifacts).length === 0 ? undefined : new Map();
}
