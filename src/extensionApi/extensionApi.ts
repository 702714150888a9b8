// The object activate() returns to other extensions (typed by the shipped agentRuntimeApi.d.ts).
// Reading goes straight to the service (getRun, listArtifacts, watchRunEvents through the one
// RunEventSubscription: each event once, in order); creating a task takes the path a person's
// request takes, with a modal naming what happens (src/commands/taskRequest.ts); run states and
// approval requests are read from the run store and the pending approvals list, read only.
// Nothing here decides an approval, cancels, resumes or forks: those stay with a person.
import * as vscode from 'vscode';
import type { ApiClient } from '../api/client';
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import { RunEventSubscription } from '../api/events';
import { paginate } from '../api/pagination';
import type { ApprovalRecord, ArtifactRecord, RunEvent, TaskRecord } from '../api/types';
import { abortSignalOf } from '../common/abortOn';
import { isRunId } from '../runEvents/ids';
import { readRunDigest } from '../runs/readRunDigest';
import type { RunChange } from '../runs/runStore';
import type {
  AgentRuntimeApi,
  AgentRuntimeApprovalRequest,
  AgentRuntimeArtifact,
  AgentRuntimeEventStream,
  AgentRuntimeRun,
  AgentRuntimeRunEvent,
  AgentRuntimeRunState,
  AgentRuntimeTask,
} from './agentRuntimeApi';

export interface ExtensionApiDeps {
  client(): Pick<ApiClient, 'getRun' | 'openEventStream' | 'listRunArtifacts'>;
  isSignedIn(): boolean;
  runs: { onDidChange(listener: (change: RunChange) => void): { dispose(): void } };
  approvals: { onDidChange(listener: (change: { added: readonly ApprovalRecord[] }) => void): { dispose(): void } };
  /** Asks the person (a modal naming the objective, the files and the service), then creates the task. */
  startTask(objective: string, files: readonly vscode.Uri[]): Promise<TaskRecord | undefined>;
  openRunPanel(runId: string): Promise<void>;
}

const MAX_ARTIFACTS = 1000;

class AgentRuntimeApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AgentRuntimeError';
  }
}

function apiError(err: unknown): AgentRuntimeApiError {
  if (err instanceof AgentRuntimeApiError) {
    return err;
  }
  return new AgentRuntimeApiError(isApiError(err) ? err.kind : 'error', describeError(err));
}

function checkRunId(runId: unknown): string {
  if (!isRunId(runId)) {
    throw new AgentRuntimeApiError('invalid_argument', 'runId must be a run id such as "run_abc123".');
  }
  return runId;
}

/** A deep copy the caller may keep: no live object of ours crosses to another extension. */
function copy<T>(value: T): T {
  return structuredClone(value);
}

export function createExtensionApi(deps: ExtensionApiDeps): {
  api: AgentRuntimeApi;
  disposables: { dispose(): void }[];
} {
  const runStates = new vscode.EventEmitter<AgentRuntimeRunState>();
  const approvalsAsked = new vscode.EventEmitter<AgentRuntimeApprovalRequest>();
  const disposables = [
    runStates,
    approvalsAsked,
    deps.runs.onDidChange((change) => {
      if (!change.statusChanged) {
        return;
      }
      const { facts } = change;
      runStates.fire(
        Object.freeze({ runId: facts.runId, taskId: facts.taskId, status: facts.status, terminal: facts.terminal }),
      );
    }),
    deps.approvals.onDidChange((change) => {
      for (const a of change.added) {
        approvalsAsked.fire(
          Object.freeze({
            approvalId: a.id,
            runId: stringOr(a.run_id),
            taskId: stringOr(a.task_id),
            tool: stringOr(a.tool),
            reason: stringOr(a.reason),
            expiresAt: stringOr(a.expires_at),
          }),
        );
      }
    }),
  ];

  const requireSignIn = (): void => {
    if (!deps.isSignedIn()) {
      throw new AgentRuntimeApiError('not_signed_in', 'Not signed in to the Agent Runtime service.');
    }
  };

  const api: AgentRuntimeApi = Object.freeze({
    apiVersion: 1 as const,

    async createTask(request: {
      objective: string;
      files?: readonly vscode.Uri[];
    }): Promise<AgentRuntimeTask | undefined> {
      const objective = typeof request?.objective === 'string' ? request.objective.trim() : '';
      if (objective === '') {
        throw new AgentRuntimeApiError('invalid_argument', 'A task needs an objective.');
      }
      const files = Array.isArray(request.files) ? [...request.files] : [];
      if (files.some((f) => typeof f?.scheme !== 'string' || typeof f?.path !== 'string')) {
        throw new AgentRuntimeApiError('invalid_argument', 'files must be vscode.Uri values.');
      }
      const task = await deps.startTask(objective, files);
      return task
        ? Object.freeze({ taskId: task.id, runId: stringOr(task.run_id), status: stringOr(task.status) })
        : undefined;
    },

    async getRun(runId: string, token?: vscode.CancellationToken): Promise<AgentRuntimeRun> {
      checkRunId(runId);
      requireSignIn();
      try {
        const d = await readRunDigest(deps.client(), runId, { signal: abortSignalOf(token) });
        return copy({
          runId: d.runId,
          taskId: d.taskId,
          status: d.status,
          stepsPlanned: d.stepsPlanned,
          stepsDone: d.stepsDone,
          cost: d.cost,
          error: d.error,
          lastSequence: d.lastSequence,
          waitingApproval: d.waitingApproval,
          latestEvents: d.latest,
          partial: d.partial,
        });
      } catch (err) {
        throw apiError(err);
      }
    },

    watchRunEvents(
      runId: string,
      options: { after?: number; token?: vscode.CancellationToken } = {},
    ): AgentRuntimeEventStream {
      checkRunId(runId);
      requireSignIn();
      let subscription: RunEventSubscription;
      try {
        subscription = new RunEventSubscription(deps.client(), runId, {
          after: options.after,
          signal: abortSignalOf(options.token),
        });
      } catch (err) {
        throw apiError(err);
      }
      return eventStream(runId, subscription);
    },

    onDidChangeRunState: runStates.event,
    onApprovalRequested: approvalsAsked.event,

    async listArtifacts(
      runId: string,
      options: { limit?: number; token?: vscode.CancellationToken } = {},
    ): Promise<AgentRuntimeArtifact[]> {
      checkRunId(runId);
      requireSignIn();
      const limit =
        typeof options.limit === 'number' && Number.isSafeInteger(options.limit) && options.limit > 0
          ? Math.min(options.limit, MAX_ARTIFACTS)
          : 100;
      const out: AgentRuntimeArtifact[] = [];
      try {
        // The shared bounded pager: endless or repeated cursors and empty pages end the walk.
        const walk = paginate(
          (params, walkSignal) => deps.client().listRunArtifacts(runId, params, { signal: walkSignal }),
          { limit: Math.min(100, limit) },
          { maxItems: limit, signal: abortSignalOf(options.token) },
        );
        for await (const artifact of walk) {
          out.push(artifactOf(artifact));
        }
      } catch (err) {
        throw apiError(err);
      }
      return copy(out);
    },

    async openRunPanel(runId: string): Promise<void> {
      await deps.openRunPanel(checkRunId(runId));
    },
  });

  return { api, disposables };
}

/** The subscription as the API's stream: events copied, errors as AgentRuntimeErrors, iterated once. */
function eventStream(runId: string, subscription: RunEventSubscription): AgentRuntimeEventStream {
  const events = subscription[Symbol.asyncIterator]();
  let taken = false;
  const iterator: AsyncIterator<AgentRuntimeRunEvent> = {
    next: async () => {
      try {
        const next = await events.next();
        return next.done ? { done: true, value: undefined } : { done: false, value: eventOf(next.value) };
      } catch (err) {
        throw apiError(err);
      }
    },
    return: async () => {
      subscription.close();
      return { done: true, value: undefined };
    },
  };
  return Object.freeze({
    runId,
    [Symbol.asyncIterator]: () => {
      // One consumer: a second loop over the same stream would split the events between them.
      if (taken) {
        throw new AgentRuntimeApiError(
          'already_iterated',
          'A run event stream is iterated once; call watchRunEvents again for another.',
        );
      }
      taken = true;
      return iterator;
    },
    dispose: () => subscription.close(),
  });
}

function eventOf(e: RunEvent): AgentRuntimeRunEvent {
  const data = copy(e.data);
  return Object.freeze({ sequence: e.data.sequence, event: e.event, data: Object.freeze(data) });
}

function artifactOf(a: ArtifactRecord): AgentRuntimeArtifact {
  return {
    artifactId: a.id,
    runId: stringOr(a.run_id),
    name: stringOr(a.name),
    bytes: typeof a.bytes === 'number' ? a.bytes : undefined,
    contentType: stringOr(a.content_type),
    createdAt: stringOr(a.created_at),
  };
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
