// The Tasks view: tasks a page at a time, a task opening to its runs, a run to its artifacts.
// Every level is a PagedList owned by the row above it (the root's by the provider) and loaded
// by one routine (childrenOf/loadLevel). Run facts come from the RunStore: the tree tells it
// which runs its visible rows show and redraws a run row only when the store says its data
// changed. While the view is visible, one read of the tasks list at a time keeps it current
// (TaskPolling): new tasks come in first, changed rows are redrawn.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import { DEFAULT_MAX_ITEMS } from '../api/pagination';
import type { TaskRecord } from '../api/types';
import { DisposableStore } from '../common/disposableStore';
import { ViewIds } from '../common/ids';
import { setContextCommand } from '../common/setContext';
import type { PollDelays, Schedule } from '../common/statusPoller';
import { revisionNumbers, sourceRunOf } from '../runEvents/runRevisions';
import type { RunChange, RunStore } from '../runs/runStore';
import { SidebarContextKeys } from './contextKeys';
import { isUnreachable, listRows, withViewProgress } from './listRows';
import { ArtifactNode, type LoadMoreNode, RunNode, TaskNode, type TreeNode } from './nodes';
import { mapPage, PagedList, type PageFetcher } from './pagedList';
import { TaskPolling } from './taskPolling';
import { TaskRunsSource } from './taskRunsSource';
import type { ViewDeps } from './viewDeps';

/** The project the view shows the tasks of (the current folder's), by id and by name. */
export interface ProjectScope {
  id: string;
  label: string;
}

/** What this workspace knows of runs beyond their records (review comments, src/reviewTalk). */
export interface RunNotesSource {
  /** Comments written on the run and not sent yet. */
  draftsOn(runId: string): number;
  /** The run whose comments started this one, as this workspace recorded the send. */
  followUpOf(runId: string): string | undefined;
  readonly onDidChange: vscode.Event<void>;
}

/** Projects looked up at most per page of tasks, to name their rows (a cache keeps the names). */
export const MAX_PROJECT_LOOKUPS = 10;
/** Project names kept at most. */
const MAX_PROJECT_LABELS = 500;

export interface TasksProviderOptions {
  contextKeys?: SidebarContextKeys;
  /** Task poll delays; default 2 s doubling to 30 s. */
  pollDelays?: PollDelays;
  /** The poll timer; tests pass a manual one. */
  schedule?: Schedule;
}

/** One paged level: who owns its list, how its pages are fetched, what an empty one says. */
interface Level<T extends TaskNode | RunNode | ArtifactNode> {
  owner: { children: PagedList<T> | undefined };
  parent?: TaskNode | RunNode;
  parentKey: string;
  fetch: PageFetcher<T>;
  /** Takes a later page's copy of a row already shown. */
  merge(shown: T, incoming: T): void;
  /** After each page (or failure). */
  afterLoad?(list: PagedList<T>): void;
  what: string;
  emptyText?: string;
}

export class TasksTreeProvider extends DisposableStore implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = this.own(new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>());
  private readonly waitingChanged = this.own(new vscode.EventEmitter<void>());
  readonly onDidChangeTaskWaiting = this.waitingChanged.event; // a polled task started/stopped waiting
  readonly onDidChangeTreeData = this.changed.event;

  private readonly contextKeys: SidebarContextKeys;
  private readonly poller: TaskPolling;
  private generation = 0;
  /** The root level's owner: its list of task rows. */
  private readonly root: { children: PagedList<TaskNode> | undefined } = { children: undefined };
  private readonly runsSource: TaskRunsSource;
  /** The store's "a row shows this run" handles, held while the view is visible. */
  private readonly shown = new Map<string, { dispose(): void }>();
  private treeView: vscode.TreeView<TreeNode> | undefined;
  /** Reveals started so far (startReveal): only the newest one selects. */
  private reveals = 0;
  private visible = false;
  private scope: ProjectScope | undefined;
  private notes: RunNotesSource | undefined;
  /** Project id -> name; null: looked up and not known (not asked again until a refresh). */
  private readonly projectLabels = new Map<string, string | null>();
  private readonly scopeChanged = this.own(new vscode.EventEmitter<ProjectScope | undefined>());
  /** Fires when the view starts or stops showing one project's tasks. */
  readonly onDidChangeProjectScope = this.scopeChanged.event;

  constructor(
    private readonly deps: ViewDeps,
    private readonly runs: RunStore,
    options: TasksProviderOptions = {},
  ) {
    super();
    this.contextKeys = options.contextKeys ?? new SidebarContextKeys(setContextCommand);
    this.runsSource = new TaskRunsSource(deps);
    this.poller = new TaskPolling(deps, {
      tasks: () => this.taskNodes,
      visible: () => this.visible,
      projectId: () => this.scope?.id,
      onNew: (task) => this.showNewTask(task),
      onChanged: (nodes) => this.changed.fire(nodes),
      onWaitingChanged: () => this.waitingChanged.fire(),
      delays: options.pollDelays,
      schedule: options.schedule,
    });
    this.own({ dispose: () => this.poller.dispose() });
    this.own(runs.onDidChange((change) => this.onRunChange(change)));
    this.own({ dispose: () => this.releaseShown() });
  }

  /** Follows the view's visibility (rows ask for fresh statuses only while seen) and enables reveal. */
  attach(treeView: vscode.TreeView<TreeNode>): void {
    this.treeView = treeView;
    this.setVisible(treeView.visible);
    this.own(treeView.onDidChangeVisibility((e) => this.setVisible(e.visible)));
  }

  /** For callers without a TreeView (tests). */
  setVisible(visible: boolean): void {
    const was = this.visible;
    this.visible = visible;
    if (visible) {
      this.showLoadedRuns();
    } else {
      this.releaseShown();
    }
    if (visible && !was) {
      this.poller.kick();
    } else {
      this.poller.update();
    }
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (node === undefined) {
      return this.rootChildren();
    }
    if (node instanceof TaskNode) {
      return this.childrenOf(this.runsLevel(node));
    }
    if (node instanceof RunNode) {
      return this.childrenOf(this.artifactsLevel(node));
    }
    return [];
  }

  /** Fetches the next page (or retries the failed one) of the row's level and shows it. */
  async loadMore(node: LoadMoreNode): Promise<void> {
    if (node.view !== 'tasks' || node.generation !== this.generation) {
      return;
    }
    const parent = node.parent;
    if (parent === undefined) {
      await this.loadShown(this.rootLevel());
    } else if (parent instanceof TaskNode) {
      await this.loadShown(this.runsLevel(parent));
    } else {
      await this.loadShown(this.artifactsLevel(parent));
    }
    this.changed.fire(parent);
  }

  private async loadShown<T extends TaskNode | RunNode | ArtifactNode>(level: Level<T>): Promise<void> {
    if (level.owner.children) {
      await this.loadLevel(level, level.owner.children);
    }
  }

  /** Forgets every page (tasks, runs, artifacts): the next look starts from the first page. */
  /** The project whose tasks alone the view shows, if any. */
  get projectScope(): ProjectScope | undefined {
    return this.scope;
  }

  /** Shows only this project's tasks (`?project_id=`), or all tasks again; starts from the first page. */
  setProjectScope(scope: ProjectScope | undefined): void {
    this.scope = scope;
    if (scope) {
      this.projectLabels.set(scope.id, scope.label);
    }
    this.scopeChanged.fire(scope);
    this.refresh();
  }

  refresh(): void {
    this.forgetUnknownProjects();
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
      if (node.parent) {
        return this.refreshNode(node.parent);
      }
      return this.refresh();
    }
    try {
      await withViewProgress(ViewIds.tasks, async () => {
        const client = this.deps.getClient();
        if (node instanceof TaskNode) {
          node.update(await client.getTask(node.task.id));
        } else {
          this.runs.noteRecord(await client.getRun(node.runId));
        }
      });
    } catch (err) {
      this.reportError(err, `Refresh ${node.entityId}`);
      throw err;
    }
    node.forgetChildren();
    if (node instanceof TaskNode && node.unfinished) {
      this.poller.kick();
    }
    this.changed.fire(node);
  }

  /** True while a task status poll is scheduled (tests: nothing is polled while the view is hidden). */
  get polling(): boolean {
    return this.poller.scheduled;
  }

  /** The root's task rows shown now. */
  get taskNodes(): readonly TaskNode[] {
    return this.root.children?.items ?? [];
  }

  /** The root level, loaded if it was not (for reveal). Undefined when signed out. */
  async loadedRoot(): Promise<PagedList<TaskNode> | undefined> {
    if (!this.deps.isSignedIn()) {
      return undefined;
    }
    const level = this.rootLevel();
    const list = this.ensure(level);
    if (!list.started) {
      await this.loadLevel(level, list);
    }
    return list === this.root.children ? list : undefined;
  }

  /** A task's runs, loaded if they were not (for reveal). */
  async loadedRuns(task: TaskNode): Promise<PagedList<RunNode>> {
    const level = this.runsLevel(task);
    const list = this.ensure(level);
    if (!list.started) {
      await this.loadLevel(level, list);
    }
    return list;
  }

  /**
   * The task's row, put first when the loaded pages lack it (a task just created, Go to). A task
   * of another project than the one the view is limited to leaves that limit first: it is never
   * shown under "Project: <another>". Undefined when signed out meanwhile.
   */
  async showTask(root: PagedList<TaskNode>, task: TaskRecord): Promise<TaskNode | undefined> {
    if (this.scope && task.project_id !== this.scope.id) {
      this.setProjectScope(undefined);
      const all = await this.loadedRoot();
      return all && (all.find(task.id) ?? this.prependTask(all, task));
    }
    return root.find(task.id) ?? this.prependTask(root, task);
  }

  /**
   * A task the loaded rows lack that the tasks list says changed: created anywhere since the
   * rows were loaded (or past them). Shown first when the first page is loaded and it belongs
   * to the project the view is limited to; a task older than the oldest row shown waits for
   * its page.
   */
  private showNewTask(task: TaskRecord): void {
    const root = this.root.children;
    if (!root?.started || root.loading || root.find(task.id) || typeof task.id !== 'string') {
      return;
    }
    if (this.scope && task.project_id !== this.scope.id) {
      return;
    }
    // A server that makes tasks without end cannot grow the view past what a list holds.
    if (root.items.length >= DEFAULT_MAX_ITEMS) {
      return;
    }
    const oldest = root.items.at(-1)?.task.created_at;
    if (root.hasMore && oldest && task.created_at && task.created_at < oldest) {
      return;
    }
    this.prependTask(root, task);
  }

  /** Puts a task row first (a task just created that the first page did not hold). */
  prependTask(list: PagedList<TaskNode>, task: TaskRecord): TaskNode {
    const node = new TaskNode(task, this.projectLabelOf(task));
    list.prepend(node);
    this.changed.fire(undefined);
    if (node.unfinished) {
      this.poller.kick();
    }
    return list.find(node.entityId) ?? node;
  }

  /** Reveals a row (select, optionally focus and expand); failures are logged, not thrown. */
  /**
   * Starts a reveal that has to load first (a task just created, Go to): a later reveal makes it
   * stale, so a slow background reveal never takes the selection from one the person asked for
   * after it. Pass the ticket to `reveal`.
   */
  startReveal(): number {
    return ++this.reveals;
  }

  async reveal(node: TreeNode, options: { focus?: boolean; expand?: boolean; ticket?: number }): Promise<void> {
    if (options.ticket === undefined) {
      this.reveals++;
    } else if (options.ticket !== this.reveals) {
      return;
    }
    if (!this.treeView) {
      return;
    }
    try {
      await this.treeView.reveal(node, { select: true, focus: options.focus ?? false, expand: options.expand ?? true });
    } catch (err) {
      this.deps.log.warn(`Tasks: could not reveal a row: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private projectLabelOf(task: TaskRecord): string | undefined {
    const id = task.project_id;
    return typeof id === 'string' ? (this.projectLabels.get(id) ?? undefined) : undefined;
  }

  /** Names the projects of a page's tasks: at most MAX_PROJECT_LOOKUPS lookups, failures left unnamed. */
  private async lookUpProjects(tasks: readonly TaskRecord[], signal: AbortSignal): Promise<void> {
    const unknown = [
      ...new Set(tasks.map((t) => t.project_id).filter((id): id is string => typeof id === 'string' && id !== '')),
    ].filter((id) => !this.projectLabels.has(id));
    const client = this.deps.getClient();
    if (!client.getProject) {
      return;
    }
    for (const id of unknown.slice(0, MAX_PROJECT_LOOKUPS)) {
      if (this.projectLabels.size >= MAX_PROJECT_LABELS) {
        this.forgetUnknownProjects();
        if (this.projectLabels.size >= MAX_PROJECT_LABELS) {
          return;
        }
      }
      try {
        const project = await client.getProject(id, { signal });
        const name = typeof project.name === 'string' && project.name.trim() !== '' ? project.name : null;
        this.projectLabels.set(id, name);
      } catch (err) {
        if (signal.aborted) {
          throw err;
        }
        this.projectLabels.set(id, null);
        if (isApiError(err, 'not_supported') || isApiError(err, 'authentication')) {
          return;
        }
      }
    }
  }

  private forgetUnknownProjects(): void {
    for (const [id, label] of this.projectLabels) {
      if (label === null) {
        this.projectLabels.delete(id);
      }
    }
  }

  reportError(err: unknown, what: string): void {
    this.deps.log.warn(`${what}: ${describeError(err)}`);
    if (isApiError(err, 'authentication')) {
      this.deps.onAuthError(err);
    }
  }

  override dispose(): void {
    this.disposeLists();
    super.dispose();
  }

  // ---- levels ----
  private rootLevel(): Level<TaskNode> {
    return {
      owner: this.root,
      parentKey: 'tasks',
      what: 'Tasks',
      merge: (shown, incoming) => void shown.update(incoming.task),
      afterLoad: () => {
        if (this.taskNodes.some((n) => n.unfinished)) {
          this.poller.kick();
        }
      },
      fetch: async (params, signal) => {
        const scope = this.scope;
        const client = this.deps.getClient();
        const page = await client.listTasks(scope ? { ...params, project_id: scope.id } : params, { signal });
        await this.lookUpProjects(page.data, signal);
        return mapPage(page, (task) => new TaskNode(task, this.projectLabelOf(task)));
      },
    };
  }

  /** Run rows say their revision and their comments to send from now on. */
  setRunNotes(notes: RunNotesSource): void {
    this.notes = notes;
    this.own(notes.onDidChange(() => this.applyNotes()));
    this.applyNotes();
  }

  /** Puts the notes on every loaded run row (per task: revisions are counted among its runs). */
  private applyNotes(only?: PagedList<RunNode>): void {
    const notes = this.notes;
    if (!notes) {
      return;
    }
    const redraw: TreeNode[] = [];
    const lists = only ? [only] : [...this.taskNodes].map((task) => task.children).filter((l) => l !== undefined);
    for (const list of lists) {
      const records = new Map(list.items.map((n) => [n.runId, n.run]));
      // The same rule as Review Changes' revisions; this window's record of a send where the
      // server names no source.
      const revisions = revisionNumbers(
        [...records.keys()],
        (id) => sourceRunOf(records.get(id)) ?? notes.followUpOf(id),
      );
      for (const node of list.items) {
        if (node.setNotes({ revision: revisions.get(node.runId), drafts: notes.draftsOn(node.runId) })) {
          redraw.push(node);
        }
      }
    }
    if (redraw.length > 0 && !only) {
      this.changed.fire(redraw);
    }
  }

  private runsLevel(task: TaskNode): Level<RunNode> {
    return {
      owner: task,
      parent: task,
      parentKey: `task:${task.task.id}`,
      what: `Runs of ${task.task.id}`,
      emptyText: vscode.l10n.t('No runs yet'),
      merge: (shown, incoming) => void shown.update(incoming.run),
      afterLoad: (list) => {
        this.numberRuns(list);
        this.applyNotes(list);
        if (this.visible) {
          this.showLoadedRuns();
        }
      },
      fetch: async (params, signal) => {
        const page = await this.runsSource.page(task.task, params, signal);
        for (const run of page.data) {
          this.runs.noteRecord(run);
        }
        return mapPage(page, (run) => new RunNode(this.runs.get(run.id)?.record ?? run, task));
      },
    };
  }

  private artifactsLevel(run: RunNode): Level<ArtifactNode> {
    return {
      owner: run,
      parent: run,
      parentKey: `run:${run.runId}`,
      what: `Artifacts of ${run.runId}`,
      emptyText: run.unfinished ? vscode.l10n.t('No artifacts yet') : vscode.l10n.t('No artifacts'),
      merge: (shown, incoming) => void shown.update(incoming.artifact),
      fetch: async (params, signal) =>
        mapPage(
          await this.deps.getClient().listRunArtifacts(run.runId, params, { signal }),
          (a) => new ArtifactNode(a, run),
        ),
    };
  }

  private ensure<T extends TaskNode | RunNode | ArtifactNode>(level: Level<T>): PagedList<T> {
    level.owner.children ??= new PagedList<T>({
      parentKey: level.parentKey,
      generation: this.generation,
      key: (n) => n.entityId,
      merge: level.merge,
    });
    return level.owner.children;
  }

  private async childrenOf<T extends TaskNode | RunNode | ArtifactNode>(level: Level<T>): Promise<TreeNode[]> {
    const list = this.ensure(level);
    if (!list.started) {
      await this.loadLevel(level, list);
    }
    return listRows(list, { view: 'tasks', parent: level.parent, emptyText: level.emptyText });
  }

  private async rootChildren(): Promise<TreeNode[]> {
    this.firstStep('tasks view asked for rows');
    await this.deps.ready;
    if (!this.deps.isSignedIn()) {
      if (this.root.children) {
        this.reset();
      }
      this.contextKeys.clear('tasks');
      return [];
    }
    const list = this.ensure(this.rootLevel());
    if (!list.started) {
      this.firstStep('tasks list requested');
      await this.loadLevel(this.rootLevel(), list);
      this.firstStep('tasks list answered');
    }
    if (list !== this.root.children) {
      return this.rootChildren();
    } // refreshed meanwhile: answer for the new listing
    const unreachable = list.items.length === 0 && isUnreachable(list.error);
    this.contextKeys.report('tasks', { unreachable, empty: list.isEmpty });
    if (unreachable) {
      return [];
    }
    this.deps.onFirstRows?.('tasks', list.items.length);
    return listRows(list, { view: 'tasks' });
  }

  private readonly stepsTold = new Set<string>();

  private firstStep(step: string): void {
    if (this.deps.onActivationStep && !this.stepsTold.has(step)) {
      this.stepsTold.add(step);
      this.deps.onActivationStep(step);
    }
  }

  private async loadLevel<T extends TaskNode | RunNode | ArtifactNode>(
    level: Level<T>,
    list: PagedList<T>,
  ): Promise<void> {
    await withViewProgress(ViewIds.tasks, () => list.loadNext(level.fetch, this.deps.pageSize()));
    if (list.error !== undefined) {
      this.reportError(list.error, level.what);
    }
    level.afterLoad?.(list);
  }

  /** Runs are labelled by their number once the task's whole list is known ("Run 2"). */
  private numberRuns(list: PagedList<RunNode>): void {
    const total = list.hasMore ? undefined : list.items.length;
    list.items.forEach((node, index) => node.setNumber(total === undefined ? undefined : total - index));
  }

  private reset(): void {
    this.disposeLists();
    this.releaseShown();
    this.root.children = undefined;
    this.runsSource.reset();
    this.generation++;
    this.poller.update();
  }

  private disposeLists(): void {
    for (const task of this.taskNodes) {
      task.forgetChildren();
    }
    this.root.children?.dispose();
  }

  private *runNodes(): Iterable<RunNode> {
    for (const task of this.taskNodes) {
      yield* task.children?.items ?? [];
    }
  }

  // ---- run facts from the store ----
  private showLoadedRuns(): void {
    for (const node of this.runNodes()) {
      if (!this.shown.has(node.runId)) {
        this.shown.set(node.runId, this.runs.show(node.runId));
      }
    }
  }

  private releaseShown(): void {
    for (const handle of this.shown.values()) {
      handle.dispose();
    }
    this.shown.clear();
  }

  /** Redraws only the rows of the run that changed; a new run of a task reloads its run list. */
  private onRunChange(change: RunChange): void {
    const record = change.facts.record;
    if (!record) {
      return;
    }
    const redraw: TreeNode[] = [];
    for (const node of this.runNodes()) {
      if (node.runId !== record.id || !node.update(record)) {
        continue;
      }
      // Its artifacts may have changed with its status: reload them when next shown.
      if (change.statusChanged) {
        node.forgetChildren();
      }
      redraw.push(node);
    }
    if (redraw.length > 0) {
      this.changed.fire(redraw);
    }
  }
}
