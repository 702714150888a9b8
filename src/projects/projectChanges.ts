// A project patch, planned at its base_commit (patchAtBase.ts), as the change set Review Changes
// already knows: one FileChange per file the patch edits, its "as sent" side the file at
// base_commit, so src/review compares two ways while the working tree still holds base_commit's
// text and merges three ways once it moved on. What cannot be offered becomes a problem that
// names the file (inert): refused paths, binary parts, new files (Apply to a New Branch writes those),
// files or hunks that do not apply at base_commit. Plain Node (no vscode).
import { inert } from '../common/inertText';
import { type Translate, untranslated } from '../common/translate';
import { type FileChange, type ReviewProblem, sha256Hex } from '../review';
import type { PatchAtBase } from './patchAtBase';

/** Problems listed at most for one patch (the rest are counted in one more line). */
export const MAX_LISTED_PROBLEMS = 50;

export interface ProjectPatchSource {
  artifactId: string;
  artifactName?: string;
}

export interface ProjectPlace {
  /** The workspace folder the repository is in (a URI string, as vscode.Uri.toString()). */
  workspaceFolder: string;
  /** The URI string of a file of the repository, by its path relative to the repository root. */
  uriOf(path: string): string;
}

/** The file id a project file gets in a review (it has no upload): the artifact and the path. */
export function projectFileId(artifactId: string, path: string): string {
  return `${artifactId}:${path}`;
}

export function projectChanges(
  plan: PatchAtBase,
  source: ProjectPatchSource,
  place: ProjectPlace,
  t: Translate = untranslated,
): { files: FileChange[]; problems: ReviewProblem[] } {
  const files: FileChange[] = [];
  const problems: ReviewProblem[] = [];
  // Names come from the patch: every message is shown as data (hidden characters visible, no link).
  const problem = (code: ReviewProblem['code'], file: string, message: string) =>
    problems.push({ code, artifactId: source.artifactId, file, message: inert(message) });
  for (const r of plan.refused) {
    problem('refusedPath', r.name, r.message);
  }
  for (const name of plan.binary) {
    problem('unsupportedPatch', name, t('{0} is a binary change; it is listed, not applied.', name));
  }
  for (const f of plan.failed) {
    problem('patchDoesNotApply', f.name, f.message);
  }
  for (const h of plan.hunksNotApplied) {
    problem('patchDoesNotApply', h.path, h.message);
  }
  if (plan.skipped > 0) {
    problem(
      'unsupportedPatch',
      '',
      t('The patch names {0} more files than a review considers; they are left out.', plan.skipped),
    );
  }
  for (const file of plan.files) {
    if (file.created) {
      problem(
        'unsupportedPatch',
        file.path,
        t('The patch creates {0}; Apply to a New Branch writes new files.', file.path),
      );
      continue;
    }
    const origin = {
      fileId: projectFileId(source.artifactId, file.path),
      uri: place.uriOf(file.path),
      workspaceFolder: place.workspaceFolder,
      relativePath: file.path,
      sha256: sha256Hex(file.baseBytes),
      bytes: file.baseBytes.length,
      uploadedAt: '',
      baseCommit: plan.baseCommit,
    };
    files.push({
      fileId: origin.fileId,
      origin,
      source: { kind: 'patch', artifactId: source.artifactId, artifactName: source.artifactName },
      agentBytes: Buffer.from(file.agentText, 'utf8'),
      asSentBytes: file.baseBytes,
    });
  }
  if (problems.length > MAX_LISTED_PROBLEMS) {
    const more = problems.length - MAX_LISTED_PROBLEMS;
    problems.length = MAX_LISTED_PROBLEMS;
    problem('unsupportedPatch', '', t('…and {0} more parts of the patch that cannot be offered.', more));
  }
  return { files, problems };
}
