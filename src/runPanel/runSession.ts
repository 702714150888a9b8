// One watched run on the host: owns the event subscription, the compacted model, the run's whole
// log on disk (src/runLog), the run's facts and artifacts, and feeds the webview through a
// PanelChannel. No vscode import, so node tests drive it with a fake subscription and client.
import type { ArtifactRecord, Page, PageParams, RunRecord, TaskRecord } from '../api/types';
import { fill } from '../common/format';
import type { Logger } from '../common/logger';
import { DEFAULT_LIMITS, RunModel } from '../runEvents/runModel';
import { isTerminalEvent, statusAfterEvent } from '../runEvents/runStatus';
import { newestOwnEventName, noteSpendEvent, type SpendSeen } from '../runEvents/spendMeter';
import { costText, nextApproval } from '../runEvents/steeringInfo';
import type { ApprovalCardView, RunSnapshot, WireEvent } from '../runEvents/wire';
import type { ExportFormat, ExportOptions } from '../runLog/logExport';
import type { LogFolderLimits } from '../runLog/logFolder';
import { RunLog } from '../runLog/runLog';
import { batchesOf, type EventSource, type SubscriptionState } from './eventSource';
import { fullEvent } from './fullEvent';
import { type LogRequest, LogRequests } from './logRequests';
import type { PanelChannelOptions } from './panelChannel';
import { PanelChannel } from './panelChannel';
import {
  type ArtifactsView,
  type ConnectionView,
  type HostMessage,
  receivedMoney,
  type RunInfo,
  type UiStrings,
} from './protocol';
import { listArtifacts } from './runArtifacts';
import type { SteeringSupport } from './steeringSupport';
import { steeringSupport } from './steeringSupport';

export type { EventSource, SubscriptionState } from './eventSource';

/** The client calls the panel makes (ApiClient has them). */
export interface RunPanelClient {
  getRun(id: string, opts?: { signal?: AbortSignal }): Promise<RunRecord>;
  getTask(id: string, opts?: { signal?: AbortSignal }): Promise<TaskRecord>;
  listRunArtifacts(runId: string, params?: PageParams, opts?: { signal?: AbortSignal }): Promise<Page<ArtifactRecord>>;
}

export interface RunSessionDeps {
  runId: string;
  objective?: string;
  /** A compacted model to start from (a panel restored after a window reload). */
  restored?: RunSnapshot;
  /** Asked on each use: signing in again may replace the client. */
  client(): RunPanelClient;
  /** Opens the resumable stream after a sequence (RunEventSubscription in the extension). */
  subscribe(after: number, onState: (state: SubscriptionState) => void, signal: AbortSignal): EventSource;
  post(message: HostMessage): void;
  strings: UiStrings;
  describeError(err: unknown): string;
  isSignInError(err: unknown): boolean;
  log: Logger;
  /** After each batch of new events: the highest sequence and the last event's name (the RunStore's input). */
  onEvents?(lastSequence: number, lastEventName: string | undefined): void;
  /** After a batch that held spend events: the newest cost and cap as received (the RunStore's input). */
  onSpend?(spend: Readonly<SpendSeen>): void;
  /** Once, when the run is known to have ended, with its final status. */
  onStatus?(status: string): void;
  /** The run's objective, once known (the panel's title). */
  onObjective?(objective: string): void;
  now?: () => number;
  channel?: PanelChannelOptions;
  /** Where the run's whole log is kept (the extension's global storage + '/run-logs'); without it only the bounded model. */
  logFolder?: string;
  /** The service's normalised base URL when the panel opened: its run's log is kept under it, and steering is known per service. */
  service?: string;
  /**
   * The service the client talks to now (asked per connection, state and batch). When it is no
   * longer `service` (the base URL changed), the session stops its stream with a message and
   * takes nothing more from the client: the run, its model and its log belong to `service`.
   */
  currentService?(): string | undefined;
  /** Which services do not offer steering (the extension host's one registry unless a test gives its own). */
  steering?: SteeringSupport;
  logLimits?: LogFolderLimits;
}

export class RunSession {
  readonly runId: string;
  private readonly model: RunModel;
  private readonly channel: PanelChannel;
  private info: RunInfo;
  private readonly stopSteeringWatch: () => void;
  private connection: ConnectionView = { state: 'connecting' };
  private artifacts: ArtifactsView = { state: 'none' };
  private readonly artifactRecords = new Map<string, ArtifactRecord>();
  private source: EventSource | undefined;
  private abort: AbortController | undefined;
  private generation = 0;
  private artifactsRequested = false;
  private disposed = false;
  /** Cancels the run, task and artifact requests when the panel closes. */
  private readonly requests = new AbortController();
  private readonly now: () => number;
  private runLog: RunLog | undefined;
  private lastBatchAt = 0;
  private backfillFailed = false;
  /** Resolves once the log on disk is open (or known unavailable). */
  logReady: Promise<void> = Promise.resolve();
  private readonly logRequests: LogRequests;
  /** The newest cost and cap: from the run's spend events, else from its record (docs/PROTOCOL.md, Budgets). */
  private readonly spend: SpendSeen = {};
  private spendFromEvents = false;

  constructor(private readonly deps: RunSessionDeps) {
    this.runId = deps.runId;
    this.now = deps.now ?? Date.now;
    this.model = new RunModel(deps.runId, DEFAULT_LIMITS, deps.restored);
    this.info = { runId: deps.runId, objective: deps.objective };
    const support = deps.steering ?? steeringSupport;
    if (!support.offered(deps.service)) {
      this.info.steering = false;
    }
    this.stopSteeringWatch = support.onNotOffered((service) => {
      if (service === deps.service && this.info.steering !== false && !this.disposed) {
        this.setInfo({ ...this.info, steering: false });
      }
    });
    this.channel = new PanelChannel(deps.post, () => this.resetMessage(), this.now, deps.channel);
    this.logRequests = new LogRequests({
      log: () => (this.runLog?.usable ? this.runLog : undefined),
      recent: () => this.model.snapshot({ steps: 0 }).recent,
      reply: (message) => this.channel.reply(message),
      warn: (message) => deps.log.warn(`Run panel ${this.runId}: ${message}`),
      signal: this.requests.signal,
    });
  }

  /** The service the run belongs to, as when the panel opened. */
  get service(): string | undefined {
    return this.deps.service;
  }

  get lastSequence(): number {
    return this.model.lastSequence;
  }

  get connectionState(): ConnectionView {
    return this.connection;
  }

  start(): void {
    void this.loadInfo();
    const folder = this.deps.logFolder;
    if (!folder) {
      return this.connect();
    }
    // The stream starts where the log on disk ends (or the model, if that is further back).
    this.logReady = RunLog.open(folder, this.runId, {
      log: this.deps.log,
      limits: this.deps.logLimits,
      service: this.deps.service,
    }).then((log) => {
      if (this.disposed) {
        return void log?.close();
      }
      this.runLog = log;
      this.noteLogCapped();
      this.stopStream();
      this.connect();
    });
  }

  /** Events of the whole log (or the model's newest, without one) the webview asked for. */
  answer(message: LogRequest): Promise<void> {
    // Asked before the log on disk is open: wait for it rather than answer from the model.
    return this.logReady.then(() => this.logRequests.handle(message));
  }

  /**
   * True once the log on disk holds every event the stream has delivered, or all it ever will (it
   * reached its size limit: logCappedAfter), and it is usable.
   */
  get logComplete(): boolean {
    return (
      !!this.runLog?.usable &&
      (this.runLog.cappedAfter !== undefined || this.runLog.lastSequence >= this.model.lastSequence)
    );
  }

  /** The last sequence the log on disk keeps once it reached its size limit; undefined while it has room. */
  get logCappedAfter(): number | undefined {
    return this.runLog?.usable ? this.runLog.cappedAfter : undefined;
  }

  /** Why the log on disk cannot hold the whole run (once it was opened); undefined while it can. */
  get logProblem(): string | undefined {
    if (!this.runLog?.usable) {
      return "The run's log is not kept on disk";
    }
    return this.backfillFailed ? "The run's log could not be read again from the server" : undefined;
  }

  /** Milliseconds since the stream last delivered a batch (a replay in progress delivers them back to back). */
  get quietForMs(): number {
    return this.now() - this.lastBatchAt;
  }

  /** The whole run to `target`; without a usable log on disk, an error the caller shows. */
  exportLog(format: ExportFormat, target: string, options?: ExportOptions): Promise<number> {
    const problem = this.logProblem;
    if (problem !== undefined || !this.runLog) {
      return Promise.reject(new Error(problem));
    }
    return this.runLog.export(
      format,
      target,
      { runId: this.runId, objective: this.info.objective, status: this.info.status },
      options,
    );
  }

  webviewReady(): void {
    this.channel.markReady();
  }

  webviewGone(): void {
    this.channel.markGone();
  }

  /** The webview took a batch: the channel may send the next ones. */
  webviewAck(batch: number): void {
    this.channel.ack(batch);
  }

  /** One event whole, read again from the server's log (the model keeps events cut to a budget). */
  async fullEvent(sequence: number): Promise<{ event: string; data: WireEvent['data'] } | undefined> {
    // Kept whole on disk (not cut to the budget): no need to ask the server.
    const kept = await this.runLog?.event(sequence).catch(() => undefined);
    if (kept && kept.truncatedBytes === undefined) {
      return { event: kept.event, data: kept.data };
    }
    const moved = this.movedTo();
    if (moved !== undefined) {
      throw new Error(this.serviceChangedText(moved));
    }
    return fullEvent((after, signal) => this.deps.subscribe(after, () => undefined, signal), sequence, {
      signal: this.requests.signal,
    });
  }

  setObjective(objective: string | undefined): void {
    if (!objective || objective === this.info.objective) {
      return;
    }
    this.setInfo({ ...this.info, objective });
  }

  /** How many review comments on this run wait to be sent (the header's "Send N Comments..."). */
  setDraftComments(count: number): void {
    if (this.disposed || count === (this.info.draftComments ?? 0)) {
      return;
    }
    this.setInfo({ ...this.info, draftComments: count });
  }

  /** A cancel was accepted: "Cancelling…" until the terminal event. */
  markCancelling(): void {
    if (!this.model.ended) {
      this.setInfo({ ...this.info, cancelling: true });
    }
  }

  /** A fresh stream after the last sequence seen (the header's Retry). */
  retry(): void {
    if (this.disposed) {
      return;
    }
    this.stopStream();
    if (this.model.ended) {
      this.artifactsRequested = false;
    }
    this.connect();
  }

  artifact(id: string): ArtifactRecord | undefined {
    return this.artifactRecords.get(id);
  }

  dispose(): void {
    this.disposed = true;
    this.stopSteeringWatch();
    this.requests.abort();
    this.stopStream();
    this.channel.dispose();
    void this.runLog?.close();
  }

  /**
   * The service the client talks to now, when it is no longer the one this panel opened with
   * (the base URL changed): this session's run, model and log belong to the first one, so
   * nothing of the new one may reach them. Undefined while it is the same, when the session
   * was opened without a known service, or while the new base URL is unusable (the client's own
   * error says so then).
   */
  private movedTo(): string | undefined {
    const bound = this.deps.service;
    const now = bound === undefined ? undefined : this.deps.currentService?.();
    return now !== undefined && now !== bound ? now : undefined;
  }

  private serviceChangedText(now: string): string {
    return fill(this.deps.strings.serviceChanged, now, this.runId, this.deps.service ?? '');
  }

  /** The client for this run's service; an error instead of another service's client. */
  private client(): RunPanelClient {
    const moved = this.movedTo();
    if (moved !== undefined) {
      throw new Error(this.serviceChangedText(moved));
    }
    return this.deps.client();
  }

  /**
   * The base URL changed under an open panel: its stream stops with a message (Retry connects
   * again once the base URL is back; a panel for the run of the new service is opened after
   * closing this one). Another service's events never reach this model, log or store.
   */
  private stopForOtherService(now: string): void {
    this.stopStream();
    if (this.connection.state === 'failed' && this.connection.message === this.serviceChangedText(now)) {
      return;
    }
    this.deps.log.info(
      `Run panel ${this.runId}: the service changed from ${this.deps.service ?? ''} to ${now}; the panel stops following the run`,
    );
    this.setConnection({ state: 'failed', message: this.serviceChangedText(now), signInNeeded: false });
  }

  private connect(): void {
    const moved = this.movedTo();
    if (moved !== undefined) {
      return this.stopForOtherService(moved);
    }
    // A log on disk behind the model (new, or deleted as damaged) is filled from the server's;
    // one at its size limit takes nothing more.
    const after =
      this.runLog?.usable && this.runLog.cappedAfter === undefined
        ? Math.min(this.runLog.lastSequence, this.model.lastSequence)
        : this.model.lastSequence;
    const backfill = this.model.ended;
    if (backfill) {
      this.setConnection({ state: 'ended', status: this.model.terminalEvent?.status ?? '' });
      void this.loadArtifacts();
      if (after >= this.model.lastSequence) {
        return;
      }
    }
    const generation = ++this.generation;
    const abort = new AbortController();
    this.abort = abort;
    if (!backfill) {
      this.setConnection({ state: 'connecting' });
    }
    const onState = (state: SubscriptionState) => {
      if (generation !== this.generation || this.disposed) {
        return;
      }
      const moved = this.movedTo();
      if (moved !== undefined) {
        return this.stopForOtherService(moved);
      }
      // Filling the log of an ended run: the header already says ended; only failures matter.
      if (!backfill) {
        this.onSubscriptionState(state);
      } else if (state.state === 'failed') {
        this.backfillFailed = true;
        this.deps.log.warn(
          `Run panel ${this.runId}: the log could not be read again: ${this.deps.describeError(state.error)}`,
        );
      }
    };
    let source: EventSource;
    try {
      source = this.deps.subscribe(after, onState, abort.signal);
    } catch (err) {
      this.fail(err);
      return;
    }
    this.source = source;
    void this.consume(source, generation);
  }

  private async consume(source: EventSource, generation: number): Promise<void> {
    try {
      for await (const batch of batchesOf(source)) {
        if (generation !== this.generation || this.disposed) {
          return;
        }
        // A reconnect after a base URL change reached the other service: none of its events are this run's.
        const moved = this.movedTo();
        if (moved !== undefined) {
          return this.stopForOtherService(moved);
        }
        const receivedAt = (this.lastBatchAt = this.now());
        const wire: WireEvent[] = batch.map((event) => ({ event: event.event, data: event.data, receivedAt }));
        const inStep = this.logComplete;
        const accepted = this.model.apply(wire);
        // In step, the model's accepted events (already cut) are the log's; behind, the log takes what the model repeats.
        this.runLog?.append(inStep ? accepted : wire, inStep);
        this.channel.events(accepted);
        // One assignment per spend event: the webview checks and draws the newest at its own pace.
        let spent = false;
        for (const event of accepted) {
          spent = noteSpendEvent(this.spend, this.runId, event) || spent;
        }
        if (spent) {
          this.spendFromEvents = true;
          this.deps.onSpend?.(this.spend);
        }
        const approval = nextApproval(this.info.approval ?? undefined, accepted) ?? null;
        if (approval !== (this.info.approval ?? null)) {
          this.setInfo({ ...this.info, approval });
        }
        // Where the run is, by its newest event about itself (a budget event naming another run is not).
        if (accepted.length > 0) {
          const own = newestOwnEventName(this.runId, accepted);
          this.deps.onEvents?.(this.model.lastSequence, own);
          // The header says so too: paused at its cap or waiting for an approval, not "running".
          const live = own === undefined || isTerminalEvent(own) ? undefined : statusAfterEvent(own);
          if (live !== undefined && live !== this.info.status && !this.model.ended) {
            this.setInfo({ ...this.info, status: live });
          }
        }
        if (accepted.length > 0 && this.model.ended) {
          this.onEnded();
        }
        // An ended run's stream only filled the log: at its size limit there is nothing left to read.
        if (this.noteLogCapped() && this.model.ended) {
          return this.stopStream();
        }
      }
      if (generation !== this.generation || this.disposed) {
        return;
      }
      if (this.model.ended) {
        this.onEnded();
      }
    } catch (err) {
      if (generation !== this.generation || this.disposed) {
        return;
      }
      this.fail(err);
    }
  }

  /** Tells the webview once when the log reached its size limit; true while it is at it. */
  private noteLogCapped(): boolean {
    const capped = this.logCappedAfter;
    if (capped === undefined) {
      return false;
    }
    if (this.info.logCappedAfter !== capped) {
      this.setInfo({ ...this.info, logCappedAfter: capped });
    }
    return true;
  }

  private onSubscriptionState(state: SubscriptionState): void {
    switch (state.state) {
      case 'failed':
        this.fail(state.error);
        return;
      case 'ended':
        this.onEnded(state.status);
        return;
      default:
        this.setConnection(state);
    }
  }

  private onEnded(status?: string): void {
    if (this.connection.state === 'ended') {
      return;
    }
    const terminal = this.model.terminalEvent;
    const finalStatus = terminal?.status ?? status ?? '';
    this.setConnection({ state: 'ended', status: finalStatus });
    this.setInfo({ ...this.info, status: finalStatus || this.info.status, cancelling: false, approval: null });
    if (finalStatus) {
      this.deps.onStatus?.(finalStatus);
    }
    void this.loadArtifacts();
    void this.loadInfo();
  }

  private fail(err: unknown): void {
    if (this.connection.state === 'failed') {
      return;
    }
    const message = this.deps.describeError(err);
    this.deps.log.warn(`Run panel ${this.runId}: the event stream stopped: ${message}`);
    this.setConnection({ state: 'failed', message, signInNeeded: this.deps.isSignInError(err) });
  }

  private stopStream(): void {
    this.generation++;
    this.abort?.abort();
    this.abort = undefined;
    this.source?.close();
    this.source = undefined;
  }

  private async loadInfo(): Promise<void> {
    try {
      const run = await this.client().getRun(this.runId, { signal: this.requests.signal });
      if (this.disposed) {
        return;
      }
      // Fields the server may send in any shape: only strings reach the header.
      const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
      const next: RunInfo = {
        ...this.info,
        status: this.model.ended ? (this.info.status ?? text(run.status)) : (text(run.status) ?? this.info.status),
        startedAt: text(run.started_at) ?? text(run.created_at) ?? this.info.startedAt,
        completedAt: text(run.completed_at) ?? this.info.completedAt,
        cost: costText(run) ?? this.info.cost,
      };
      // Events are newer than a record read while the run goes on; the record read after its end is the last word.
      if (!this.spendFromEvents || this.model.ended) {
        const usage = (run as { usage?: { cost?: unknown } }).usage;
        if (run.budget !== undefined) {
          this.spend.cap = run.budget;
        }
        if (usage?.cost !== undefined) {
          this.spend.cost = usage.cost;
        }
      }
      this.setInfo(next);
      const taskId = text(run.task_id);
      if (!next.objective && taskId) {
        const objective = text((await this.client().getTask(taskId, { signal: this.requests.signal })).objective);
        if (!this.disposed && objective) {
          this.setInfo({ ...this.info, objective });
        }
      }
    } catch (err) {
      // The header degrades to what the events tell; the stream reports its own failures.
      this.deps.log.warn(`Run panel ${this.runId}: could not read the run: ${this.deps.describeError(err)}`);
    }
  }

  private async loadArtifacts(): Promise<void> {
    if (this.artifactsRequested || this.disposed) {
      return;
    }
    this.artifactsRequested = true;
    this.setArtifacts({ state: 'loading' });
    try {
      const listed = await listArtifacts(
        (params, signal) => this.client().listRunArtifacts(this.runId, params, { signal }),
        () => this.disposed,
        this.requests.signal,
      );
      if (!listed || this.disposed) {
        return;
      }
      this.artifactRecords.clear();
      for (const record of listed.records) {
        this.artifactRecords.set(record.id, record);
      }
      this.setArtifacts(listed.view);
    } catch (err) {
      if (this.disposed) {
        return;
      }
      const message = this.deps.describeError(err);
      this.deps.log.warn(`Run panel ${this.runId}: could not list the artifacts: ${message}`);
      this.artifactsRequested = false;
      this.setArtifacts({ state: 'failed', message });
    }
  }

  private setConnection(connection: ConnectionView): void {
    this.connection = connection;
    this.channel.send({ type: 'connection', connection });
  }

  /** The tool call the card shows (the last approval.requested not yet resolved), if any. */
  get approvalCard(): ApprovalCardView | undefined {
    return this.info.approval ?? undefined;
  }

  private setInfo(info: RunInfo): void {
    if (info.objective && info.objective !== this.info.objective) {
      this.deps.onObjective?.(info.objective);
    }
    this.info = info;
    this.channel.send({ type: 'info', info: this.withSpend(info) });
  }

  /** The info as sent: with the newest cost and cap (an info message is rare; a spend event sends none). */
  private withSpend(info: RunInfo): RunInfo {
    return { ...info, budget: receivedMoney(this.spend.cap) ?? null, spent: receivedMoney(this.spend.cost) ?? null };
  }

  private setArtifacts(artifacts: ArtifactsView): void {
    this.artifacts = artifacts;
    this.channel.send({ type: 'artifacts', artifacts });
  }

  private resetMessage(): HostMessage {
    return {
      type: 'reset',
      snapshot: this.model.snapshot(),
      info: this.withSpend(this.info),
      connection: this.connection,
      artifacts: this.artifacts,
      strings: this.deps.strings,
    };
  }
}
