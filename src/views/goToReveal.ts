// Where "Go to…" finds a record in the sidebar without paging to it: among the rows already
// loaded, or (a task) put first in the Tasks view from the record just read, as a task just
// created is. A row the view's filter hides is not revealed; the caller offers to clear the filter.
import type { FileRecord, TaskRecord } from '../api/types';
import { ArtifactNode, FileNode, RunNode, type TaskNode } from './nodes';
import type { Sidebar } from './sidebar';

export type RevealOutcome = 'revealed' | 'hidden' | 'signedOut';

/** Reveals the task (focused, expanded to its runs); a task not on a loaded page is put first. */
export async function revealTaskRecord(
  sidebar: Sidebar,
  task: TaskRecord,
): Promise<{ outcome: RevealOutcome; node?: TaskNode }> {
  const tree = sidebar.tasks;
  const ticket = tree.startReveal();
  const root = await tree.loadedRoot();
  if (!root) {
    return { outcome: 'signedOut' };
  }
  const node = root.find(task.id) ?? (await tree.showTask(root, task));
  if (!node) {
    return { outcome: 'signedOut' };
  }
  if (sidebar.tasksFilter.hides(node)) {
    return { outcome: 'hidden', node };
  }
  await tree.reveal(node, { focus: true, expand: true, ticket });
  return { outcome: 'revealed', node };
}

/** The run's row when its task's runs are loaded; nothing is fetched. */
export function loadedRunNode(sidebar: Sidebar, runId: string): RunNode | undefined {
  for (const task of sidebar.tasks.taskNodes) {
    const run = task.children?.find(runId);
    if (run) {
      return run;
    }
  }
  return undefined;
}

/** An artifact's row when some loaded run lists it (a bare artifact id names no run). */
export function loadedArtifactNode(sidebar: Sidebar, artifactId: string): ArtifactNode | undefined {
  for (const task of sidebar.tasks.taskNodes) {
    for (const run of task.children?.items ?? []) {
      const artifact = run.children?.find(artifactId);
      if (artifact) {
        return artifact;
      }
    }
  }
  return undefined;
}

/** Selects a loaded row (never focusing it: the caller opens the record itself). */
export async function revealLoaded(sidebar: Sidebar, node: RunNode | ArtifactNode): Promise<void> {
  if (node instanceof RunNode && node.parent && sidebar.tasksFilter.hides(node.parent)) {
    return;
  }
  if (node instanceof ArtifactNode && node.parent.parent && sidebar.tasksFilter.hides(node.parent.parent)) {
    return;
  }
  await sidebar.tasks.reveal(node, { focus: false, expand: false });
}

/** Selects the file's row when the Files view shows it (its first page is loaded if it is visible). */
export async function revealFileIfShown(sidebar: Sidebar, file: FileRecord): Promise<void> {
  if (!sidebar.filesView.visible) {
    return;
  }
  const rows = await sidebar.filesFilter.getChildren();
  const node = rows.find((r): r is FileNode => r instanceof FileNode && r.entityId === file.id);
  if (!node) {
    return;
  }
  try {
    await sidebar.filesView.reveal(node, { select: true, focus: false, expand: false });
  } catch {
    // Selecting is a courtesy: the file opens either way.
  }
}
