// The runtime's state and operations, independent of HTTP: files, tasks, runs, artifacts, event logs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApprovalClock, ApprovalDesk } from './approvals';
import { BlobStore } from './blobStore';
import {
  type AgentEnvironment,
  type AgentProgram,
  baseSteps,
  runBuiltInAgent,
  sleep,
  STEP_COST_CENTS,
  TOOL_CALL_COST_CENTS,
} from './builtInAgent';
import { ConnectorDesk } from './connectorDesk';
import { RunEventLog, TERMINAL_EVENT_NAMES } from './eventLog';
import { badRequest, conflict, HttpError } from './httpErrors';
import { MemoryStore } from './memoryStore';
import { runProjectAgent } from './projectAgent';
import { COMMIT_PATTERN, LocalRepository, repositoryKey, withoutUserInfo } from './projectRepository';
import {
  type ApprovalRecord,
  type ArtifactRecord,
  type FilePurpose,
  type FileRecord,
  isTerminalStatus,
  type Money,
  newId,
  nowTimestamp,
  type ProjectRecord,
  type RunRecord,
  type RunStatus,
  type TaskAttachment,
  type TaskContext,
  type TaskRecord,
  type TerminalStatus,
} from './records';
import { RecordStore } from './recordStore';
import type { RuntimeReviewComment } from './reviewComments';
import { completedSteps, copiedEvents, nextStepNumber, stepIdsIn } from './runLineage';
import { addCents, budgetAboveCost, budgetReached, usageReport, usd } from './spend';
import { seedTools, ToolRegistry } from './toolRegistry';
import { WebhookDesk } from './webhookDesk';

/** What a synthetic run asks a person after its events (admin `approval`). */
export interface SyntheticApproval {
  stepId?: string;
  tool?: string;
  arguments?: Record<string, unknown>;
  reason?: string;
  /** Overrides the runtime's approvalTimeoutMs for this one. */
  expiresInMs?: number;
}

/** Kept beside a run's record (never served): how to rebuild its event log after a restart. */
export interface RunMeta {
  synthetic?: {
    events: number;
    unknownKinds: boolean;
    terminal: TerminalStatus | null;
    live: boolean;
    approval?: SyntheticApproval;
  };
  /** A resumed or forked agent run: what it inherited, so a restart can carry it on. */
  agent?: {
    doneSteps: string[];
    followUp?: { stepId: string; text: string };
    reviewComments?: RuntimeReviewComment[];
    /** A fork's own context and attachments (docs/PROTOCOL.md, Fork), in place of the task's. */
    inputs?: ForkInputs;
  };
}

/** What a fork may give its new run to work on instead of the task's (routes/runs.ts checks them). */
export interface ForkInputs {
  context?: TaskContext;
  attachments?: TaskAttachment[];
}

/** Kept beside a project's record (never served): the local repository standing in for its clone. */
export interface ProjectMeta {
  checkout?: string;
}

/** What a new task may carry besides its objective and attachments (docs/PROTOCOL.md, Projects). */
export interface TaskPlacement {
  project_id?: string;
  context?: TaskContext;
  /** The most each run of the task may spend (docs/PROTOCOL.md, Budgets). */
  budget?: Money;
}

export interface SyntheticRunOptions {
  events: number;
  terminal?: TerminalStatus | null;
  live?: boolean;
  unknownKinds?: boolean;
  taskObjective?: string;
  approval?: SyntheticApproval;
  /** The run's usage.cost amount in USD (a decimal string); without it the run carries no usage. */
  cost?: string;
}

export interface CoreSettings {
  approvalTimeoutMs: number;
  /** How far ahead of the real clock approvals expire by (tests: a restart "later"); default 0. */
  approvalClockOffsetMs?: number;
  maxAttachments: number;
  quota: Money | null;
  /** Webhooks may point at http(s)://127.0.0.1 / localhost (tests' receivers); default false. */
  allowLoopbackWebhooks?: boolean;
  /** Repository URL -> the local repository a project of it reads its commits from (see RuntimeOptions). */
  projectCheckouts?: Record<string, string>;
}

export const DEFAULT_CORE_SETTINGS: CoreSettings = {
  approvalTimeoutMs: 5 * 60 * 1000,
  maxAttachments: 100,
  quota: { amount: '100.00', currency: 'USD' },
};

export class RuntimeCore {
  readonly files: RecordStore<FileRecord>;
  readonly tasks: RecordStore<TaskRecord>;
  readonly runs: RecordStore<RunRecord, RunMeta>;
  readonly artifacts: RecordStore<ArtifactRecord>;
  readonly projects: RecordStore<ProjectRecord, ProjectMeta>;
  readonly approvals: ApprovalDesk;
  readonly blobs: BlobStore;
  readonly memory: MemoryStore;
  readonly tools: ToolRegistry;
  readonly connectors: ConnectorDesk;
  readonly webhooks: WebhookDesk;
  private readonly eventsDir: string;
  private readonly logs = new Map<string, RunEventLog>();
  private readonly working = new Map<string, { stop: AbortController; done: Promise<void> }>();
  private readonly stopAll = new AbortController();
  /** Agents waiting at their run's budget: each is let go by a raise (or stopped by a cancel). */
  private readonly budgetWaits = new Map<string, Set<() => void>>();

  /** A server without budgets still meters: every run logs usage.updated (set by the fault switches). */
  meterEveryRun: () => boolean = () => false;

  constructor(
    readonly dataDir: string,
    private readonly eventDelayMs: number,
    private readonly log: (line: string) => void,
    readonly settings: CoreSettings = DEFAULT_CORE_SETTINGS,
  ) {
    const records = path.join(dataDir, 'records');
    this.files = new RecordStore(path.join(records, 'files'));
    this.tasks = new RecordStore(path.join(records, 'tasks'), { stampUpdates: true });
    this.runs = new RecordStore(path.join(records, 'runs'), { stampUpdates: true });
    this.artifacts = new RecordStore(path.join(records, 'artifacts'));
    this.projects = new RecordStore(path.join(records, 'projects'));
    this.approvals = new ApprovalDesk(
      path.join(records, 'approvals'),
      (approval) => this.approvalSettled(approval),
      new ApprovalClock(settings.approvalClockOffsetMs),
    );
    this.blobs = new BlobStore(dataDir);
    this.memory = new MemoryStore(path.join(records, 'memory'));
    this.connectors = new ConnectorDesk(path.join(records, 'connectors'));
    this.tools = new ToolRegistry(path.join(records, 'tools'), path.join(records, 'invocations'), () =>
      seedTools({ github: this.connectors.byKind('github')?.id, slack: this.connectors.byKind('slack')?.id }),
    );
    this.webhooks = new WebhookDesk(path.join(records, 'webhooks'), settings.allowLoopbackWebhooks === true);
    this.eventsDir = path.join(dataDir, 'events');
    fs.mkdirSync(this.eventsDir, { recursive: true });
    this.recoverUnfinishedRuns();
    // After recovery, so that a run whose approval expired while the runtime was down is already
    // waiting on it and goes on as denied instead of being failed as interrupted.
    this.approvals.armPending();
  }

  // ---- files ----

  addFile(id: string, purpose: FilePurpose, filename: string, contentType: string, bytes: number): FileRecord {
    return this.files.insert({
      id,
      object: 'file',
      purpose,
      filename,
      bytes,
      content_type: contentType,
      created_at: nowTimestamp(),
    });
  }

  deleteFile(id: string): void {
    this.files.hide(id);
    this.blobs.remove(id);
  }

  // ---- tasks and runs ----

  // ---- projects ----

  /** 409 project_exists (with the existing record) when the repository already has a project. */
  createProject(name: string, url: string, defaultBranch: string | undefined): ProjectRecord {
    const key = repositoryKey(url);
    if (key === undefined) {
      throw badRequest(
        'repository.url must be a clone URL (https://host/owner/repo or git@host:owner/repo).',
        'repository.url',
      );
    }
    const existing = this.projects.all().find((p) => repositoryKey(p.repository.url) === key);
    if (existing) {
      throw conflict('project_exists', `The repository already has a project (${existing.id}).`, 'repository.url').with(
        { project: existing },
      );
    }
    return this.projects.insert(
      {
        id: newId('proj'),
        object: 'project',
        name,
        repository: { url: withoutUserInfo(url), default_branch: defaultBranch ?? 'main' },
        created_at: nowTimestamp(),
      },
      {},
    );
  }

  deleteProject(id: string): void {
    this.projects.hide(id);
  }

  /** Admin: the local git repository the project's commits are read from (tests). */
  setProjectCheckout(id: string, dir: string): void {
    const project = this.projects.get(id);
    if (!project) {
      throw new Error(`unknown project ${id}`);
    }
    this.projects.update(id, {}, { checkout: dir });
  }

  /** The project's local repository: the admin mapping, else the one configured for its URL. */
  private checkoutOf(projectId: string): string | undefined {
    const set = this.projects.meta(projectId)?.checkout;
    if (set !== undefined) {
      return set;
    }
    const url = this.projects.get(projectId)?.repository.url;
    const key = url === undefined ? undefined : repositoryKey(url);
    const configured = Object.entries(this.settings.projectCheckouts ?? {}).find(([u]) => repositoryKey(u) === key);
    return key === undefined ? undefined : configured?.[1];
  }

  /**
   * Checks project_id and context: 404 project_not_found, 400 for a malformed commit, 400
   * unknown_commit when the project's repository (its checkout) has no such commit.
   */
  async checkPlacement(placement: TaskPlacement): Promise<void> {
    const { project_id: projectId, context } = placement;
    if (projectId === undefined) {
      if (context !== undefined) {
        throw badRequest('context needs a project_id.', 'context');
      }
      return;
    }
    if (!this.projects.get(projectId)) {
      throw new HttpError(
        404,
        'invalid_request_error',
        'project_not_found',
        `No project with id ${projectId}.`,
        'project_id',
      );
    }
    const commit = context?.commit;
    if (commit === undefined) {
      return;
    }
    const checkout = this.checkoutOf(projectId);
    if (checkout !== undefined && !(await new LocalRepository(checkout).hasCommit(commit))) {
      throw badRequest(
        `The project's repository has no commit ${commit} (is it pushed?).`,
        'context.commit',
        'unknown_commit',
      );
    }
  }

  createTask(objective: string, attachments: TaskAttachment[], placement: TaskPlacement = {}): TaskRecord {
    const runId = newId('run');
    const task = this.tasks.insert({
      id: newId('task'),
      object: 'task',
      objective,
      status: 'queued',
      attachments,
      created_at: nowTimestamp(),
      run_id: runId,
      ...(placement.project_id !== undefined ? { project_id: placement.project_id } : {}),
      ...(placement.context !== undefined ? { context: placement.context } : {}),
      ...(placement.budget !== undefined ? { budget: placement.budget } : {}),
    });
    this.runs.insert(
      {
        id: runId,
        object: 'run',
        task_id: task.id,
        status: 'queued',
        created_at: task.created_at,
        usage: usd('0.00'),
        ...(placement.budget !== undefined ? { budget: placement.budget } : {}),
      },
      {},
    );
    this.startAgent(task, runId);
    return task;
  }

  /** A new run of a failed or cancelled agent run's task that goes on after its last completed step. */
  resumeRun(
    sourceId: string,
    instructions?: string,
    reviewComments: RuntimeReviewComment[] = [],
    budget?: Money,
  ): RunRecord {
    const source = this.requireRun(sourceId);
    if (source.status !== 'failed' && source.status !== 'cancelled') {
      throw conflict(
        'run_not_resumable',
        `Only a failed or cancelled run can be resumed; this one is ${source.status}.`,
      );
    }
    if (this.runs.meta(sourceId)?.synthetic) {
      throw conflict('run_not_resumable', 'A synthetic run has no agent to resume.');
    }
    const log = this.requireLog(sourceId);
    const done = new Set([...(this.runs.meta(sourceId)?.agent?.doneSteps ?? []), ...completedSteps(log)]);
    return this.startDerivedRun(
      source,
      { resumed_from: sourceId },
      done,
      [...done, ...stepIdsIn(log)],
      instructions,
      [],
      reviewComments,
      budget,
    );
  }

  /** A new run of the same task whose log starts with a copy of the source's events 1..afterSequence. */
  forkRun(
    sourceId: string,
    afterSequence: number,
    instructions?: string,
    reviewComments: RuntimeReviewComment[] = [],
    budget?: Money,
    inputs: ForkInputs = {},
  ): RunRecord {
    const source = this.requireRun(sourceId);
    const log = this.requireLog(sourceId);
    if (afterSequence > log.lastSequence) {
      throw badRequest(
        `after_sequence is past the end of the run's log (last sequence ${log.lastSequence}).`,
        'after_sequence',
        'sequence_out_of_range',
      );
    }
    const done = new Set([
      ...(this.runs.meta(sourceId)?.agent?.doneSteps ?? []),
      ...completedSteps(log, afterSequence),
    ]);
    const copied = copiedEvents(log, afterSequence);
    return this.startDerivedRun(
      source,
      { forked_from: { run_id: sourceId, sequence: afterSequence } },
      done,
      [...done, ...stepIdsIn(log, afterSequence)],
      instructions,
      copied,
      reviewComments,
      budget,
      inputs,
    );
  }

  logFor(runId: string): RunEventLog | undefined {
    const existing = this.logs.get(runId);
    if (existing) {
      return existing;
    }
    if (!this.runs.get(runId)) {
      return undefined;
    }
    const synthetic = this.runs.meta(runId)?.synthetic;
    const log = new RunEventLog(
      path.join(this.eventsDir, `${runId}.jsonl`),
      synthetic && { events: synthetic.events, unknownKinds: synthetic.unknownKinds },
    );
    this.logs.set(runId, log);
    return log;
  }

  appendEvent(runId: string, event: string, data: Record<string, unknown>): number {
    const log = this.requireLog(runId);
    if (TERMINAL_EVENT_NAMES.includes(event)) {
      const status = event.slice('run.'.length) as TerminalStatus;
      return this.endRun(runId, status, typeof data.error === 'string' ? data.error : undefined, data);
    }
    const sequence = log.append(event, data);
    this.markRunning(runId);
    return sequence;
  }

  appendRawEvent(runId: string, rawSse: string): void {
    this.requireLog(runId).appendRaw(rawSse);
  }

  /**
   * Appends the terminal event, settles the run and its task, and stops whatever worked on it.
   * A pending approval of the run expires first, so its approval.resolved precedes the end.
   */
  endRun(runId: string, status: TerminalStatus, errorMessage?: string, extra: Record<string, unknown> = {}): number {
    const log = this.requireLog(runId);
    this.approvals.expireForRun(runId);
    const sequence = log.append(`run.${status}`, {
      ...extra,
      status,
      ...(errorMessage ? { error: errorMessage } : {}),
    });
    this.setRunStatus(runId, status, {
      completed_at: nowTimestamp(),
      ...(errorMessage ? { error: { message: errorMessage } } : {}),
    });
    this.working.get(runId)?.stop.abort();
    this.tools.finish(
      runId,
      status === 'completed' ? 'succeeded' : 'failed',
      status === 'completed' ? undefined : `The run ended (${status}) during the call.`,
    );
    this.webhooks.broadcast(`run.${status}`, { run_id: runId, status, sequence });
    return sequence;
  }

  /** Ends an active run with run.cancelled; 409 run_not_active when it has already ended. */
  cancelRun(runId: string): RunRecord {
    const run = this.requireRun(runId);
    if (isTerminalStatus(run.status) || this.logFor(runId)?.ended) {
      throw conflict('run_not_active', `The run has already ended (${run.status}); there is nothing to cancel.`);
    }
    this.endRun(runId, 'cancelled');
    return this.requireRun(runId);
  }

  // ---- approvals and spend ----

  /** Opens an approval for the run, logs approval.requested and puts the run in awaiting_approval. */
  requestApproval(
    runId: string,
    stepId: string,
    tool: string,
    args: Record<string, unknown>,
    reason: string,
    timeoutMs = this.settings.approvalTimeoutMs,
  ): ApprovalRecord {
    const run = this.requireRun(runId);
    const approval = this.approvals.open({
      runId,
      taskId: run.task_id,
      stepId,
      tool,
      arguments: args,
      reason,
      timeoutMs,
    });
    this.appendEvent(runId, 'approval.requested', {
      approval_id: approval.id,
      step_id: stepId,
      tool,
      arguments: args,
      reason,
      expires_at: approval.expires_at,
    });
    this.setRunStatus(runId, 'awaiting_approval');
    return approval;
  }

  decide(approvalId: string, decision: 'approve' | 'deny', note?: string): ApprovalRecord {
    return this.approvals.decide(approvalId, decision, note);
  }

  /**
   * POST /v1/runs/{id}/budget: the run's new cap. 409 run_not_active once it ended, 409
   * budget_too_low unless above what it spent. A run waiting at its cap goes on (budget.raised).
   */
  raiseBudget(runId: string, budget: Money): RunRecord {
    const run = this.requireRun(runId);
    if (isTerminalStatus(run.status) || this.logFor(runId)?.ended) {
      throw conflict('run_not_active', `The run has already ended (${run.status}); its budget cannot change.`);
    }
    if (!budgetAboveCost(run, budget)) {
      throw conflict(
        'budget_too_low',
        `The new budget must be above what the run has spent (${run.usage?.cost.amount ?? '0.00'} ${run.usage?.cost.currency ?? 'USD'}).`,
        'amount',
      ).with({ run });
    }
    this.runs.update(runId, { budget });
    this.appendEvent(runId, 'budget.raised', { budget });
    if (run.status === 'awaiting_budget') {
      this.setRunStatus(runId, 'running');
      const waits = this.budgetWaits.get(runId);
      this.budgetWaits.delete(runId);
      waits?.forEach((go) => go());
    }
    return this.requireRun(runId);
  }

  /** Resolves at once unless the run waits at its cap; then when it is raised (rejects when stopped). */
  private withinBudget(runId: string, signal: AbortSignal): Promise<void> {
    if (this.runs.get(runId)?.status !== 'awaiting_budget') {
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waits = this.budgetWaits.get(runId) ?? new Set<() => void>();
      const go = (): void => {
        signal.removeEventListener('abort', stop);
        resolve();
      };
      const stop = (): void => {
        waits.delete(go);
        reject(signal.reason instanceof Error ? signal.reason : new Error('stopped'));
      };
      if (signal.aborted) {
        stop();
        return;
      }
      waits.add(go);
      this.budgetWaits.set(runId, waits);
      signal.addEventListener('abort', stop, { once: true });
    });
  }

  usage(): Record<string, unknown> {
    return usageReport(this.runs.all(), this.settings.quota);
  }

  async createSyntheticRun(options: SyntheticRunOptions): Promise<string> {
    const events = Math.max(0, Math.floor(options.events));
    const terminal = options.terminal === undefined ? 'completed' : options.terminal;
    const live = options.live === true;
    const runId = newId('run');
    const created = nowTimestamp();
    const task = this.tasks.insert({
      id: newId('task'),
      object: 'task',
      objective: options.taskObjective ?? `Synthetic run of ${events} events`,
      status: 'running',
      attachments: [],
      created_at: created,
      run_id: runId,
    });
    const meta: RunMeta = {
      synthetic: {
        events,
        unknownKinds: options.unknownKinds === true,
        terminal,
        live,
        ...(options.approval ? { approval: options.approval } : {}),
      },
    };
    const usage = options.cost === undefined ? {} : { usage: usd(options.cost) };
    this.runs.insert(
      {
        id: runId,
        object: 'run',
        task_id: task.id,
        status: 'running',
        created_at: created,
        started_at: created,
        ...usage,
      },
      meta,
    );
    const log = new RunEventLog(
      path.join(this.eventsDir, `${runId}.jsonl`),
      { events, unknownKinds: options.unknownKinds === true },
      live ? 0 : events,
    );
    this.logs.set(runId, log);
    if (live) {
      this.track(runId, async (signal) => {
        await this.releaseLive(runId, log, events, options.approval ? null : terminal, signal);
        if (options.approval) {
          await this.syntheticApproval(runId, options.approval, terminal, signal);
        }
      });
    } else if (options.approval) {
      const approval = options.approval;
      this.track(runId, (signal) => this.syntheticApproval(runId, approval, terminal, signal));
    } else if (terminal) {
      this.endRun(runId, terminal, terminal === 'failed' ? 'The synthetic run was told to fail.' : undefined);
    }
    return runId;
  }

  /** Stops every agent and live synthetic run and waits for them to let go of the data directory. */
  async close(): Promise<void> {
    this.stopAll.abort();
    this.approvals.close();
    await Promise.all([...this.working.values()].map((w) => w.done));
    await this.webhooks.close();
  }

  // ---- internals ----

  private requireRun(runId: string): RunRecord {
    const run = this.runs.get(runId);
    if (!run) {
      throw new Error(`unknown run ${runId}`);
    }
    return run;
  }

  /** A task shows the status of its latest run (a resume or fork takes over from its source). */
  private setRunStatus(runId: string, status: RunStatus, extra: Partial<RunRecord> = {}): void {
    const run = this.runs.update(runId, { status, ...extra });
    if (this.tasks.get(run.task_id)?.run_id === runId) {
      this.tasks.update(run.task_id, { status });
    }
  }

  private approvalSettled(approval: ApprovalRecord): void {
    const log = this.logFor(approval.run_id);
    if (!log || log.ended) {
      return;
    }
    this.appendEvent(approval.run_id, 'approval.resolved', {
      approval_id: approval.id,
      status: approval.status,
      ...(approval.note !== undefined ? { note: approval.note } : {}),
    });
    const run = this.runs.get(approval.run_id);
    if (
      run?.status === 'awaiting_approval' &&
      !this.approvals.store.all().some((a) => a.run_id === run.id && a.status === 'pending')
    ) {
      this.setRunStatus(run.id, 'running');
    }
  }

  /**
   * Adds `cents` to the run's cost. A run with a budget logs usage.updated, and at its cap
   * budget.reached and the status awaiting_budget (its agent then waits in withinBudget). On a
   * server without budgets (meterEveryRun) every run logs usage.updated and none ever pauses.
   */
  private charge(runId: string, cents: number): void {
    const run = this.runs.update(runId, { usage: addCents(this.requireRun(runId).usage, cents) });
    if ((run.budget === undefined && !this.meterEveryRun()) || this.logFor(runId)?.ended) {
      return;
    }
    this.appendEvent(runId, 'usage.updated', { cost: run.usage?.cost });
    if (run.budget !== undefined && budgetReached(run) && run.status !== 'awaiting_budget') {
      this.appendEvent(runId, 'budget.reached', { budget: run.budget, cost: run.usage?.cost });
      this.setRunStatus(runId, 'awaiting_budget');
    }
  }

  private startDerivedRun(
    source: RunRecord,
    lineage: Pick<RunRecord, 'resumed_from' | 'forked_from'>,
    done: Set<string>,
    usedStepIds: string[],
    instructions: string | undefined,
    copied: { event: string; data: Record<string, unknown> }[],
    reviewComments: RuntimeReviewComment[] = [],
    budget: Money | undefined = undefined,
    given: ForkInputs = {},
  ): RunRecord {
    const task = this.tasks.get(source.task_id);
    // A follow-up keeps what its source was given to work on, unless it is given its own.
    const inputs = { ...this.runs.meta(source.id)?.agent?.inputs, ...given };
    const hasInputs = inputs.context !== undefined || inputs.attachments !== undefined;
    if (!task) {
      throw new Error(`run ${source.id} has no task`);
    }
    const followUpText =
      instructions ?? (reviewComments.length > 0 ? `${reviewComments.length} review comment(s)` : '');
    const followUp = followUpText
      ? { stepId: `step_${nextStepNumber(usedStepIds, baseSteps(task).length)}`, text: followUpText }
      : undefined;
    const comments = reviewComments.length > 0 ? { reviewComments } : {};
    const runId = newId('run');
    const run = this.runs.insert(
      {
        id: runId,
        object: 'run',
        task_id: task.id,
        status: 'queued',
        created_at: nowTimestamp(),
        ...lineage,
        ...(inputs.context !== undefined ? { context: inputs.context } : {}),
        ...(reviewComments.length > 0 ? { follow_up_of: source.id } : {}),
        usage: usd('0.00'),
        ...((budget ?? source.budget) !== undefined ? { budget: budget ?? source.budget } : {}),
      },
      {
        agent: {
          doneSteps: [...done],
          ...(followUp ? { followUp } : {}),
          ...comments,
          ...(hasInputs ? { inputs } : {}),
        },
      },
    );
    this.tasks.update(task.id, { run_id: runId, status: 'queued' });
    for (const { event, data } of copied) {
      this.appendEvent(runId, event, data);
    }
    this.startAgent(task, runId, {
      doneSteps: done,
      followUp,
      ...comments,
      announcePlan: copied.length === 0,
      resumedFrom: lineage.resumed_from,
      reviseAgain: given.attachments !== undefined,
    });
    return this.runs.get(runId) ?? run;
  }

  private requireLog(runId: string): RunEventLog {
    const log = this.logFor(runId);
    if (!log) {
      throw new Error(`unknown run ${runId}`);
    }
    return log;
  }

  private markRunning(runId: string): void {
    const run = this.runs.get(runId);
    if (!run || run.status !== 'queued') {
      return;
    }
    this.setRunStatus(runId, 'running', { started_at: nowTimestamp() });
  }

  private track(runId: string, work: (signal: AbortSignal) => Promise<void>): void {
    const stop = new AbortController();
    const signal = AbortSignal.any([stop.signal, this.stopAll.signal]);
    const done = work(signal)
      .catch((err: unknown) => {
        if (signal.aborted) {
          return;
        }
        this.log(`run ${runId} failed inside the runtime: ${(err as Error).message}`);
        const run = this.runs.get(runId);
        if (run && !isTerminalStatus(run.status)) {
          this.endRun(runId, 'failed', 'The agent hit an internal error.');
        }
      })
      .finally(() => this.working.delete(runId));
    this.working.set(runId, { stop, done });
  }

  private startAgent(given: TaskRecord, runId: string, program?: AgentProgram, waitingApprovalId?: string): void {
    // A fork given its own context or attachments works on those instead of the task's.
    const inputs = this.runs.meta(runId)?.agent?.inputs;
    const task: TaskRecord = {
      ...given,
      ...(inputs?.context !== undefined ? { context: inputs.context } : {}),
      ...(inputs?.attachments !== undefined ? { attachments: inputs.attachments } : {}),
    };
    this.track(runId, (signal) => {
      const env: AgentEnvironment = {
        runId,
        paceMs: this.eventDelayMs,
        signal,
        openFile: (fileId) => {
          const record = this.files.get(fileId);
          return record && { record, content: () => this.blobs.openRead(fileId) };
        },
        emit: (event, data) => this.agentEvent(runId, event, data),
        recallMemory: (text) => this.memory.recall(text).map((m) => m.id),
        writeMemory: (content, tags) => this.memory.create(content, tags, undefined, { run_id: runId }).id,
        markRunning: () => this.markRunning(runId),
        finish: (status, errorMessage) => {
          this.endRun(runId, status, errorMessage);
        },
        readRevision: (fileId) => this.readRevision(runId, fileId),
        saveArtifact: (name, contentType, content, sourceFileId, extra) =>
          this.saveArtifact(runId, name, contentType, content, sourceFileId, extra),
        requestApproval: async (stepId, tool, args, reason) => {
          // After a restart the step that was waiting waits on the same approval, not a new one.
          const reused = stepId === program?.continueStep ? waitingApprovalId : undefined;
          const id = reused ?? this.requestApproval(runId, stepId, tool, args, reason).id;
          await this.approvals.wait(id, signal);
          return this.approvals.store.get(id) as ApprovalRecord;
        },
        chargeStep: () => this.charge(runId, STEP_COST_CENTS),
        withinBudget: () => this.withinBudget(runId, signal),
      };
      const checkout = task.project_id === undefined ? undefined : this.checkoutOf(task.project_id);
      const commit = task.context?.commit;
      if (checkout !== undefined && commit !== undefined && COMMIT_PATTERN.test(commit)) {
        return runProjectAgent(task, env, {
          repository: new LocalRepository(checkout),
          commit,
          ref: task.context?.ref,
          reviewComments: program?.reviewComments,
        });
      }
      return runBuiltInAgent(task, env, program);
    });
  }

  /**
   * The agent's events go through here: a tool.called gets its invocation record (the event
   * carries invocation_id; the call's `arguments` go into the record, not the event) and the
   * observation that follows is the call's output.
   */
  private agentEvent(runId: string, event: string, data: Record<string, unknown>): number {
    if (event === 'tool.called') {
      const { arguments: args, ...rest } = data;
      const log = this.requireLog(runId);
      const invocation = this.tools.begin(
        runId,
        String(rest.step_id),
        String(rest.tool),
        (args as Record<string, unknown> | undefined) ?? {},
        log.lastSequence + 1,
      );
      const sequence = this.appendEvent(runId, event, { ...rest, invocation_id: invocation.id });
      if (!this.runs.meta(runId)?.synthetic) {
        // Synthetic runs keep the cost they were given.
        this.charge(runId, TOOL_CALL_COST_CENTS);
      }
      return sequence;
    }
    if (event === 'observation.recorded' && typeof data.summary === 'string') {
      this.tools.observe(runId, String(data.step_id), data.summary);
    }
    if (event === 'memory.written') {
      this.webhooks.broadcast('memory.written', { run_id: runId, memory_id: data.memory_id });
    }
    return this.appendEvent(runId, event, data);
  }

  private async syntheticApproval(
    runId: string,
    spec: SyntheticApproval,
    terminal: TerminalStatus | null,
    signal: AbortSignal,
  ): Promise<void> {
    const stepId = spec.stepId ?? 'step_approval';
    const tool = spec.tool ?? 'write_file';
    const existing = this.approvals.store.all().find((a) => a.run_id === runId);
    const approval =
      existing ??
      this.requestApproval(
        runId,
        stepId,
        tool,
        spec.arguments ?? { path: 'output.txt' },
        spec.reason ?? 'Writes a file.',
        spec.expiresInMs ?? this.settings.approvalTimeoutMs,
      );
    const outcome = await this.approvals.wait(approval.id, signal);
    if (outcome === 'approved') {
      this.agentEvent(runId, 'tool.called', {
        tool,
        step_id: stepId,
        arguments: spec.arguments ?? { path: 'output.txt' },
      });
    } else {
      this.appendEvent(runId, 'observation.recorded', {
        step_id: stepId,
        summary: `Skipped ${tool}: the approval was ${outcome}.`,
      });
    }
    if (terminal) {
      await sleep(this.eventDelayMs, signal);
      this.endRun(runId, terminal, terminal === 'failed' ? 'The synthetic run was told to fail.' : undefined);
    }
  }

  /**
   * The newest revised copy of an attachment made by this run's lineage (the runs it forked or
   * resumed from, nearest first), as text; undefined when none made one.
   */
  private async readRevision(runId: string, fileId: string): Promise<string | undefined> {
    const seen = new Set<string>();
    let current = this.runs.get(runId);
    while (current && !seen.has(current.id) && seen.size < 100) {
      seen.add(current.id);
      const runIdNow = current.id;
      const revised = [...this.artifacts.newestFirst()]
        .map((entry) => entry.record)
        .find((a) => a.run_id === runIdNow && a.source_file_id === fileId);
      if (revised) {
        const chunks: Buffer[] = [];
        for await (const chunk of this.blobs.openRead(revised.file_id)) {
          chunks.push(chunk as Buffer);
        }
        return Buffer.concat(chunks).toString('utf8');
      }
      const parent = current.forked_from?.run_id ?? current.resumed_from;
      current = parent === undefined ? undefined : this.runs.get(parent);
    }
    return undefined;
  }

  private async saveArtifact(
    runId: string,
    name: string,
    contentType: string,
    content: string,
    sourceFileId?: string,
    extra: { base_commit?: string } = {},
  ): Promise<ArtifactRecord> {
    const fileId = newId('file');
    const bytes = await this.blobs.writeAll(fileId, content);
    this.addFile(fileId, 'artifact', name, contentType, bytes);
    return this.artifacts.insert({
      id: newId('art'),
      object: 'artifact',
      run_id: runId,
      name,
      file_id: fileId,
      bytes,
      content_type: contentType,
      created_at: nowTimestamp(),
      ...(sourceFileId ? { source_file_id: sourceFileId } : {}),
      ...(extra.base_commit ? { base_commit: extra.base_commit } : {}),
    });
  }

  private async releaseLive(
    runId: string,
    log: RunEventLog,
    events: number,
    terminal: TerminalStatus | null,
    signal: AbortSignal,
  ): Promise<void> {
    // At pace 0 whole batches go out per turn, so big live runs still finish quickly.
    const perTurn = this.eventDelayMs > 0 ? 1 : 1000;
    while (log.size < events) {
      await sleep(this.eventDelayMs, signal);
      log.release(perTurn);
    }
    if (terminal) {
      await sleep(this.eventDelayMs, signal);
      this.endRun(runId, terminal, terminal === 'failed' ? 'The synthetic run was told to fail.' : undefined);
    }
  }

  /**
   * Runs cut by a restart: agent runs waiting for approval keep waiting (nothing was lost), other
   * agent runs fail (their work in progress is gone), synthetic runs go on to their end.
   */
  private recoverUnfinishedRuns(): void {
    for (const run of this.runs.all()) {
      if (isTerminalStatus(run.status)) {
        continue;
      }
      const meta = this.runs.meta(run.id);
      const synthetic = meta?.synthetic;
      const log = this.logFor(run.id);
      if (!log || log.ended) {
        continue;
      }
      const waiting = this.approvals.store.all().find((a) => a.run_id === run.id && a.status === 'pending');
      const task = this.tasks.get(run.task_id);
      if (!synthetic) {
        if (run.status === 'awaiting_approval' && waiting && task) {
          const done = new Set([...(meta?.agent?.doneSteps ?? []), ...completedSteps(log)]);
          this.startAgent(
            task,
            run.id,
            {
              doneSteps: done,
              continueStep: waiting.step_id,
              followUp: meta?.agent?.followUp,
              reviewComments: meta?.agent?.reviewComments,
              announcePlan: false,
            },
            waiting.id,
          );
        } else {
          this.endRun(run.id, 'failed', 'The runtime restarted while this run was in progress.');
        }
      } else if (
        synthetic.approval &&
        (waiting || (synthetic.live && !this.approvals.store.all().some((a) => a.run_id === run.id)))
      ) {
        const approval = synthetic.approval;
        this.track(run.id, (signal) => this.syntheticApproval(run.id, approval, synthetic.terminal, signal));
      } else if (synthetic.live && synthetic.terminal) {
        this.endRun(run.id, synthetic.terminal);
      }
    }
  }
}
