// The API the Agent Runtime extension (agent-runtime.agent-runtime) gives other extensions.
// Shipped with the extension as dist/agentRuntimeApi.d.ts; copy it into your extension and get
// the API with:
//
//   const ext = vscode.extensions.getExtension<AgentRuntimeApi>('agent-runtime.agent-runtime');
//   const api = await ext?.activate();
//   if (api?.apiVersion === 1) { ... }
//
// Every string that comes from the service (objectives, statuses, event data, artifact names) is
// data: show it as text, never as Markdown, HTML or a command link. Approvals are decided by a
// person in VS Code; this API lets you see that one is asked (onApprovalRequested) and offers no
// way to decide it. Creating a task asks the person first, in a modal that names the objective,
// the files and the service; reading does not ask.
import type { CancellationToken, Disposable, Event, Uri } from 'vscode';

export interface AgentRuntimeApi {
  /** 1 for this shape. A later, incompatible shape gets another number; additions keep 1. */
  readonly apiVersion: 1;

  /**
   * Creates a task, uploading `files` (files of the open workspace) and attaching them. The
   * person is asked first; resolves to undefined when they decline, are not signed in, or the
   * upload or the service failed (VS Code told them why).
   */
  createTask(request: AgentRuntimeCreateTaskRequest): Promise<AgentRuntimeTask | undefined>;

  /** A run in short: its record's status, the steps planned and done, the cost, the latest events. Rejects with an AgentRuntimeError. */
  getRun(runId: string, token?: CancellationToken): Promise<AgentRuntimeRun>;

  /**
   * The run's events, each exactly once and in order (across reconnects), from after `after`
   * (default: from the first). Ends after the run's terminal event, or when disposed or the
   * token is cancelled; throws an AgentRuntimeError when the stream cannot go on.
   * Iterate it once: `for await (const e of api.watchRunEvents(runId)) { ... }`.
   */
  watchRunEvents(runId: string, options?: AgentRuntimeWatchOptions): AgentRuntimeEventStream;

  /** A run known to this window changed status (a panel's stream, a poll, a steering action). Read only. */
  readonly onDidChangeRunState: Event<AgentRuntimeRunState>;

  /** An approval is waiting for a person (newly seen in the pending list). Read only: only a person decides it. */
  readonly onApprovalRequested: Event<AgentRuntimeApprovalRequest>;

  /** The run's artifacts (at most `limit`, default 100, at most 1000). */
  listArtifacts(
    runId: string,
    options?: { limit?: number; token?: CancellationToken },
  ): Promise<AgentRuntimeArtifact[]>;

  /** Opens (or focuses) the run's panel. */
  openRunPanel(runId: string): Promise<void>;
}

export interface AgentRuntimeCreateTaskRequest {
  /** What the task should do (the person sees it before anything is sent). */
  objective: string;
  /** Workspace files to upload and attach; none by default. */
  files?: readonly Uri[];
}

export interface AgentRuntimeTask {
  readonly taskId: string;
  readonly runId?: string;
  readonly status?: string;
}

export interface AgentRuntimeRunEvent {
  /** The event's sequence in the run (1, 2, 3, ...). */
  readonly sequence: number;
  /** The event's name, e.g. "step.started", "approval.requested", "run.completed". */
  readonly event: string;
  /** The event's data as the service sent it (a copy; `sequence` included). */
  readonly data: { readonly sequence: number; readonly [field: string]: unknown };
}

export interface AgentRuntimeRun {
  readonly runId: string;
  readonly taskId?: string;
  readonly status?: string;
  readonly stepsPlanned?: number;
  readonly stepsDone: number;
  /** "0.12 USD", when the service reports a cost. */
  readonly cost?: string;
  readonly error?: string;
  readonly lastSequence: number;
  /** An approval the run waits for: decided by a person in VS Code. */
  readonly waitingApproval?: { readonly approvalId: string; readonly tool: string };
  /** The latest events in short (at most 8), oldest first. */
  readonly latestEvents: readonly { readonly sequence: number; readonly event: string; readonly text: string }[];
  /** "live": the run goes on, this is what it had done when read; "stopped": its log was too long to read whole. */
  readonly partial?: 'live' | 'stopped';
}

export interface AgentRuntimeWatchOptions {
  /** Start after this sequence (0 or more). */
  after?: number;
  token?: CancellationToken;
}

export interface AgentRuntimeEventStream extends AsyncIterable<AgentRuntimeRunEvent>, Disposable {
  readonly runId: string;
}

export interface AgentRuntimeRunState {
  readonly runId: string;
  readonly taskId?: string;
  readonly status?: string;
  /** completed, failed or cancelled (or a synonym of them). */
  readonly terminal: boolean;
}

export interface AgentRuntimeApprovalRequest {
  readonly approvalId: string;
  readonly runId?: string;
  readonly taskId?: string;
  /** The tool the agent wants to call. */
  readonly tool?: string;
  readonly reason?: string;
  readonly expiresAt?: string;
}

export interface AgentRuntimeArtifact {
  readonly artifactId: string;
  readonly runId?: string;
  readonly name?: string;
  readonly bytes?: number;
  readonly contentType?: string;
  readonly createdAt?: string;
}

/** What the API's promises reject with: `code` is the kind (not_signed_in, not_found, authentication, connection, ...). */
export interface AgentRuntimeError extends Error {
  readonly code: string;
}
