// The @agent-runtime chat participant's handler: /task (the #file references uploaded and
// attached, after the person saw them named), /status, /runs and /review. A run /task started
// is followed in the answer (a line per step done, a progress text for the rest) up to its end,
// then summed up. Buttons open the run panel or the review; no button and no text decides an
// approval (the answer says where a person decides it). Every service string is escaped
// (src/common/markdownLiteral.ts) and every MarkdownString is untrusted, without HTML or icons.
// Loaded at the first request: the participant is registered at activation by chatLoader.ts, and
// in the bundle this file is dist/chat.js (esbuild.js LAZY_FILES), with chatText.ts.
import * as vscode from 'vscode';
import type { ApiClient } from '../api/client';
import { describeError } from '../api/errorSentences';
import { RunEventSubscription } from '../api/events';
import type { TaskRecord } from '../api/types';
import { withAbortSignal } from '../common/abortOn';
import { Commands } from '../common/ids';
import { CHAT_PARTICIPANT_ID } from '../common/ids';
import { markdownLiteral } from '../common/markdownLiteral';
import type { Translate } from '../common/translate';
import { isSingular } from '../common/vscodeTranslate';
import { isRunId } from '../runEvents/ids';
import { isTerminalStatus } from '../runEvents/runStatus';
import { readRunDigest } from '../runs/readRunDigest';
import { type RunDigest, RunDigestBuilder } from '../runs/runDigest';
import { chatErrorMessage, digestMarkdown, RunProgressLines, tasksMarkdown } from './chatText';

export type ChatClient = Pick<ApiClient, 'getRun' | 'openEventStream' | 'listTasks'>;

export interface ChatDeps {
  client(): ChatClient;
  isSignedIn(): boolean;
  runs: {
    noteStreamEvents(runId: string, lastSequence: number, lastEventName: string | undefined): void;
    stream(runId: string): { dispose(): void };
  };
  /** Creates the task: the files named to the person first, then the upload flow. Undefined: none was created. */
  startTask(objective: string, files: readonly vscode.Uri[]): Promise<TaskRecord | undefined>;
  hasReviewableChanges(runId: string): Promise<boolean>;
  log: { warn(message: string): void };
  /** How long an answer follows a run before it hands over to the run panel. */
  followLimitMs?: number;
}

/** What an answer leaves for the follow-ups and the next /status. */
export interface AgentChatMetadata {
  command: string;
  runId?: string;
}

/** Lines a followed run writes into one answer; past them only the progress text moves. */
export const FOLLOW_MAX_LINES = 40;
const FOLLOW_LIMIT_MS = 15 * 60_000;
const TASKS_LISTED = 10;

export function markdown(value: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(value);
  md.isTrusted = false;
  md.supportHtml = false;
  md.supportThemeIcons = false;
  return md;
}

export function createChatHandler(deps: ChatDeps): vscode.ChatRequestHandler {
  const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

  const runButtons = async (stream: vscode.ChatResponseStream, runId: string, finished: boolean): Promise<void> => {
    stream.button({ command: Commands.watchRun, title: vscode.l10n.t('Open Run Panel'), arguments: [{ runId }] });
    if (finished && (await deps.hasReviewableChanges(runId).catch(() => false))) {
      stream.button({
        command: Commands.reviewChanges,
        title: vscode.l10n.t('Review Changes'),
        arguments: [{ runId }],
      });
    }
  };

  const task = async (
    request: vscode.ChatRequest,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> => {
    const objective = request.prompt.trim();
    if (objective === '') {
      stream.markdown(
        markdown(
          vscode.l10n.t(
            'Say what the task should do, and reference the files it needs, for example: /task Summarise the notes #file:notes.txt',
          ),
        ),
      );
      return result('task');
    }
    const files = filesOf(request.references);
    stream.progress(
      files.length > 0
        ? isSingular(files.length)
          ? vscode.l10n.t('Uploading 1 file and creating the task...')
          : vscode.l10n.t('Uploading {0} files and creating the task...', files.length)
        : vscode.l10n.t('Creating the task...'),
    );
    const created = await deps.startTask(objective, files);
    if (!created) {
      stream.markdown(markdown(vscode.l10n.t('No task was created.')));
      return result('task');
    }
    const runId = typeof created.run_id === 'string' && isRunId(created.run_id) ? created.run_id : undefined;
    stream.markdown(markdown(`${vscode.l10n.t('Created task {0}.', markdownLiteral(created.id, 80))}\n\n`));
    if (!runId) {
      return result('task');
    }
    const digest = await follow(runId, stream, token);
    stream.markdown(markdown(`\n\n${digestMarkdown(digest, t)}`));
    await runButtons(stream, runId, isTerminalStatus(digest.status));
    return result('task', runId);
  };

  /** Streams the run's events into the answer until it ends, the person stops, or the limit passes. */
  const follow = async (
    runId: string,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<RunDigest> => {
    const client = deps.client();
    const builder = new RunDigestBuilder(await client.getRun(runId));
    const lines = new RunProgressLines(t, isSingular);
    const stop = new AbortController();
    const cancel = token.onCancellationRequested(() => stop.abort());
    const limit = setTimeout(() => stop.abort(), deps.followLimitMs ?? FOLLOW_LIMIT_MS);
    const streaming = deps.runs.stream(runId);
    const subscription = new RunEventSubscription(client, runId, { signal: stop.signal });
    let written = 0;
    let ended = false;
    try {
      for await (const batch of subscription.batches()) {
        for (const event of batch) {
          builder.add(event);
          const next = lines.next(event);
          if (next.line !== undefined && written < FOLLOW_MAX_LINES) {
            stream.markdown(markdown(`${next.line}\n\n`));
            if (++written === FOLLOW_MAX_LINES) {
              stream.markdown(markdown(`${vscode.l10n.t('More steps follow in the run panel.')}\n\n`));
            }
          } else if (next.progress) {
            stream.progress(next.progress);
          }
        }
        const last = batch[batch.length - 1];
        deps.runs.noteStreamEvents(runId, last.data.sequence, last.event);
      }
      ended = true;
    } catch (err) {
      if (!stop.signal.aborted) {
        stream.markdown(markdown(vscode.l10n.t('Following the run stopped: {0}', markdownLiteral(describeError(err)))));
      }
    } finally {
      clearTimeout(limit);
      cancel.dispose();
      streaming.dispose();
      subscription.close();
    }
    if (!ended) {
      builder.stoppedEarly('live');
    }
    // The finished record has the cost and the end time.
    if (ended) {
      try {
        const final = new RunDigestBuilder(await client.getRun(runId)).digest();
        return { ...builder.digest(), cost: final.cost ?? builder.digest().cost };
      } catch {
        // The digest of the events is enough.
      }
    }
    return builder.digest();
  };

  const status = async (
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> => {
    const runId = runIdIn(request.prompt) ?? lastRunOf(context) ?? (await newestRun(deps.client()));
    if (!runId) {
      stream.markdown(
        markdown(vscode.l10n.t('No run to show yet: name one (/status run_...) or start a task with /task.')),
      );
      return result('status');
    }
    stream.progress(vscode.l10n.t('Reading run {0}...', markdownLiteral(runId, 80)));
    const digest = await withAbortSignal(token, (signal) => readRunDigest(deps.client(), runId, { signal }));
    stream.markdown(markdown(digestMarkdown(digest, t)));
    await runButtons(stream, runId, isTerminalStatus(digest.status));
    return result('status', runId);
  };

  const runs = async (
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> => {
    const page = await withAbortSignal(token, (signal) => deps.client().listTasks({ limit: TASKS_LISTED }, { signal }));
    const tasks = page.data.slice(0, TASKS_LISTED);
    stream.markdown(markdown(tasksMarkdown(tasks, t)));
    const newest = tasks.find((task) => isRunId(task.run_id));
    return result('runs', newest?.run_id);
  };

  const review = async (
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
  ): Promise<vscode.ChatResult> => {
    const runId = runIdIn(request.prompt) ?? lastRunOf(context) ?? (await newestRun(deps.client()));
    if (!runId) {
      stream.markdown(markdown(vscode.l10n.t('No run to review yet: name one (/review run_...).')));
      return result('review');
    }
    stream.progress(vscode.l10n.t('Looking at what run {0} produced...', markdownLiteral(runId, 80)));
    if (await deps.hasReviewableChanges(runId)) {
      stream.markdown(
        markdown(
          vscode.l10n.t(
            'Run {0} produced changes to your workspace files. Review them side by side before anything is applied.',
            markdownLiteral(runId, 80),
          ),
        ),
      );
      stream.button({
        command: Commands.reviewChanges,
        title: vscode.l10n.t('Review Changes'),
        arguments: [{ runId }],
      });
    } else {
      stream.markdown(
        markdown(
          vscode.l10n.t(
            'Run {0} produced no changes to files uploaded from this workspace. Its artifacts are in the run panel.',
            markdownLiteral(runId, 80),
          ),
        ),
      );
      stream.button({ command: Commands.watchRun, title: vscode.l10n.t('Open Run Panel'), arguments: [{ runId }] });
    }
    return result('review', runId);
  };

  return async (request, context, stream, token) => {
    if (!deps.isSignedIn()) {
      stream.markdown(markdown(vscode.l10n.t('Sign in to the Agent Runtime service first.')));
      stream.button({ command: Commands.signIn, title: vscode.l10n.t('Sign In') });
      return result(request.command ?? 'help');
    }
    try {
      switch (request.command) {
        case 'task':
          return await task(request, stream, token);
        case 'status':
          return await status(request, context, stream, token);
        case 'runs':
          return await runs(stream, token);
        case 'review':
          return await review(request, context, stream);
        default:
          stream.markdown(markdown(helpText()));
          return result('help');
      }
    } catch (err) {
      if (token.isCancellationRequested) {
        return result(request.command ?? 'help');
      }
      deps.log.warn(`Chat /${request.command ?? ''} failed: ${describeError(err)}`);
      return {
        errorDetails: { message: chatErrorMessage(err, t) },
        metadata: { command: request.command ?? 'help' },
      };
    }
  };
}

function result(command: string, runId?: string): vscode.ChatResult {
  const metadata: AgentChatMetadata = runId ? { command, runId } : { command };
  return { metadata };
}

function helpText(): string {
  return [
    vscode.l10n.t('I start and follow Agent Runtime tasks. Try:'),
    '',
    vscode.l10n.t(
      '- /task Summarise the notes #file:notes.txt: uploads the referenced files (you see them named first), creates the task and follows its run',
    ),
    vscode.l10n.t('- /status: the latest run in short (or /status run_...)'),
    vscode.l10n.t('- /runs: the recent tasks'),
    vscode.l10n.t('- /review: the changes a run made to your files'),
    '',
    vscode.l10n.t('Approvals stay yours: decide them in the run panel or in Needs You.'),
  ].join('\n');
}

/** The #file references (and the file of a #selection or a location) as files to upload, once each. */
export function filesOf(references: readonly vscode.ChatPromptReference[]): vscode.Uri[] {
  const out = new Map<string, vscode.Uri>();
  for (const ref of references) {
    const value = ref.value;
    const uri = value instanceof vscode.Uri ? value : value instanceof vscode.Location ? value.uri : undefined;
    if (uri && !out.has(uri.toString())) {
      out.set(uri.toString(), uri);
    }
  }
  return [...out.values()];
}

function runIdIn(prompt: string): string | undefined {
  const match = /\brun_[A-Za-z0-9_-]{1,200}/.exec(prompt);
  return match && isRunId(match[0]) ? match[0] : undefined;
}

/** The run this participant's last answer was about. */
function lastRunOf(context: vscode.ChatContext): string | undefined {
  for (let i = context.history.length - 1; i >= 0; i--) {
    const turn = context.history[i];
    if (turn instanceof vscode.ChatResponseTurn && turn.participant === CHAT_PARTICIPANT_ID) {
      const runId = (turn.result.metadata as Partial<AgentChatMetadata> | undefined)?.runId;
      if (isRunId(runId)) {
        return runId;
      }
    }
  }
  return undefined;
}

async function newestRun(client: ChatClient): Promise<string | undefined> {
  const page = await client.listTasks({ limit: 1 });
  const runId = page.data[0]?.run_id;
  return isRunId(runId) ? runId : undefined;
}

/** Follow-ups after an answer: the run's status, its review, the recent tasks. */
export const chatFollowups: vscode.ChatFollowupProvider = {
  provideFollowups(chatResult) {
    const meta = chatResult.metadata as Partial<AgentChatMetadata> | undefined;
    const runId = isRunId(meta?.runId) ? meta.runId : undefined;
    const followups: vscode.ChatFollowup[] = [];
    if (runId && meta?.command !== 'status') {
      followups.push({ prompt: runId, command: 'status', label: vscode.l10n.t('How is the run doing?') });
    }
    if (runId && meta?.command !== 'review') {
      followups.push({ prompt: runId, command: 'review', label: vscode.l10n.t('Review what the run changed') });
    }
    if (meta?.command !== 'runs') {
      followups.push({ prompt: '', command: 'runs', label: vscode.l10n.t('Show recent tasks') });
    }
    return followups;
  },
};
