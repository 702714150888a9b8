// "Send N Comments to the Agent...": the whole of what goes out is shown first (every comment
// with its file, lines and quote, the overall instruction, the run it continues and how, the
// service), in a read-only document beside a modal; on confirm one follow-up run starts. A
// finished run is forked after its last step; a failed or cancelled one is resumed. The
// Idempotency-Key is kept across a retry of the same body (a retry never starts two runs); a failed send keeps
// every draft; a 409 says why and offers the other way.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { RunEventSubscription } from '../api/events';
import type { ForkInputs, ReviewCommentBody } from '../api/steering';
import { SteeringConflict } from '../api/steering';
import type { Money, RunRecord } from '../api/types';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { questionSkipped } from '../commandSupport/questionSkip';
import { resolveRun } from '../commandSupport/runArgs';
import { formatShortLocalTime, shortenText } from '../common/format';
import { Commands } from '../common/ids';
import { inert } from '../common/inertText';
import { askModal } from '../common/notify';
import { vscodeTranslate } from '../common/vscodeTranslate';
import { batchProblem, type CommentInstructions, commentInstructions, toWire } from '../reviewComments/reviewComments';
import { parseReviewUri } from '../reviewUi/reviewContent';
import { revisionsOf } from '../reviewUi/revisions';
import { isResumableStatus, isTerminalEvent, isTerminalStatus } from '../runEvents/runStatus';
import type { RunStore } from '../runs/runStore';
import type { CommentDrafts, StoredComment } from './commentDrafts';
import type { CommentFates } from './commentFates';
import type { CommentThreads } from './commentThreads';
import { SendKeys } from './sendKeys';

export const SEND_PREVIEW_SCHEME = 'agent-runtime-comments';

/** How the follow-up continues the run. */
export type FollowUpWay = { kind: 'fork'; afterSequence: number } | { kind: 'resume' };

export interface SendResult {
  runId: string;
  followUpRunId: string;
  way: FollowUpWay['kind'];
  comments: number;
}

/** The read-only preview documents (one per send, kept until the window closes; at most 20). */
export class SendPreviews implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? vscode.l10n.t('This preview is gone; send again to see it.');
  }

  put(text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: SEND_PREVIEW_SCHEME, path: `/${++this.next}/comments-to-send.md` });
    this.texts.set(uri.toString(), text);
    while (this.texts.size > 20) {
      this.texts.delete(this.texts.keys().next().value as string);
    }
    return uri;
  }
}

/** The whole of what goes out, as the person reads it before sending. */
export function previewText(input: {
  service: string;
  /** The run it continues, as people know it (continuedRunLabel). */
  runLabel: string;
  way: FollowUpWay;
  overall: string | undefined;
  comments: readonly StoredComment[];
  instructions: CommentInstructions;
}): string {
  const how =
    input.way.kind === 'fork'
      ? vscode.l10n.t(
          'a new run forked after event #{0}: it goes on from what this run produced',
          input.way.afterSequence,
        )
      : vscode.l10n.t('the run resumed: it goes on after its last completed step');
  const out = [
    `# ${vscode.l10n.t('Comments to send to the agent ({0})', input.comments.length)}`,
    '',
    `- ${vscode.l10n.t('Service: {0}', input.service)}`,
    `- ${vscode.l10n.t('Continues {0} as {1}', input.runLabel, how)}`,
    `- ${vscode.l10n.t('Overall instruction: {0}', input.overall ?? vscode.l10n.t('(none)'))}`,
    '',
  ];
  input.comments.forEach((c, i) => {
    const lines =
      c.startLine === c.endLine
        ? vscode.l10n.t('line {0}', c.startLine)
        : vscode.l10n.t('lines {0}-{1}', c.startLine, c.endLine);
    const side = c.side === 'agent' ? vscode.l10n.t("the agent's version") : vscode.l10n.t('the file as sent');
    out.push(`## ${i + 1}. ${c.path}, ${lines} (${side})`, '', vscode.l10n.t('Quoted lines:'), '');
    out.push(...c.quote.split('\n').map((l) => `    ${l}`), '', vscode.l10n.t('Comment:'), '');
    out.push(...c.body.split('\n').map((l) => `    ${l}`), '');
  });
  out.push(`## ${vscode.l10n.t('Also sent as the instructions text (for a server that does not read comments)')}`, '');
  if (input.instructions.quotesLeftOut) {
    out.push(vscode.l10n.t('The quotes are left out of this text to keep it within 10,000 characters.'), '');
  }
  if (input.instructions.bodiesShortened > 0) {
    out.push(
      vscode.l10n.t(
        '{0} comments are shortened in this text; each goes whole with the comments.',
        input.instructions.bodiesShortened,
      ),
      '',
    );
  }
  out.push(...input.instructions.text.split('\n').map((l) => `    ${l}`), '');
  return out.join('\n');
}

export function registerSendComments(
  deps: CommandDeps,
  runs: RunStore,
  drafts: CommentDrafts,
  threads: CommentThreads,
  fates: CommentFates,
  previews: SendPreviews = new SendPreviews(),
): vscode.Disposable[] {
  /** The Idempotency-Key of a send not yet known to have succeeded, per what it sends. */
  const keys = new SendKeys();

  const runIdOf = (arg: unknown): string | undefined => {
    const fromThread = threads.runOf(arg);
    if (fromThread) {
      return fromThread;
    }
    if (arg instanceof vscode.Uri) {
      return parseReviewUri(arg)?.runId;
    }
    if (arg !== undefined) {
      return resolveRun(arg, { selection: deps.selection('tasks'), activePanel: deps.activeRunPanel })?.runId;
    }
    const active = vscode.window.activeTextEditor?.document.uri;
    const fromEditor = active && parseReviewUri(active)?.runId;
    if (fromEditor) {
      return fromEditor;
    }
    const withDrafts = drafts.runsWithDrafts();
    return withDrafts.length === 1 ? withDrafts[0] : undefined;
  };

  const start = async (
    runId: string,
    way: FollowUpWay,
    comments: StoredComment[],
    instructions: string,
    budget: Money | undefined,
  ) => {
    const reviewComments = comments.map(toWire);
    return startFollowUp(deps, keys, runId, way, { instructions, reviewComments, budget });
  };

  const send = deps.guard('Send comments to the agent', async (arg?: unknown): Promise<SendResult | undefined> => {
    const given =
      arg !== null && typeof arg === 'object' && !(arg instanceof vscode.Uri) ? (arg as Record<string, unknown>) : {};
    const runId = runIdOf(arg);
    if (!runId) {
      throw new UserFacingError(
        drafts.runsWithDrafts().length === 0
          ? vscode.l10n.t('There are no comments to send. Add comments to a run in Review Changes first.')
          : vscode.l10n.t('Choose the run whose comments to send: a run row, or one of its review documents.'),
      );
    }
    const comments = drafts.draftsOf(runId);
    const problem = batchProblem(comments, vscodeTranslate);
    if (problem !== undefined) {
      throw new UserFacingError(problem);
    }
    if (!(await deps.ensureSignedIn())) {
      return undefined;
    }
    const record = await deps.service.client.getRun(runId);
    let way: FollowUpWay;
    if (isResumableStatus(record.status)) {
      way = { kind: 'resume' };
    } else if (isTerminalStatus(record.status)) {
      const fork = await forkAfterLastStep(deps, runs, runId);
      if (!fork) {
        throw new UserFacingError(vscode.l10n.t('The end of this run could not be read; try again in a moment.'));
      }
      way = fork;
    } else {
      throw new UserFacingError(
        vscode.l10n.t('This run is still going. Send the comments once it has ended; they are kept until then.'),
      );
    }
    const overall =
      deps.trustedAutomation && 'instructions' in given
        ? typeof given.instructions === 'string' && given.instructions.trim() !== ''
          ? given.instructions
          : undefined
        : await askOverall(comments.length);
    if (overall === null) {
      return undefined;
    }
    const instructions = commentInstructions(comments, overall);
    const runLabel = await continuedRunLabel(deps, record);
    const preview = previewText({
      service: deps.service.client.baseUrl,
      runLabel,
      way,
      overall,
      comments,
      instructions,
    });
    if (!questionSkipped(deps.trustedAutomation, given)) {
      const uri = previews.put(preview);
      await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.Beside });
      const sendLabel = vscode.l10n.t('Send {0} Comments', comments.length);
      const files = [...new Set(comments.map((c) => c.path))];
      const choice = await askModal(
        'info',
        vscode.l10n.t('Send {0} comments to the agent?', comments.length),
        [
          vscode.l10n.t('Files: {0}', files.join(', ')),
          way.kind === 'fork'
            ? vscode.l10n.t('A new run forks {0} after its last step and goes on from what it produced.', runLabel)
            : vscode.l10n.t('This resumes {0} after its last completed step.', runLabel),
          vscode.l10n.t('Service: {0}', deps.service.client.baseUrl),
          vscode.l10n.t('Everything that goes out is in the document beside this.'),
        ],
        sendLabel,
      );
      if (choice !== sendLabel) {
        return undefined;
      }
    }
    // The follow-up is a run like any other: its cap and the monthly limit are the person's to decide.
    const cap = await deps.budgets.choose('person');
    if (cap.refused !== undefined) {
      return undefined;
    }
    const followUp = await startOrOffer(runId, way, comments, instructions.text, cap.budget);
    if (!followUp) {
      return undefined;
    }
    deps.budgets.noteStarted(cap, followUp.run, followUp.run.id);
    await drafts.noteFollowUp(followUp.run.id, runId);
    await threads.markSent(
      comments.map((c) => c.id),
      followUp.run.id,
    );
    runs.noteRecord(followUp.run);
    runs.follow(followUp.run.id, typeof followUp.run.task_id === 'string' ? followUp.run.task_id : undefined);
    fates.watch(followUp.run.id);
    deps.tasks.refresh();
    await vscode.commands.executeCommand(Commands.watchRun, { runId: followUp.run.id });
    return { runId, followUpRunId: followUp.run.id, way: followUp.way.kind, comments: comments.length };
  });

  /** Starts the follow-up; on a 409 says why and offers the other way. */
  const startOrOffer = async (
    runId: string,
    way: FollowUpWay,
    comments: StoredComment[],
    instructions: string,
    budget: Money | undefined,
  ): Promise<{ run: RunRecord; way: FollowUpWay } | undefined> => {
    try {
      return { run: await start(runId, way, comments, instructions, budget), way };
    } catch (err) {
      if (!isApiError(err, 'conflict')) {
        throw err; // the drafts stay; the same key is used when the person sends again
      }
      const other: FollowUpWay | undefined =
        way.kind === 'resume'
          ? await forkPoint(runId)
          : err.code === SteeringConflict.runNotResumable
            ? undefined
            : { kind: 'resume' };
      const why =
        way.kind === 'resume'
          ? vscode.l10n.t('The run cannot be resumed any more: {0}', err.message)
          : vscode.l10n.t('The run cannot be forked now: {0}', err.message);
      if (!other) {
        throw new UserFacingError(why);
      }
      const otherLabel =
        other.kind === 'fork' ? vscode.l10n.t('Fork After Its Last Step') : vscode.l10n.t('Resume It Instead');
      const choice = await askModal('warn', why, [vscode.l10n.t('Your comments are kept.')], otherLabel);
      if (choice !== otherLabel) {
        return undefined;
      }
      return { run: await start(runId, other, comments, instructions, budget), way: other };
    }
  };

  const forkPoint = (runId: string): Promise<FollowUpWay | undefined> => forkAfterLastStep(deps, runs, runId);

  return [
    vscode.workspace.registerTextDocumentContentProvider(SEND_PREVIEW_SCHEME, previews),
    vscode.commands.registerCommand(Commands.sendReviewComments, send),
  ];
}

/** What a follow-up sends besides its way (docs/PROTOCOL.md, Fork and Review conversations). */
export type FollowUpBody = {
  instructions: string;
  reviewComments?: readonly ReviewCommentBody[];
  budget: Money | undefined;
} & ForkInputs;

/**
 * Starts one follow-up run. The Idempotency-Key follows the content (sendKeys.ts): a retry of
 * the same body reuses it, so the server answers with the run the first attempt made; a body
 * changed in between is a new request. The key is dropped once the send succeeded.
 */
export async function startFollowUp(
  deps: CommandDeps,
  keys: SendKeys,
  runId: string,
  way: FollowUpWay,
  body: FollowUpBody,
): Promise<RunRecord> {
  const { digest, key } = keys.keyFor(
    runId,
    way.kind,
    way.kind === 'fork' ? { after_sequence: way.afterSequence, ...body } : body,
  );
  const run: RunRecord =
    way.kind === 'fork'
      ? await deps.service.client.forkRun(
          runId,
          { after_sequence: way.afterSequence, ...body },
          { idempotencyKey: key },
        )
      : await deps.service.client.resumeRun(runId, body, { idempotencyKey: key });
  keys.settle(digest);
  return run;
}

/** A fork after the last step of an ended run (its terminal event is not copied); undefined when its end cannot be read. */
export async function forkAfterLastStep(
  deps: CommandDeps,
  runs: RunStore,
  runId: string,
): Promise<{ kind: 'fork'; afterSequence: number } | undefined> {
  const end = await terminalSequenceOf(deps, runs, runId);
  return end === undefined || end < 2 ? undefined : { kind: 'fork', afterSequence: end - 1 };
}

/** How long the send waits for the task's objective and the run's revision before naming the run without them. */
const LABEL_LOOKUP_MS = 10_000;
const LABEL_OBJECTIVE_MAX = 60;

/**
 * The run a send continues, as people know it (never its raw id while anything else is known):
 * its task's objective with its revision (Review Changes' count, reviewUi/revisions.ts) when it
 * continues an earlier one, else with when it started. What cannot be read in time is left out.
 */
export async function continuedRunLabel(
  deps: Pick<CommandDeps, 'service' | 'log'>,
  record: RunRecord,
): Promise<string> {
  const signal = AbortSignal.timeout(LABEL_LOOKUP_MS);
  const client = deps.service.client;
  const [objective, revisions] = await Promise.all([
    typeof record.task_id === 'string' && record.task_id !== ''
      ? client.getTask(record.task_id, { signal }).then(
          (task) => (typeof task.objective === 'string' && task.objective.trim() !== '' ? task.objective : undefined),
          (err: unknown) => {
            deps.log.warn(`Send comments: the task of ${record.id} could not be read: ${String(err)}`);
            return undefined;
          },
        )
      : Promise.resolve(undefined),
    revisionsOf(client, record.id, signal).then(
      (line) => line.length,
      () => 1,
    ),
  ]);
  const started = formatShortLocalTime(record.started_at ?? record.created_at);
  const title = objective === undefined ? undefined : inert(shortenText(objective.trim(), LABEL_OBJECTIVE_MAX));
  if (title !== undefined) {
    if (revisions > 1) {
      return vscode.l10n.t('the run of “{0}”, revision {1}', title, revisions);
    }
    return started
      ? vscode.l10n.t('the run of “{0}” started {1}', title, inert(started))
      : vscode.l10n.t('the run of “{0}”', title);
  }
  if (revisions > 1) {
    return vscode.l10n.t('revision {0} of its task', revisions);
  }
  return started ? vscode.l10n.t('the run started {0}', inert(started)) : vscode.l10n.t('run {0}', inert(record.id));
}

const END_LOOKUP_MS = 15_000;

/**
 * The sequence of a finished run's terminal event: what this window saw, else read from the
 * event stream (from what this window saw on) to the terminal event. Undefined when it is not
 * read within 15 seconds.
 */
async function terminalSequenceOf(deps: CommandDeps, runs: RunStore, runId: string): Promise<number | undefined> {
  const facts = runs.get(runId);
  if (facts?.terminal && facts.lastSequence > 0) {
    return facts.lastSequence;
  }
  const subscription = new RunEventSubscription(deps.service.client, runId, {
    after: facts?.lastSequence ?? 0,
    signal: AbortSignal.timeout(END_LOOKUP_MS),
    idleTimeoutMs: END_LOOKUP_MS,
  });
  try {
    for await (const event of subscription) {
      if (isTerminalEvent(event.event)) {
        return event.data.sequence;
      }
    }
  } catch (err) {
    deps.log.warn(
      `Send comments: the end of ${runId} could not be read: ${err instanceof Error ? err.message : String(err)}`,
    );
  } finally {
    subscription.close();
  }
  return undefined;
}

/** null: Escape; undefined: no overall instruction. */
async function askOverall(count: number): Promise<string | undefined | null> {
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('Send {0} comments to the agent: an overall instruction (optional)', count),
    prompt: vscode.l10n.t('Anything to say about all of them? Leave empty to send the comments alone.'),
    ignoreFocusOut: true,
  });
  if (value === undefined) {
    return null;
  }
  return value.trim() === '' ? undefined : value;
}
