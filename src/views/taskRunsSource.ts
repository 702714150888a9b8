// A task's runs, page by page: GET /v1/runs?task_id=... where the server has it; otherwise
// (404/405, remembered until the next refresh) the one run the task names in run_id.
import { isApiError } from '../api/errors';
import type { Page, PageParams, RunRecord, TaskRecord } from '../api/types';
import type { ViewDeps } from './viewDeps';

export class TaskRunsSource {
  /** False once GET /v1/runs?task_id answered 'not_supported'. */
  private listSupported = true;

  constructor(private readonly deps: ViewDeps) {}

  async page(task: TaskRecord, params: PageParams, signal: AbortSignal): Promise<Page<RunRecord>> {
    const client = this.deps.getClient();
    if (this.listSupported) {
      try {
        const page = await client.listRuns({ ...params, task_id: task.id }, { signal });
        // A server that ignores the filter would list every run under every task.
        return { ...page, data: page.data.filter((run) => run.task_id === undefined || run.task_id === task.id) };
      } catch (err) {
        if (!isApiError(err, 'not_supported')) {
          throw err;
        }
        this.deps.log.info("Tasks: the server cannot list runs; showing each task's run_id instead.");
        this.listSupported = false;
      }
    }
    const data =
      typeof task.run_id === 'string' && task.run_id !== '' ? [await client.getRun(task.run_id, { signal })] : [];
    return { object: 'list', data, has_more: false, next_cursor: null };
  }

  /** A refresh asks the server again. */
  reset(): void {
    this.listSupported = true;
  }
}
