// The Tasks view: tasks a page at a time, a task opening to its runs, a run to its artifacts.
// Unfinished tasks and runs are polled (with backoff, only while the view is visible) and runs
// the user started are watched until they end, announced through onDidFinishRun.
import * as vscode from 'vscode';
import { describeError, isApiError } from '../api/errors';
import type { Page, RunRecord, TaskRecord } from '../api/types';
import { SidebarContextKeys } from './contextKeys';
import { DisposableStore } from './disposableStore';
import { isUnreachable, listRows, withViewProgress } from './listRows';
import { mapLimited } from './mapLimited';
import { ArtifactNode, RunNode, TASKS_VIEW_ID, TaskNode, type LoadMoreNode, type TreeNode } from './nodes';
import { mapPage, PagedList, type PageFetcher } from './pagedList';
import { setContextCommand } from './setContext';
import { isTerminalStatus } from './statusIcons';
import { StatusPoller, type PollDelays, type Schedule } from './statusPoller';
import type { ViewApiClient, ViewDeps } from './viewDeps';

/** How many status requests one poll sends at once. */
const POLL_CONCURRENCY = 4;

export interface RunFinishedEvent {
  run: RunRecord;
  /** The run's task when known (shown, or fetched by run.task_id). */
  task?: TaskRecord;
}

export interface TasksProviderOptions {
  contextKeys?: SidebarContextKeys;
  /** Poll delays; default 2 s doubling to 30 s. */
  pollDelays?: PollDelays;
  /** The poll timer; tests pass a manual one. */
  schedule?: Schedule;
}

interface WatchedRun {
  taskId?: string;
}

export class TasksTreeProvider extends DisposableStore implements vscode.TreeDataProvider<TreeNode> {
  static readonly viewId = TASKS_VIEW_ID;

  private readonly changed = this.own(new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly finished = this.own(new vscode.EventEmitter<RunFinishedEvent>());
  /** A run passed to trackRun reached a terminal status (completed, failed, cancelled). */
  readonly onDidFinishRun = this.finished.event;

  private readonly contextKeys: SidebarContextKeys;
  private readonly poller: StatusPoller;
  private generation = 0;
  private root: PagedList<TaskNode> | undefined;
  /** False once GET /v1/runs?task_id answered 'not_supported': runs come from task.run_id. */
  private runsListSupported = true;
  private readonly watched = new Map<string, WatchedRun>();
  private treeView: vscode.TreeView<TreeNode> | undefined;
  private visible = false;

  constructor(
    private readonly deps: ViewDeps,
    options: TasksProviderOptions = {},
  ) {
    super();
    this.contextKeys = options.contextKeys ?? new SidebarContextKeys(setContextCommand);
    this.poller = new StatusPoller({
      poll: () => this.poll(),
      wanted: () => this.pollWanted(),
      delays: options.pollDelays,
      schedule: options.schedule,
      onError: (err) => this.deps.log.warn(`Tasks: status poll failed: ${describeError(err)}`),
    });
    this.own({ dispose: () => this.poller.dispose() });
  }

  /** Follows the view's visibility (polling runs only while it is visible) and enables reveal. */
  attach(treeView: vscode.TreeView<TreeNode>): void {
    this.treeView = treeView;
    this.setVisible(treeView.visible);
    this.own(treeView.onDidChangeVisibility((e) => this.setVisible(e.visible)));
  }

  /** For callers without a TreeView (tests): polling of shown rows runs only while visible. */
  setVisible(visible: boolean): void {
    const was = this.visible;
    this.visible = visible;
    if (visible && !was) this.poller.kick();
    else this.poller.update();
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (node === undefined) return this.rootChildren();
    if (node instanceof TaskNode) return this.runChildren(node);
    if (node instanceof RunNode) return this.artifactChildren(node);
    return [];
  }

  /** Fetches the next page (or retries the failed one) of the row's level and shows it. */
  async loadMore(node: LoadMoreNode): Promise<void> {
    if (node.view !== 'tasks' || node.generation !== this.generation) return;
    const parent = node.parent;
    if (parent === undefined) {
      if (!this.root) return;
      await this.loadRoot(this.root);
      this.changed.fire(undefined);
    } else if (parent instanceof TaskNode) {
      if (!parent.runs) return;
      await this.loadRuns(parent, parent.runs);
      this.changed.fire(parent);
    } else {
      if (!parent.artifacts) return;
      await this.loadArtifacts(parent, parent.artifacts);
      this.changed.fire(parent);
    }
  }

  /** Forgets every page (tasks, runs, artifacts): the next look starts from the first page. */
  refresh(): void {
    this.contextKeys.forgetUnreachable('tasks');
    this.reset();
    this.changed.fire(undefined);
  }

  /**
   * Re-reads one task or run (its row's "Refresh") and forgets its loaded children, so an
   * expanded row shows its runs or artifacts afresh. Other rows and pages stay as they are.
   */
  async refreshNode(node: TreeNode): Promise<void> {
    if (!(node instanceof TaskNode) && !(node instanceof RunNode)) {
      if (node.parent) return this.refreshNode(node.parent);
      return this.refresh();
    }
    try {
      await withViewProgress(TASKS_VIEW_ID, async () => {
        const client = this.deps.getClient();
        if (node instanceof TaskNode) {
          node.update(await client.getTask(node.task.id));
          node.runs?.dispose();
          node.runs = undefined;
        } else {
          node.update(await client.getRun(node.runId));
          node.artifacts?.dispose();
          node.artifacts = undefined;
        }
      });
    } catch (err) {
      this.reportError(err, `Refresh ${node.entityId}`);
      throw err;
    }
    if (node.unfinished) this.poller.kick();
    this.changed.fire(node);
  }

  /**
   * Watches a run the user started: when it reaches completed, failed or cancelled,
   * onDidFinishRun fires once (polled even while the view is hidden).
   */
  trackRun(runId: string, taskId?: string): void {
    this.watched.set(runId, { taskId });
    this.poller.kick();
  }

  isRunWatched(runId: string): boolean {
    return this.watched.has(runId);
  }

  /** Stops watching a run (e.g. the user opened its panel, which reports its end itself). */
  untrackRun(runId: string): void {
    this.watched.delete(runId);
    this.poller.update();
  }

  /**
   * After creating a task: refreshes, finds the task on the first page (or fetches it and puts
   * it first), then reveals and selects it, expanded to its runs. Resolves to its row.
   */
  async revealTask(taskId: string, options: { focus?: boolean; expand?: boolean } = {}): Promise<TaskNode | undefined> {
    this.refresh();
    if (!this.deps.isSignedIn()) return undefined;
    const root = this.ensureRoot();
    if (!root.started) await this.loadRoot(root);
    if (root !== this.root) return undefined;
    let node = root.find(taskId);
    if (!node) {
      try {
        node = new TaskNode(await this.deps.getClient().getTask(taskId));
      } catch (err) {
        this.reportError(err, 'Tasks');
        return undefined;
      }
      root.prepend(node);
      this.changed.fire(undefined);
    }
    if (node.unfinished) this.poller.kick();
    if (this.treeView) {
      try {
        await this.treeView.reveal(node, { select: true, focus: options.focus ?? false, expand: options.expand ?? true });
      } catch (err) {
        this.deps.log.warn(`Tasks: could not reveal ${taskId}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return node;
  }

  /**
   * Shows a run's artifacts ("Show Artifacts"): finds or fetches its task, loads the task's
   * runs, then reveals the run expanded. Keeps the pages already shown. Resolves to its row.
   */
  async revealRun(runId: string, options: { taskId?: string; focus?: boolean } = {}): Promise<RunNode | undefined> {
    if (!this.deps.isSignedIn()) return undefined;
    try {
      const client = this.deps.getClient();
      const root = this.ensureRoot();
      if (!root.started) await this.loadRoot(root);
      // The run's current record: its task id when not given, and a fresh status (polling may be off).
      const run = await client.getRun(runId);
      const taskId = options.taskId ?? run.task_id ?? this.taskNodes.find((n) => n.task.run_id === runId)?.task.id;
      if (taskId === undefined || root !== this.root) return undefined;
      let task = root.find(taskId);
      if (!task) {
        task = new TaskNode(await client.getTask(taskId));
        root.prepend(task);
        this.changed.fire(undefined);
      }
      await this.runChildren(task);
      const node = task.runs?.find(runId);
      if (!node) return undefined;
      if (node.update(run)) this.changed.fire(this.afterRunChange(node));
      await this.treeView?.reveal(node, { select: true, focus: options.focus ?? false, expand: true });
      return node;
    } catch (err) {
      // The caller (Show Artifacts) reports it: "not found among the loaded tasks" would mislead.
      this.reportError(err, `Run ${runId}`);
      throw err;
    }
  }

  /** The task rows shown now. */
  get taskNodes(): readonly TaskNode[] {
    return this.root?.items ?? [];
  }

  /** The run row of a run id among the loaded rows, if any. */
  findRunNode(runId: string): RunNode | undefined {
    for (const task of this.taskNodes) {
      const run = task.runs?.find(runId);
      if (run) return run;
    }
    return undefined;
  }

  override dispose(): void {
    this.disposeLists();
    super.dispose();
  }

  // ---- levels ----

  private async rootChildren(): Promise<TreeNode[]> {
    if (!this.deps.isSignedIn()) {
      if (this.root) this.reset();
      this.contextKeys.clear('tasks');
      return [];
    }
    const root = this.ensureRoot();
    if (!root.started) await this.loadRoot(root);
    if (root !== this.root) return this.rootChildren(); // refreshed meanwhile: answer for the new listing
    const unreachable = root.items.length === 0 && isUnreachable(root.error);
    this.contextKeys.report('tasks', { unreachable, empty: root.isEmpty });
    if (unreachable) return [];
    return listRows(root, { view: 'tasks' });
  }

  private async runChildren(task: TaskNode): Promise<TreeNode[]> {
    task.runs ??= new PagedList<RunNode>({
      parentKey: `task:${task.task.id}`,
      generation: this.generation,
      key: (n) => n.runId,
      merge: (shown, incoming) => void shown.update(incoming.run),
    });
    const runs = task.runs;
    if (!runs.started) await this.loadRuns(task, runs);
    return listRows(runs, { view: 'tasks', parent: task, emptyText: vscode.l10n.t('No runs yet') });
  }

  private async artifactChildren(run: RunNode): Promise<TreeNode[]> {
    run.artifacts ??= new PagedList<ArtifactNode>({
      parentKey: `run:${run.runId}`,
      generation: this.generation,
      key: (n) => n.entityId,
      merge: (shown, incoming) => void shown.update(incoming.artifact),
    });
    const artifacts = run.artifacts;
    if (!artifacts.started) await this.loadArtifacts(run, artifacts);
    const emptyText = run.unfinished ? vscode.l10n.t('No artifacts yet') : vscode.l10n.t('No artifacts');
    return listRows(artifacts, { view: 'tasks', parent: run, emptyText });
  }

  // ---- loading ----

  private ensureRoot(): PagedList<TaskNode> {
    this.root ??= new PagedList<TaskNode>({
      parentKey: 'tasks',
      generation: this.generation,
      key: (n) => n.entityId,
      merge: (shown, incoming) => void shown.update(incoming.task),
    });
    return this.root;
  }

  private async loadRoot(root: PagedList<TaskNode>): Promise<void> {
    const fetch: PageFetcher<TaskNode> = async (params, signal) =>
      mapPage(await this.deps.getClient().listTasks(params, { signal }), (task) => new TaskNode(task));
    await withViewProgress(TASKS_VIEW_ID, () => root.loadNext(fetch, this.deps.pageSize()));
    if (root.error !== undefined) this.reportError(root.error, 'Tasks');
    if (root.items.some((n) => n.unfinished)) this.poller.kick();
  }

  private async loadRuns(task: TaskNode, runs: PagedList<RunNode>): Promise<void> {
    const fetch: PageFetcher<RunNode> = async (params, signal) => {
      const page = await this.fetchRuns(this.deps.getClient(), task.task, params, signal);
      return mapPage(page, (run) => new RunNode(run, task));
    };
    await withViewProgress(TASKS_VIEW_ID, () => runs.loadNext(fetch, this.deps.pageSize()));
    if (runs.error !== undefined) this.reportError(runs.error, `Runs of ${task.task.id}`);
    if (runs.items.some((n) => n.unfinished)) this.poller.kick();
  }

  /** The task's runs; without a runs list on the server, the one run named by task.run_id. */
  private async fetchRuns(client: ViewApiClient, task: TaskRecord, params: { limit?: number; after?: string }, signal: AbortSignal): Promise<Page<RunRecord>> {
    if (this.runsListSupported) {
      try {
        const page = await client.listRuns({ ...params, task_id: task.id }, { signal });
        // A server that ignores the filter would list every run under every task.
        return { ...page, data: page.data.filter((run) => run.task_id === undefined || run.task_id === task.id) };
      } catch (err) {
        if (!isApiError(err, 'not_supported')) throw err;
        this.deps.log.info('Tasks: the server cannot list runs; showing each task\'s run_id instead.');
        this.runsListSupported = false;
      }
    }
    const data = typeof task.run_id === 'string' && task.run_id !== '' ? [await client.getRun(task.run_id, { signal })] : [];
    return { object: 'list', data, has_more: false, next_cursor: null };
  }

  private async loadArtifacts(run: RunNode, artifacts: PagedList<ArtifactNode>): Promise<void> {
    const fetch: PageFetcher<ArtifactNode> = async (params, signal) =>
      mapPage(await this.deps.getClient().listRunArtifacts(run.runId, params, { signal }), (a) => new ArtifactNode(a, run));
    await withViewProgress(TASKS_VIEW_ID, () => artifacts.loadNext(fetch, this.deps.pageSize()));
    if (artifacts.error !== undefined) this.reportError(artifacts.error, `Artifacts of ${run.runId}`);
  }

  private reset(): void {
    this.disposeLists();
    this.root = undefined;
    this.runsListSupported = true;
    this.generation++;
    this.poller.update();
  }

  private disposeLists(): void {
    for (const task of this.root?.items ?? []) {
      for (const run of task.runs?.items ?? []) run.artifacts?.dispose();
      task.runs?.dispose();
    }
    this.root?.dispose();
  }

  private reportError(err: unknown, what: string): void {
    this.deps.log.warn(`${what}: ${describeError(err)}`);
    if (isApiError(err, 'authentication')) this.deps.onAuthError(err);
  }

  // ---- status polling ----

  private unfinishedNodes(): Array<TaskNode | RunNode> {
    const nodes: Array<TaskNode | RunNode> = [];
    for (const task of this.taskNodes) {
      if (task.unfinished) nodes.push(task);
      for (const run of task.runs?.items ?? []) if (run.unfinished) nodes.push(run);
    }
    return nodes;
  }

  private pollWanted(): boolean {
    if (!this.deps.isSignedIn()) return false;
    return this.watched.size > 0 || (this.visible && this.unfinishedNodes().length > 0);
  }

  /** One round of status requests; resolves true when anything changed. */
  private async poll(): Promise<boolean> {
    const client = this.deps.getClient();
    const generation = this.generation;
    const shown = this.visible ? this.unfinishedNodes() : [];
    const changedNodes: TreeNode[] = [];
    const polledRuns = new Map<string, RunRecord>();
    let authError: unknown;

    await mapLimited(shown, POLL_CONCURRENCY, async (node) => {
      try {
        if (node instanceof TaskNode) {
          const task = await client.getTask(node.task.id);
          if (node.update(task)) changedNodes.push(this.afterTaskChange(node));
        } else {
          const run = await client.getRun(node.runId);
          polledRuns.set(run.id, run);
          if (node.update(run)) changedNodes.push(this.afterRunChange(node));
        }
      } catch (err) {
        if (isApiError(err, 'authentication')) authError = err;
        this.deps.log.debug(`Tasks: status of ${node.entityId} not refreshed: ${describeError(err)}`);
      }
    });

    const finishedRuns: RunRecord[] = [];
    await mapLimited([...this.watched.keys()], POLL_CONCURRENCY, async (runId) => {
      try {
        const run = polledRuns.get(runId) ?? (await client.getRun(runId));
        const node = this.findRunNode(runId);
        if (node && !polledRuns.has(runId) && node.update(run)) changedNodes.push(this.afterRunChange(node));
        if (isTerminalStatus(run.status)) finishedRuns.push(run);
      } catch (err) {
        if (isApiError(err, 'authentication')) authError = err;
        if (isApiError(err, 'not_found')) this.watched.delete(runId);
        this.deps.log.debug(`Tasks: status of watched ${runId} not refreshed: ${describeError(err)}`);
      }
    });

    if (authError !== undefined) this.deps.onAuthError(authError);
    if (generation === this.generation && changedNodes.length > 0) this.changed.fire(changedNodes);
    for (const run of finishedRuns) await this.announceFinished(client, run);
    return changedNodes.length > 0 || finishedRuns.length > 0;
  }

  /** A task's status moved: if the run it names is not among its loaded runs, reload them. */
  private afterTaskChange(node: TaskNode): TaskNode {
    const runs = node.runs;
    const runId = node.task.run_id;
    if (runs && runs.started && (runs.error !== undefined || (runId !== undefined && !runs.find(runId)))) {
      runs.dispose();
      node.runs = undefined;
    }
    return node;
  }

  /** A run's status moved: its artifacts may have changed, reload them when next shown. */
  private afterRunChange(node: RunNode): RunNode {
    if (node.artifacts?.started) {
      node.artifacts.dispose();
      node.artifacts = undefined;
    }
    return node;
  }

  private async announceFinished(client: ViewApiClient, run: RunRecord): Promise<void> {
    const watched = this.watched.get(run.id);
    if (!watched) return;
    this.watched.delete(run.id);
    const taskId = run.task_id ?? watched.taskId;
    let task = this.taskNodes.find((n) => n.task.id === taskId || n.task.run_id === run.id)?.task;
    if (!task && taskId) {
      try {
        task = await client.getTask(taskId);
      } catch (err) {
        this.deps.log.debug(`Tasks: task ${taskId} of finished run ${run.id} not fetched: ${describeError(err)}`);
      }
    }
    this.finished.fire({ run, task });
  }
}
