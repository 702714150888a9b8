// The runtime's state and operations, independent of HTTP: files, tasks, runs, artifacts, event logs.
import * as fs from 'fs';
import * as path from 'path';
import { BlobStore } from './blobStore';
import { runBuiltInAgent, sleep, type AgentEnvironment } from './builtInAgent';
import { RunEventLog, TERMINAL_EVENT_NAMES } from './eventLog';
import { RecordStore } from './recordStore';
import {
  isTerminalStatus,
  newId,
  nowTimestamp,
  type ArtifactRecord,
  type FilePurpose,
  type FileRecord,
  type RunRecord,
  type TaskAttachment,
  type TaskRecord,
  type TerminalStatus,
} from './records';

/** Kept beside a run's record (never served): how to rebuild its event log after a restart. */
export interface RunMeta {
  synthetic?: { events: number; unknownKinds: boolean; terminal: TerminalStatus | null; live: boolean };
}

export interface SyntheticRunOptions {
  events: number;
  terminal?: TerminalStatus | null;
  live?: boolean;
  unknownKinds?: boolean;
  taskObjective?: string;
}

export class RuntimeCore {
  readonly files: RecordStore<FileRecord>;
  readonly tasks: RecordStore<TaskRecord>;
  readonly runs: RecordStore<RunRecord, RunMeta>;
  readonly artifacts: RecordStore<ArtifactRecord>;
  readonly blobs: BlobStore;
  private readonly eventsDir: string;
  private readonly logs = new Map<string, RunEventLog>();
  private readonly working = new Map<string, { stop: AbortController; done: Promise<void> }>();
  private readonly stopAll = new AbortController();

  constructor(
    readonly dataDir: string,
    private readonly eventDelayMs: number,
    private readonly log: (line: string) => void,
  ) {
    const records = path.join(dataDir, 'records');
    this.files = new RecordStore(path.join(records, 'files'));
    this.tasks = new RecordStore(path.join(records, 'tasks'));
    this.runs = new RecordStore(path.join(records, 'runs'));
    this.artifacts = new RecordStore(path.join(records, 'artifacts'));
    this.blobs = new BlobStore(dataDir);
    this.eventsDir = path.join(dataDir, 'events');
    fs.mkdirSync(this.eventsDir, { recursive: true });
    this.recoverUnfinishedRuns();
  }

  // ---- files ----

  addFile(id: string, purpose: FilePurpose, filename: string, contentType: string, bytes: number): FileRecord {
    return this.files.insert({ id, object: 'file', purpose, filename, bytes, content_type: contentType, created_at: nowTimestamp() });
  }

  deleteFile(id: string): void {
    this.files.hide(id);
    this.blobs.remove(id);
  }

  // ---- tasks and runs ----

  createTask(objective: string, attachments: TaskAttachment[]): TaskRecord {
    const runId = newId('run');
    const task = this.tasks.insert({
      id: newId('task'),
      object: 'task',
      objective,
      status: 'queued',
      attachments,
      created_at: nowTimestamp(),
      run_id: runId,
    });
    this.runs.insert({ id: runId, object: 'run', task_id: task.id, status: 'queued', created_at: task.created_at }, {});
    this.startAgent(task, runId);
    return task;
  }

  logFor(runId: string): RunEventLog | undefined {
    const existing = this.logs.get(runId);
    if (existing) return existing;
    if (!this.runs.get(runId)) return undefined;
    const synthetic = this.runs.meta(runId)?.synthetic;
    const log = new RunEventLog(path.join(this.eventsDir, `${runId}.jsonl`), synthetic && { events: synthetic.events, unknownKinds: synthetic.unknownKinds });
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

  /** Appends the terminal event, settles the run and its task, and stops whatever worked on it. */
  endRun(runId: string, status: TerminalStatus, errorMessage?: string, extra: Record<string, unknown> = {}): number {
    const log = this.requireLog(runId);
    const sequence = log.append(`run.${status}`, { ...extra, status, ...(errorMessage ? { error: errorMessage } : {}) });
    const run = this.runs.update(runId, {
      status,
      completed_at: nowTimestamp(),
      ...(errorMessage ? { error: { message: errorMessage } } : {}),
    });
    this.tasks.update(run.task_id, { status });
    this.working.get(runId)?.stop.abort();
    return sequence;
  }

  cancelRun(runId: string): RunRecord {
    const run = this.runs.get(runId);
    if (run && !isTerminalStatus(run.status)) this.endRun(runId, 'cancelled');
    return this.runs.get(runId) as RunRecord;
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
    const meta: RunMeta = { synthetic: { events, unknownKinds: options.unknownKinds === true, terminal, live } };
    this.runs.insert({ id: runId, object: 'run', task_id: task.id, status: 'running', created_at: created, started_at: created }, meta);
    const log = new RunEventLog(path.join(this.eventsDir, `${runId}.jsonl`), { events, unknownKinds: options.unknownKinds === true }, live ? 0 : events);
    this.logs.set(runId, log);
    if (live) {
      this.track(runId, (signal) => this.releaseLive(runId, log, events, terminal, signal));
    } else if (terminal) {
      this.endRun(runId, terminal, terminal === 'failed' ? 'The synthetic run was told to fail.' : undefined);
    }
    return runId;
  }

  /** Stops every agent and live synthetic run and waits for them to let go of the data directory. */
  async close(): Promise<void> {
    this.stopAll.abort();
    await Promise.all([...this.working.values()].map((w) => w.done));
  }

  // ---- internals ----

  private requireLog(runId: string): RunEventLog {
    const log = this.logFor(runId);
    if (!log) throw new Error(`unknown run ${runId}`);
    return log;
  }

  private markRunning(runId: string): void {
    const run = this.runs.get(runId);
    if (!run || run.status !== 'queued') return;
    this.runs.update(runId, { status: 'running', started_at: nowTimestamp() });
    this.tasks.update(run.task_id, { status: 'running' });
  }

  private track(runId: string, work: (signal: AbortSignal) => Promise<void>): void {
    const stop = new AbortController();
    const signal = AbortSignal.any([stop.signal, this.stopAll.signal]);
    const done = work(signal)
      .catch((err: unknown) => {
        if (signal.aborted) return;
        this.log(`run ${runId} failed inside the runtime: ${(err as Error).message}`);
        const run = this.runs.get(runId);
        if (run && !isTerminalStatus(run.status)) this.endRun(runId, 'failed', 'The agent hit an internal error.');
      })
      .finally(() => this.working.delete(runId));
    this.working.set(runId, { stop, done });
  }

  private startAgent(task: TaskRecord, runId: string): void {
    this.track(runId, (signal) => {
      const env: AgentEnvironment = {
        runId,
        paceMs: this.eventDelayMs,
        signal,
        openFile: (fileId) => {
          const record = this.files.get(fileId);
          return record && { record, content: () => this.blobs.openRead(fileId) };
        },
        emit: (event, data) => this.appendEvent(runId, event, data),
        markRunning: () => this.markRunning(runId),
        finish: (status, errorMessage) => {
          this.endRun(runId, status, errorMessage);
        },
        saveArtifact: (name, contentType, content) => this.saveArtifact(runId, name, contentType, content),
      };
      return runBuiltInAgent(task, env);
    });
  }

  private async saveArtifact(runId: string, name: string, contentType: string, content: string): Promise<ArtifactRecord> {
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
    });
  }

  private async releaseLive(runId: string, log: RunEventLog, events: number, terminal: TerminalStatus | null, signal: AbortSignal): Promise<void> {
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

  /** Runs cut by a restart: agent runs fail (their work is gone), live synthetic runs finish. */
  private recoverUnfinishedRuns(): void {
    for (const run of this.runs.all()) {
      if (isTerminalStatus(run.status)) continue;
      const synthetic = this.runs.meta(run.id)?.synthetic;
      const log = this.logFor(run.id);
      if (!log || log.ended) continue;
      if (!synthetic) {
        this.endRun(run.id, 'failed', 'The runtime restarted while this run was in progress.');
      } else if (synthetic.live && synthetic.terminal) {
        this.endRun(run.id, synthetic.terminal);
      }
    }
  }
}
