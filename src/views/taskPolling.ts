// The Tasks view kept current while it is visible: one read of the tasks list per look (what
// changed since the last one: src/runs/changeFeed.ts), so a task created anywhere shows as a new
// first row and a status change shows, at a cost that does not grow with the rows; a redraw of
// just the rows that look different. An unfinished row the list cannot vouch for (a server
// without `updated_after`, a task past its first page) is read on its own. Runs are not polled
// here: the RunStore owns run facts.
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import type { TaskRecord } from '../api/types';
import { mapLimited } from '../common/mapLimited';
import { FEED_POLL_DELAYS, type PollDelays, type Schedule, StatusPoller } from '../common/statusPoller';
import { ChangeFeed, type ChangeLook } from '../runs/changeFeed';
import { isAwaitingApproval } from '../runs/runStore';
import type { TaskNode } from './nodes';
import type { ViewDeps } from './viewDeps';

/** How many task status requests one poll sends at once. */
const POLL_CONCURRENCY = 4;

export interface TaskPollingOptions {
  /** The task rows shown now. */
  tasks(): readonly TaskNode[];
  /** False while the view is hidden: nothing is polled. */
  visible(): boolean;
  /** The project the view is limited to, if any: the list read is limited the same way. */
  projectId(): string | undefined;
  /** A task the view does not show yet changed (it was created anywhere): show it first. */
  onNew(task: TaskRecord): void;
  /** The rows whose look changed. */
  onChanged(nodes: TaskNode[]): void;
  /** Some task started or stopped waiting for approval (its run may have been started elsewhere). */
  onWaitingChanged?(): void;
  delays?: PollDelays;
  schedule?: Schedule;
}

export class TaskPolling {
  private readonly poller: StatusPoller;
  private readonly feed: ChangeFeed<TaskRecord>;
  /** Each client (one per server and settings) numbered: a new one starts the feed over. */
  private readonly clients = new WeakMap<object, number>();
  private clientCount = 0;

  constructor(
    private readonly deps: ViewDeps,
    private readonly options: TaskPollingOptions,
  ) {
    this.feed = new ChangeFeed<TaskRecord>({
      list: (params, signal) => {
        const projectId = options.projectId();
        return deps.getClient().listTasks(projectId ? { ...params, project_id: projectId } : params, { signal });
      },
      scope: () => `${this.clientNumber()} ${options.projectId() ?? ''}`,
    });
    this.poller = new StatusPoller({
      poll: () => this.poll(),
      wanted: () => options.visible() && deps.isSignedIn(),
      delays: options.delays ?? FEED_POLL_DELAYS,
      schedule: options.schedule,
      onError: (err) => deps.log.warn(`Tasks: status poll failed: ${describeError(err)}`),
    });
  }

  /** Something new to watch: the delay starts over. */
  kick(): void {
    this.poller.kick();
  }

  get scheduled(): boolean {
    return this.poller.scheduled;
  }

  /** Re-checks whether polling is wanted (visibility, rows). */
  update(): void {
    this.poller.update();
  }

  dispose(): void {
    this.poller.dispose();
  }

  private clientNumber(): number {
    const client = this.deps.getClient();
    let n = this.clients.get(client);
    if (n === undefined) {
      n = ++this.clientCount;
      this.clients.set(client, n);
    }
    return n;
  }

  private unfinished(): TaskNode[] {
    return this.options.tasks().filter((n) => n.unfinished);
  }

  /**
   * One look at the tasks list, then a request of its own for each unfinished row it cannot
   * vouch for. Answers false: the cadence stays flat (8 s at most) whatever changed.
   */
  private async poll(): Promise<boolean> {
    const client = this.deps.getClient();
    const changed: TaskNode[] = [];
    let waitingChanged = false;
    let authError: unknown;
    const take = (node: TaskNode, record: TaskRecord): void => {
      const before = node.task.run_id;
      const statusBefore = node.task.status;
      if (!node.update(record)) {
        return;
      }
      if (isAwaitingApproval(node.task.status) !== isAwaitingApproval(statusBefore)) {
        waitingChanged = true;
      }
      // A task that names a run its loaded list does not hold: list its runs again.
      const runs = node.children;
      const runId = node.task.run_id;
      if (runs?.started && (runs.error !== undefined || (runId !== before && runId && !runs.find(runId)))) {
        node.forgetChildren();
      }
      changed.push(node);
    };
    let look: ChangeLook<TaskRecord> | undefined;
    try {
      look = await this.feed.read();
    } catch (err) {
      if (isApiError(err, 'authentication')) {
        authError = err;
      }
      this.deps.log.debug(`Tasks: the tasks list was not read: ${describeError(err)}`);
    }
    const shown = new Map(this.options.tasks().map((n) => [n.task.id, n]));
    for (const record of look?.changed ?? []) {
      const node = shown.get(record.id);
      if (node) {
        take(node, record);
      } else {
        this.options.onNew(record);
      }
    }
    const rest = authError === undefined ? this.unfinished().filter((n) => !look?.covers(n.task.id)) : [];
    await mapLimited(rest, POLL_CONCURRENCY, async (node) => {
      try {
        take(node, await client.getTask(node.task.id));
      } catch (err) {
        if (isApiError(err, 'authentication')) {
          authError = err;
        }
        this.deps.log.debug(`Tasks: status of ${node.entityId} not refreshed: ${describeError(err)}`);
      }
    });
    if (authError !== undefined) {
      this.deps.onAuthError(authError);
    }
    if (changed.length > 0) {
      this.options.onChanged(changed);
    }
    if (waitingChanged) {
      this.options.onWaitingChanged?.();
    }
    return false;
  }
}
