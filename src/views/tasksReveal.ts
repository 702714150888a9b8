// Finding a task or run in the Tasks view when it may not be on a loaded page yet: after
// creating a task (reveal it, expanded to its runs) and for "Show Artifacts" (reveal the run,
// expanded to its artifacts). Keeps the pages already shown; fetches only the missing record.
import type { RunNode, TaskNode } from './nodes';
import type { TasksTreeProvider } from './tasksProvider';
import type { ViewApiClient } from './viewDeps';

/** Refreshes, finds the task on the first page (or fetches it and puts it first), reveals it. */
export async function revealTask(
  tree: TasksTreeProvider,
  client: () => ViewApiClient,
  taskId: string,
  options: { focus?: boolean; expand?: boolean } = {},
): Promise<TaskNode | undefined> {
  const ticket = tree.startReveal();
  tree.refresh();
  const root = await tree.loadedRoot();
  if (!root) {
    return undefined;
  }
  let node = root.find(taskId);
  if (!node) {
    try {
      node = await tree.showTask(root, await client().getTask(taskId));
    } catch (err) {
      tree.reportError(err, 'Tasks');
      return undefined;
    }
    if (!node) {
      return undefined;
    }
  }
  await tree.reveal(node, { focus: options.focus, expand: options.expand ?? true, ticket });
  return node;
}

/** Finds or fetches the run's task, loads the task's runs, then reveals the run expanded. */
export async function revealRun(
  tree: TasksTreeProvider,
  client: () => ViewApiClient,
  runId: string,
  options: { taskId?: string; focus?: boolean } = {},
): Promise<RunNode | undefined> {
  const ticket = tree.startReveal();
  try {
    const root = await tree.loadedRoot();
    if (!root) {
      return undefined;
    }
    // The run's current record: its task id when not given, and a fresh status.
    const run = await client().getRun(runId);
    const taskId = options.taskId ?? run.task_id ?? tree.taskNodes.find((n) => n.task.run_id === runId)?.task.id;
    if (taskId === undefined) {
      return undefined;
    }
    const task = root.find(taskId) ?? (await tree.showTask(root, await client().getTask(taskId)));
    if (!task) {
      return undefined;
    }
    const node = (await tree.loadedRuns(task)).find(runId);
    if (!node) {
      return undefined;
    }
    await tree.reveal(node, { focus: options.focus, expand: true, ticket });
    return node;
  } catch (err) {
    // The caller (Show Artifacts) reports it: "not found among the loaded tasks" would mislead.
    tree.reportError(err, `Run ${runId}`);
    throw err;
  }
}
