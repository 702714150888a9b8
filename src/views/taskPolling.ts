// Fresh statuses for the unfinished tasks the Tasks view shows, only while it is visible: one
// timer with backoff (src/common/statusPoller.ts), a few requests at once, and a redraw of just
// the rows that look different. Runs are not polled here: the RunStore owns run facts.
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import { mapLimited } from '../common/mapLimited';
import { StatusPoller, type PollDelays, type Schedule } from '../common/statusPoller';
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
  /** The rows whose look changed. */
  onChanged(nodes: TaskNode[]): void;
  /** Some task started or stopped waiting for approval (its run may have been started elsewhere). */
  onWaitingChanged?(): void;
  delays?: PollDelays;
  schedule?: Schedule;
}

export class TaskPolling {
  private readonly poller: StatusPoller;

  constructor(
    private readonly deps: ViewDeps,
    private readonly options: TaskPollingOptions,
  ) {
    this.poller = new StatusPoller({
      poll: () => this.poll(),
      wanted: () => options.visible() && deps.isSignedIn() && this.unfinished().length > 0,
      delays: options.delays,
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

  private unfinished(): TaskNode[] {
    return this.options.tasks().filter((n) => n.unfinished);
  }

  /** One round of task status requests; true when any row changed. */
  private async poll(): Promise<boolean> {
    const client = this.deps.getClient();
    const changed: TaskNode[] = [];
    let waitingChanged = false;
    let authError: unknown;
    await mapLimited(this.unfinished(), POLL_CONCURRENCY, async (node) => {
      try {
        const before = node.task.run_id;
        const statusBefore = node.task.status;
        if (!node.update(await client.getTask(node.task.id))) {
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
    return changed.length > 0;
  }
}
