// The language model tools (agent mode, #-references in chat), as one table: what each takes,
// what it asks the person before it acts, and what it hands back. VS Code's side is
// src/languageModelTools/toolHandlers.ts (registered by toolsLoader.ts); this file needs nothing
// of vscode at run time, so the rules are unit-tested with fakes.
//
// The rules: a tool that sends or changes something (create a task, cancel, resume, fork) has a
// confirmation that names exactly what will happen (the files by name, the service's address);
// its effect runs only with the plan that confirmation showed. No tool decides an approval, and
// none can: the client they get (ToolClient) has no decision call, and approvals are a person's.
// Results carry the service's text as quoted data (src/languageModelTools/toolResult.ts).
import type * as vscode from 'vscode';
import type { ApiClient } from '../api/client';
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import { paginate } from '../api/pagination';
import type { MemoryRecord } from '../api/resourceTypes';
import { SteeringConflict } from '../api/steering';
import type { ArtifactRecord, Money, RunRecord, TaskRecord } from '../api/types';
import { formatBytes } from '../common/format';
import { markdownLiteral } from '../common/markdownLiteral';
import type { Translate } from '../common/translate';
import { isRunId } from '../runEvents/ids';
import { readRunDigest } from '../runs/readRunDigest';
import type { RunDigest } from '../runs/runDigest';
import { cutString, toolText } from './toolResult';

/** The calls the tools may make. Deliberately without decideApproval. */
export type ToolClient = Pick<
  ApiClient,
  | 'getRun'
  | 'openEventStream'
  | 'listTasks'
  | 'listRunArtifacts'
  | 'readFileContent'
  | 'cancelRun'
  | 'resumeRun'
  | 'forkRun'
  | 'listMemory'
>;

/** A workspace file a tool would send: the name shown (relative to its workspace folder) and where it is. */
export interface ToolFile {
  readonly name: string;
  readonly bytes: number;
  readonly uri: vscode.Uri;
}

export interface ToolContext {
  client(): ToolClient;
  /** The service the tools talk to, as the confirmations name it. */
  serviceUrl(): string;
  isSignedIn(): boolean;
  runs: { noteRecord(run: RunRecord): void; follow(runId: string, taskId?: string): void };
  /** Workspace files by their names; the refused ones with why (outside the workspace, a folder, a secret...). */
  resolveFiles(names: readonly string[]): Promise<{ files: ToolFile[]; refused: { name: string; reason: string }[] }>;
  /** Uploads the files through the extension's upload flow and creates the task; undefined when none was created (VS Code said why). */
  startTask(objective: string, files: readonly ToolFile[]): Promise<TaskRecord | undefined>;
  /** The cap a run started by a tool gets (agentRuntime.budget.perRun); `refused` past the monthly limit. */
  budget(): Promise<{ budget?: Money; refused?: string }>;
  t: Translate;
}

export interface PreparedTool {
  /** Shown while the tool runs (Markdown, escaped). */
  invocationMessage: string;
  /**
   * Asked before an effect; present exactly when the tool would act. `title` is plain text (a
   * checked run id at most), `message` Markdown with every outside value escaped.
   */
  confirmation?: { title: string; message: string };
  /** What the confirmation showed, handed to invoke(): the effect acts on this and nothing else. */
  plan?: unknown;
}

export interface ToolSpec {
  readonly name: string;
  /** Sends or changes something: it asks first, and acts only on a confirmed plan. */
  readonly effect: boolean;
  prepare(input: unknown, ctx: ToolContext): Promise<PreparedTool>;
  /** `plan`: what prepare() put in the confirmation the person accepted (undefined: nothing was confirmed). */
  invoke(input: unknown, ctx: ToolContext, plan: unknown, signal: AbortSignal): Promise<string>;
}

/** Files one task may take through a tool; more go through the Explorer's upload. */
export const TOOL_MAX_FILES = 20;
const OBJECTIVE_MAX_CHARS = 10_000;
const INSTRUCTIONS_MAX_CHARS = 4_000;
/** An artifact read whole only up to this size. */
const ARTIFACT_MAX_BYTES = 1024 * 1024;
/** Characters of an artifact's text handed to the model. */
export const ARTIFACT_TEXT_MAX_CHARS = 12_000;
const ARTIFACTS_LISTED = 100;
const MEMORY_QUERY_MAX_CHARS = 500;
/** Memory entries one search hands back, at most (10 unless the model asks for fewer or more). */
export const MEMORY_RESULTS_MAX = 20;
/** Characters of one memory entry's text handed back (the Memory view opens the whole entry). */
export const MEMORY_TEXT_MAX_CHARS = 600;
/** Tags of one entry handed back, and characters of one tag. */
const MEMORY_TAGS_MAX = 10;
const MEMORY_TAG_MAX_CHARS = 80;
const FILES_SHOWN = 20;

const NOT_SIGNED_IN =
  'Not signed in to the Agent Runtime service. Ask the person to run "Agent Runtime: Sign In"; no tool can sign in.';
const NOT_CONFIRMED = 'Nothing was done: this action runs only after the person confirmed it in VS Code.';
const APPROVALS_ARE_A_PERSONS =
  'Approvals are decided by a person in VS Code (the Needs You view or the run panel); no tool can approve or deny.';

// ---- inputs ----

type Input = Record<string, unknown>;

function asObject(input: unknown): Input {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Input) : {};
}

function text(input: Input, key: string, max: number): string | undefined {
  const value = input[key];
  return typeof value === 'string' && value.trim() !== '' && value.length <= max ? value : undefined;
}

function runIdOf(input: unknown): string | undefined {
  const value = asObject(input).runId;
  return isRunId(value) ? value : undefined;
}

const BAD_RUN_ID = 'Give runId: the id of a run, such as "run_abc123" (agentRuntime_listTasks lists recent ones).';

// ---- what the model gets back ----

function failure(err: unknown): string {
  if (isApiError(err, 'authentication')) {
    return 'The service refused the key. Ask the person to sign in again ("Agent Runtime: Sign In").';
  }
  if (isApiError(err, 'not_found')) {
    return toolText('The service has no such record.', { error: describeError(err) });
  }
  if (isApiError(err, 'not_supported')) {
    return toolText('This service does not offer that action.', { error: describeError(err) });
  }
  return toolText('The request to the service failed.', { error: describeError(err) });
}

function runData(run: RunRecord): Record<string, unknown> {
  return {
    runId: run.id,
    taskId: run.task_id,
    status: run.status,
    createdAt: run.created_at,
    resumedFrom: run.resumed_from,
    forkedFrom: run.forked_from,
  };
}

export function digestData(d: RunDigest): Record<string, unknown> {
  return {
    runId: d.runId,
    taskId: d.taskId,
    status: d.status,
    stepsPlanned: d.stepsPlanned,
    stepsDone: d.stepsDone,
    stepsCountedWithoutRepeatCheck: d.stepsUnchecked,
    cost: d.cost,
    error: d.error,
    lastSequence: d.lastSequence,
    waitingApproval: d.waitingApproval,
    resumedFrom: d.resumedFrom,
    forkedFrom: d.forkedFrom,
    latestEvents: d.latest,
  };
}

/**
 * A record id as our sentence may name it: only a checked run id (`run_` and the id alphabet);
 * anything else the service sent stays in the quoted data, never in our words.
 */
function runIdInSentence(value: unknown): string | undefined {
  return isRunId(value) ? value : undefined;
}

function digestSentence(d: RunDigest): string {
  const id = runIdInSentence(d.runId);
  const parts = [
    `${id !== undefined ? `Run ${id}` : 'The run'} in short (status, steps, cost, the latest ${d.latest.length} events).`,
  ];
  if (d.partial === 'live') {
    parts.push('The run is still going: this is what it had done when read; read it again later for more.');
  }
  if (d.partial === 'stopped') {
    parts.push('Its log is long: only its first events were read; the run panel in VS Code shows all of it.');
  }
  if (d.waitingApproval) {
    parts.push(`It waits for a person to decide an approval. ${APPROVALS_ARE_A_PERSONS}`);
  }
  return parts.join(' ');
}

// ---- the tools ----

const md = (value: unknown, max?: number): string => markdownLiteral(value, max);

const createTask: ToolSpec = {
  name: 'agentRuntime_createTask',
  effect: true,
  async prepare(input, ctx) {
    const t: Translate = ctx.t;
    const given = asObject(input);
    const objective = text(given, 'objective', OBJECTIVE_MAX_CHARS);
    const names = Array.isArray(given.files) ? given.files : [];
    const invocationMessage = t('Creating an Agent Runtime task');
    if (
      !ctx.isSignedIn() ||
      objective === undefined ||
      names.length > TOOL_MAX_FILES ||
      !names.every((n) => typeof n === 'string')
    ) {
      return { invocationMessage };
    }
    const resolved = await ctx.resolveFiles(names);
    if (resolved.refused.length > 0) {
      return { invocationMessage, plan: { refused: resolved.refused } };
    }
    const url = ctx.serviceUrl();
    // The whole objective and every file's whole name: the person decides on all that is sent.
    const lines = [t('Objective: {0}', md(objective, OBJECTIVE_MAX_CHARS)), ''];
    if (resolved.files.length === 0) {
      lines.push(t('No files are sent. The task is created on {0}.', md(url)));
    } else {
      lines.push(t('Uploads these {0} files to {1} and attaches them to the task:', resolved.files.length, md(url)));
      for (const file of resolved.files.slice(0, FILES_SHOWN)) {
        lines.push(`- ${md(file.name, Number.MAX_SAFE_INTEGER)} (${formatBytes(file.bytes) ?? '?'})`);
      }
    }
    lines.push('', t('The service starts a run for the task at once.'));
    return {
      invocationMessage,
      confirmation: { title: t('Create an Agent Runtime task?'), message: lines.join('\n') },
      plan: { objective, files: resolved.files },
    };
  },
  async invoke(input, ctx, plan) {
    if (!ctx.isSignedIn()) {
      return NOT_SIGNED_IN;
    }
    const given = asObject(input);
    if (text(given, 'objective', OBJECTIVE_MAX_CHARS) === undefined) {
      return `Give objective: what the task should do (at most ${OBJECTIVE_MAX_CHARS} characters).`;
    }
    if (Array.isArray(given.files) && given.files.length > TOOL_MAX_FILES) {
      return `At most ${TOOL_MAX_FILES} files per task through this tool; the person can upload more from the Explorer.`;
    }
    const refused = (plan as { refused?: { name: string; reason: string }[] } | undefined)?.refused;
    if (refused) {
      return toolText(
        'Nothing was sent: some files cannot go through this tool. Name files of the open workspace, relative to its folder.',
        { refused },
      );
    }
    const confirmed = plan as { objective: string; files: ToolFile[] } | undefined;
    if (!confirmed?.files) {
      return NOT_CONFIRMED;
    }
    const task = await ctx.startTask(confirmed.objective, confirmed.files);
    if (!task) {
      return 'No task was created: the person stopped it, or the upload or the service failed (VS Code told the person why).';
    }
    const runId = runIdInSentence(task.run_id);
    return toolText(
      `Created the task${runId !== undefined ? `; its run is ${runId}. Read it with agentRuntime_getRun` : typeof task.run_id === 'string' ? '; its run id is in the data below' : ''}.`,
      { taskId: task.id, runId: task.run_id, status: task.status, files: confirmed.files.map((f) => f.name) },
    );
  },
};

const getRun: ToolSpec = {
  name: 'agentRuntime_getRun',
  effect: false,
  async prepare(input, ctx) {
    const t: Translate = ctx.t;
    return { invocationMessage: t('Reading run {0}', md(runIdOf(input) ?? '?', 80)) };
  },
  async invoke(input, ctx, _plan, signal) {
    const runId = runIdOf(input);
    if (!runId) {
      return BAD_RUN_ID;
    }
    if (!ctx.isSignedIn()) {
      return NOT_SIGNED_IN;
    }
    try {
      const digest = await readRunDigest(ctx.client(), runId, { signal });
      return toolText(digestSentence(digest), digestData(digest));
    } catch (err) {
      return failure(err);
    }
  },
};

const listTasks: ToolSpec = {
  name: 'agentRuntime_listTasks',
  effect: false,
  async prepare(_input, ctx) {
    const t: Translate = ctx.t;
    return { invocationMessage: t('Listing recent Agent Runtime tasks') };
  },
  async invoke(input, ctx, _plan, signal) {
    if (!ctx.isSignedIn()) {
      return NOT_SIGNED_IN;
    }
    const limit = asObject(input).limit;
    const n = typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 1 && limit <= 25 ? limit : 10;
    try {
      const page = await ctx.client().listTasks({ limit: n }, { signal });
      const tasks = page.data.slice(0, n).map((task) => ({
        taskId: task.id,
        objective: task.objective,
        status: task.status,
        runId: task.run_id,
        createdAt: task.created_at,
      }));
      return toolText(`The ${tasks.length} most recent tasks, newest first.`, tasks);
    } catch (err) {
      return failure(err);
    }
  },
};

const listArtifacts: ToolSpec = {
  name: 'agentRuntime_listArtifacts',
  effect: false,
  async prepare(input, ctx) {
    const t: Translate = ctx.t;
    return { invocationMessage: t('Listing the artifacts of run {0}', md(runIdOf(input) ?? '?', 80)) };
  },
  async invoke(input, ctx, _plan, signal) {
    const runId = runIdOf(input);
    if (!runId) {
      return BAD_RUN_ID;
    }
    if (!ctx.isSignedIn()) {
      return NOT_SIGNED_IN;
    }
    try {
      const artifacts = await artifactsOf(ctx.client(), runId, ARTIFACTS_LISTED, signal);
      return toolText(
        `Run ${runId} has ${artifacts.length === ARTIFACTS_LISTED ? `at least ${ARTIFACTS_LISTED}` : artifacts.length} artifacts. Read a text one with agentRuntime_readArtifact.`,
        artifacts.map((a) => ({
          artifactId: a.id,
          name: a.name,
          bytes: a.bytes,
          contentType: a.content_type,
          createdAt: a.created_at,
        })),
      );
    } catch (err) {
      return failure(err);
    }
  },
};

async function artifactsOf(
  client: ToolClient,
  runId: string,
  max: number,
  signal: AbortSignal,
): Promise<ArtifactRecord[]> {
  const out: ArtifactRecord[] = [];
  const walk = paginate(
    (params, walkSignal) => client.listRunArtifacts(runId, params, { signal: walkSignal }),
    { limit: 100 },
    { maxItems: max, signal },
  );
  for await (const artifact of walk) {
    out.push(artifact);
  }
  return out;
}

const readArtifact: ToolSpec = {
  name: 'agentRuntime_readArtifact',
  effect: false,
  async prepare(input, ctx) {
    const t: Translate = ctx.t;
    return { invocationMessage: t('Reading an artifact of run {0}', md(runIdOf(input) ?? '?', 80)) };
  },
  async invoke(input, ctx, _plan, signal) {
    const runId = runIdOf(input);
    if (!runId) {
      return BAD_RUN_ID;
    }
    const artifactId = text(asObject(input), 'artifactId', 200);
    if (!artifactId) {
      return 'Give artifactId: an id agentRuntime_listArtifacts returned for this run.';
    }
    if (!ctx.isSignedIn()) {
      return NOT_SIGNED_IN;
    }
    try {
      // Only the run's own artifacts: the id is looked up in its list, never taken as a file id.
      const artifact = (await artifactsOf(ctx.client(), runId, 2_000, signal)).find((a) => a.id === artifactId);
      if (!artifact) {
        return `Run ${runId} has no artifact with that id (agentRuntime_listArtifacts lists them).`;
      }
      if (typeof artifact.file_id !== 'string') {
        return 'The service gave this artifact no content to read.';
      }
      const about = {
        artifactId: artifact.id,
        name: artifact.name,
        contentType: artifact.content_type,
        bytes: artifact.bytes,
      };
      if (typeof artifact.bytes === 'number' && artifact.bytes > ARTIFACT_MAX_BYTES) {
        return toolText(
          `The artifact is larger than ${ARTIFACT_MAX_BYTES / 1024} KB: too large for this tool. The person can open it in VS Code.`,
          about,
        );
      }
      const { content } = await ctx
        .client()
        .readFileContent(artifact.file_id, { maxBytes: ARTIFACT_MAX_BYTES, signal });
      if (content.indexOf(0) !== -1) {
        return toolText('The artifact is binary (it holds NUL bytes): not shown.', about);
      }
      const whole = new TextDecoder('utf-8').decode(content);
      const shown = whole.length > ARTIFACT_TEXT_MAX_CHARS ? whole.slice(0, ARTIFACT_TEXT_MAX_CHARS) : whole;
      return toolText(
        whole.length > shown.length
          ? `The artifact's first ${ARTIFACT_TEXT_MAX_CHARS} of ${whole.length} characters (text).`
          : 'The artifact (text).',
        { ...about, text: shown },
      );
    } catch (err) {
      if (isApiError(err, 'too_large')) {
        return `The artifact is larger than ${ARTIFACT_MAX_BYTES / 1024} KB: too large for this tool.`;
      }
      return failure(err);
    }
  },
};

// ---- memory (read only, where the service has it) ----

function memoryData(m: MemoryRecord): Record<string, unknown> {
  return {
    memoryId: m.id,
    text: cutString(m.content, MEMORY_TEXT_MAX_CHARS),
    tags: m.tags.slice(0, MEMORY_TAGS_MAX).map((tag) => cutString(tag, MEMORY_TAG_MAX_CHARS)),
    score: m.score,
    projectId: m.project_id,
    sourceRunId: m.source?.run_id,
    sourceSequence: m.source?.sequence,
    updatedAt: m.updated_at,
  };
}

const searchMemory: ToolSpec = {
  name: 'agentRuntime_searchMemory',
  effect: false,
  async prepare(input, ctx) {
    const t: Translate = ctx.t;
    const query = text(asObject(input), 'query', MEMORY_QUERY_MAX_CHARS);
    return { invocationMessage: t('Searching Agent Runtime memory for {0}', md(query ?? '?', 80)) };
  },
  async invoke(input, ctx, _plan, signal) {
    const given = asObject(input);
    const query = text(given, 'query', MEMORY_QUERY_MAX_CHARS);
    if (query === undefined) {
      return `Give query: the words to look for in what the service remembers (at most ${MEMORY_QUERY_MAX_CHARS} characters).`;
    }
    if (!ctx.isSignedIn()) {
      return NOT_SIGNED_IN;
    }
    const limit = given.limit;
    const n =
      typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 1 ? Math.min(limit, MEMORY_RESULTS_MAX) : 10;
    try {
      const page = await ctx.client().listMemory({ query, tag: text(given, 'tag', 200), limit: n }, { signal });
      const seen = new Set<string>();
      const entries = page.data.filter((m) => !seen.has(m.id) && seen.add(m.id)).slice(0, n);
      if (entries.length === 0) {
        return 'Nothing the service remembers matches the query.';
      }
      return toolText(
        `The ${entries.length} memory entries that match best, most relevant first (each text at most ${MEMORY_TEXT_MAX_CHARS} characters; the person can open an entry whole in the Memory view).`,
        entries.map(memoryData),
      );
    } catch (err) {
      if (isApiError(err, 'not_supported')) {
        return 'This Agent Runtime service has no memory (it does not offer the memory endpoints): there is nothing to search.';
      }
      return failure(err);
    }
  },
};

// ---- steering: cancel, resume, fork (one builder; each action says only what is its own) ----

/** What a steering tool confirmed: the run, and for a fork the event it starts after; the instructions given. */
interface SteeringPlan {
  runId: string;
  after?: number;
  instructions?: string;
  /** The new run's cap, added at invoke from the settings (never from the model's input). */
  budget?: Money;
}

interface SteeringAction {
  readonly name: string;
  /** Takes optional instructions for the new run (resume, fork). */
  readonly instructions: boolean;
  /** Needs `afterSequence` (fork): its sentence when missing. */
  readonly needsSequence?: string;
  /** The new run is followed (RunStore.follow) like one started here. */
  readonly follows: boolean;
  progress(t: Translate, runId: string): string;
  title(t: Translate, runId: string): string;
  /** The confirmation's sentence: what the service (escaped) is asked to do. */
  asks(t: Translate, service: string, plan: SteeringPlan): string;
  act(client: ToolClient, plan: SteeringPlan): Promise<RunRecord>;
  done(plan: SteeringPlan): string;
  /** The sentence for a refusal that belongs to this action; undefined: the common failure(). */
  refused(err: unknown, plan: SteeringPlan): string | undefined;
}

function steeringTool(action: SteeringAction): ToolSpec {
  /** The plan the input asks for (instructions as given), or undefined when the run or the sequence is missing. */
  const planOf = (input: unknown): SteeringPlan | undefined => {
    const runId = runIdOf(input);
    const after = sequenceOf(input);
    if (!runId || (action.needsSequence !== undefined && after === undefined)) {
      return undefined;
    }
    const instructions = text(asObject(input), 'instructions', INSTRUCTIONS_MAX_CHARS);
    return {
      runId,
      ...(action.needsSequence !== undefined ? { after } : {}),
      ...(action.instructions ? { instructions } : {}),
    };
  };
  return {
    name: action.name,
    effect: true,
    async prepare(input, ctx) {
      const t: Translate = ctx.t;
      const invocationMessage = action.progress(t, md(runIdOf(input) ?? '?', 80));
      const plan = planOf(input);
      if (!plan || !ctx.isSignedIn()) {
        return { invocationMessage };
      }
      const lines = [action.asks(t, md(ctx.serviceUrl()), plan)];
      if (plan.instructions !== undefined) {
        lines.push('', t('Instructions: {0}', md(plan.instructions, INSTRUCTIONS_MAX_CHARS)));
      }
      return {
        invocationMessage,
        confirmation: { title: action.title(t, plan.runId), message: lines.join('\n') },
        plan,
      };
    },
    async invoke(input, ctx, plan) {
      const runId = runIdOf(input);
      if (!runId) {
        return BAD_RUN_ID;
      }
      const after = sequenceOf(input);
      if (action.needsSequence !== undefined && after === undefined) {
        return action.needsSequence;
      }
      if (!ctx.isSignedIn()) {
        return NOT_SIGNED_IN;
      }
      // The confirmed plan, for this run (and event); what is sent is the plan, never the input.
      const confirmed = plan as SteeringPlan | undefined;
      if (confirmed?.runId !== runId || (action.needsSequence !== undefined && confirmed.after !== after)) {
        return NOT_CONFIRMED;
      }
      // A new run gets the person's cap; past the monthly limit only the person may start it.
      const cap = action.follows ? await ctx.budget() : {};
      if (cap.refused !== undefined) {
        return cap.refused;
      }
      try {
        const run = await action.act(ctx.client(), { ...confirmed, ...(cap.budget ? { budget: cap.budget } : {}) });
        ctx.runs.noteRecord(run);
        if (action.follows) {
          ctx.runs.follow(run.id, typeof run.task_id === 'string' ? run.task_id : undefined);
        }
        return toolText(action.done(confirmed), runData(run));
      } catch (err) {
        return action.refused(err, confirmed) ?? failure(err);
      }
    },
  };
}

const cancelRun = steeringTool({
  name: 'agentRuntime_cancelRun',
  instructions: false,
  follows: false,
  progress: (t, runId) => t('Cancelling run {0}', runId),
  title: (t, runId) => t('Cancel run {0}?', runId),
  asks: (t, service) => t('Asks {0} to stop the run. The agent stops; steps already done stay done.', service),
  act: (client, plan) => client.cancelRun(plan.runId),
  done: (plan) => `Cancelled run ${plan.runId}.`,
  refused: (err, plan) =>
    isApiError(err, 'conflict') && err.code === SteeringConflict.runNotActive
      ? `Run ${plan.runId} had already ended; nothing was cancelled.`
      : undefined,
});

const resumeRun = steeringTool({
  name: 'agentRuntime_resumeRun',
  instructions: true,
  follows: true,
  progress: (t, runId) => t('Resuming run {0}', runId),
  title: (t, runId) => t('Resume run {0}?', runId),
  asks: (t, service) =>
    t('Asks {0} for a new run that goes on from where this failed or cancelled run stopped.', service),
  act: (client, plan) =>
    client.resumeRun(plan.runId, { instructions: plan.instructions, ...(plan.budget ? { budget: plan.budget } : {}) }),
  done: (plan) => `Resumed run ${plan.runId} as a new run; read it with agentRuntime_getRun.`,
  refused: (err, plan) =>
    isApiError(err, 'conflict') && err.code === SteeringConflict.runNotResumable
      ? `Run ${plan.runId} cannot be resumed: only a failed or cancelled run can.`
      : undefined,
});

const forkRun = steeringTool({
  name: 'agentRuntime_forkRun',
  instructions: true,
  needsSequence: 'Give afterSequence: the last event (a sequence number, 1 or more) the new run keeps.',
  follows: true,
  progress: (t, runId) => t('Forking run {0}', runId),
  title: (t, runId) => t('Fork run {0}?', runId),
  asks: (t, service, plan) =>
    t(
      'Asks {0} for a new run that starts with events 1 to {1} of this run, then goes on.',
      service,
      plan.after as number,
    ),
  act: (client, plan) =>
    client.forkRun(plan.runId, {
      after_sequence: plan.after as number,
      instructions: plan.instructions,
      ...(plan.budget ? { budget: plan.budget } : {}),
    }),
  done: (plan) => `Forked run ${plan.runId} after event ${plan.after} as a new run; read it with agentRuntime_getRun.`,
  refused: (err, plan) =>
    isApiError(err, 'bad_request') && err.param === 'after_sequence'
      ? `Run ${plan.runId} has no event ${plan.after} to fork after; choose an earlier one.`
      : undefined,
});

function sequenceOf(input: unknown): number | undefined {
  const value = asObject(input).afterSequence;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : undefined;
}

/** Every tool, in the order package.json contributes them and toolNames.ts lists them (a unit test holds the three together). */
export const TOOL_SPECS: readonly ToolSpec[] = [
  createTask,
  getRun,
  listTasks,
  listArtifacts,
  readArtifact,
  cancelRun,
  resumeRun,
  forkRun,
  searchMemory,
];
