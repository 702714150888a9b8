// Which artifacts are a project run's patches: one rule for Review Changes (on the desktop and
// in the browser, where a patch at its base_commit cannot be read) and Apply to a New Branch.
// Pure (no git, no vscode).
import type { ArtifactRecord, TaskRecord } from '../api/types';

/** The fields of an artifact record that make it a project patch. */
export interface PatchArtifactFields {
  name?: string;
  content_type?: string;
  base_commit?: unknown;
}

/** A patch artifact of a project run: a diff (by type or name) that names the commit it applies to. */
export function isProjectPatch(a: PatchArtifactFields): boolean {
  return (
    typeof a.base_commit === 'string' &&
    (/^text\/x-(diff|patch)\b/i.test(a.content_type ?? '') || /\.(diff|patch)$/i.test(a.name ?? ''))
  );
}

/** The project patches among `artifacts`, when the run's task is in a project. */
export function projectPatchesOf(task: TaskRecord | undefined, artifacts: readonly ArtifactRecord[]): ArtifactRecord[] {
  return typeof task?.project_id === 'string' && task.project_id !== '' ? artifacts.filter(isProjectPatch) : [];
}
