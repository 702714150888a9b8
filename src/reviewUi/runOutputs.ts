// What a review reads from the server before it compares anything: the run's outputs (through
// the one pager, with a cap the review then tells the user about), the run's task, and the file
// ids that task was given (only those may be revised or patched by its runs). Also the check
// "does this run have reviewable changes?" run when a followed run ends. Plain Node: no vscode.
import type { ApiClient } from '../api/client';
import type { ArtifactRecord, TaskRecord } from '../api/types';
import { classifyArtifact, type OriginLookup } from '../review';

/** Outputs a review reads at most (every item the server sends counts). */
export const MAX_REVIEW_OUTPUTS = 1000;
/** Attachments of one task looked up at most (a task takes at most 100 on the reference runtime). */
export const MAX_TASK_ATTACHMENTS = 200;

export type OutputsClient = Pick<ApiClient, 'iterateRunArtifacts'>;
export type TaskClient = Pick<ApiClient, 'getRun' | 'getTask'>;

export interface RunOutputs {
  artifacts: ArtifactRecord[];
  /** The run lists more than MAX_REVIEW_OUTPUTS: `artifacts` are the first ones. */
  cut: boolean;
}

/** The run's outputs, up to the cap; `listed` is told the count as they come. */
export async function listRunOutputs(
  client: OutputsClient,
  runId: string,
  signal: AbortSignal,
  listed?: (count: number) => void,
): Promise<RunOutputs> {
  const artifacts: ArtifactRecord[] = [];
  const walk = client.iterateRunArtifacts(runId, { limit: 100 }, { signal, maxItems: MAX_REVIEW_OUTPUTS });
  for await (const artifact of walk) {
    artifacts.push(artifact);
    listed?.(artifacts.length);
  }
  return { artifacts, cut: walk.cut !== undefined };
}

export interface RunTask {
  taskId?: string;
  /** The task record; undefined when it could not be read. */
  task?: TaskRecord;
}

/** The run's task id and record, as far as they can be read (a failure other than a cancel leaves them out). */
export async function runTaskOf(client: TaskClient, runId: string, signal: AbortSignal): Promise<RunTask> {
  let taskId: string | undefined;
  try {
    const run = await client.getRun(runId, { signal });
    if (typeof run.task_id !== 'string' || run.task_id === '') {
      return {};
    }
    taskId = run.task_id;
    return { taskId, task: await client.getTask(taskId, { signal }) };
  } catch (err) {
    if (signal.aborted) {
      throw err;
    }
    return { taskId };
  }
}

/**
 * The file ids the task was given: what was recorded when it was created here, else its
 * attachments as the server lists them; none when neither is known. Uploads from here given to
 * another task are not among them, so a run cannot revise them.
 */
export function taskFileIds(task: TaskRecord | undefined, recorded: readonly string[] | undefined): Set<string> {
  if (recorded !== undefined) {
    return new Set(recorded.slice(0, MAX_TASK_ATTACHMENTS));
  }
  const ids = new Set<string>();
  const list = Array.isArray(task?.attachments) ? task.attachments : [];
  for (const attachment of list) {
    if (ids.size >= MAX_TASK_ATTACHMENTS) {
      break;
    }
    const id = (attachment as { fileId?: unknown } | null)?.fileId;
    if (typeof id === 'string' && id !== '') {
      ids.add(id);
    }
  }
  return ids;
}

/**
 * Whether the run has outputs a review would show: a new version of a file its task was given
 * and that was uploaded from here, or a patch. A list cut by the cap counts as yes: the review
 * then says it read only the first outputs.
 */
export async function hasReviewableOutputs(
  client: OutputsClient & TaskClient,
  runId: string,
  originOf: OriginLookup,
  recordedFiles: (taskId: string) => readonly string[] | undefined,
  signal: AbortSignal,
): Promise<boolean> {
  let fileIds: Set<string> | undefined;
  const walk = client.iterateRunArtifacts(runId, { limit: 100 }, { signal, maxItems: MAX_REVIEW_OUTPUTS });
  for await (const artifact of walk) {
    // The task is read only for a run that has a revision at all.
    if (typeof artifact.source_file_id === 'string' && artifact.source_file_id !== '' && fileIds === undefined) {
      const { taskId, task } = await runTaskOf(client, runId, signal);
      fileIds = taskFileIds(task, taskId === undefined ? undefined : recordedFiles(taskId));
    }
    const kind = classifyArtifact(artifact, originOf, fileIds ?? new Set()).kind;
    if (kind === 'revision' || kind === 'patch') {
      return true;
    }
  }
  return walk.cut !== undefined;
}
