// What became of each sent comment once its follow-up run ended: the follow-up's
// `review_comment.addressed` events (at most FATE_LIMITS.events read; an id it was never sent is
// logged, not shown), else the quoted lines judged in the follow-up's revision against the
// revision they were written on (docs/PROTOCOL.md, Review conversations): an uploaded file's
// revision is an artifact of the run; a project file's is the run's patch planned at its
// base_commit in this workspace's clone (src/reviewUi/projectReview.ts, read through the review's
// lazy bundle). The fate is kept with the comment, so a judged thread stays judged across a reload.
import * as vscode from 'vscode';
import type { ApiClient } from '../api/client';
import { describeError } from '../api/errorSentences';
import { RunEventSubscription } from '../api/events';
import { commentFate, FATE_LIMITS, readVerdicts, type VerdictReading } from '../reviewComments/reviewComments';
import { parseReviewUri } from '../reviewUi/reviewContent';
import { isTerminalEvent } from '../runEvents/runStatus';
import type { RunStore } from '../runs/runStore';
import type { CommentDrafts, StoredComment, StoredFate } from './commentDrafts';
import type { CommentThreads } from './commentThreads';

/** Largest revision read to judge a comment (a bigger one leaves its comments outdated). */
const MAX_REVISION_BYTES = 10 * 1024 * 1024;
/** Reading a follow-up's events and revisions gives up after this long (tried again next time). */
const JUDGE_TIMEOUT_MS = 60_000;
/** Follow-ups looked at after a reload, at most. */
const MAX_PENDING_AT_START = 10;

export interface FateDeps {
  client(): ApiClient;
  log: vscode.LogOutputChannel;
  /**
   * A project run's text of each of `paths` (repository paths); undefined when the run is no
   * project run. A path left out could not be read (the comment on it stays outdated).
   */
  projectRevision(
    runId: string,
    paths: readonly string[],
    signal: AbortSignal,
  ): Promise<Map<string, string> | undefined>;
}

export class CommentFates implements vscode.Disposable {
  private readonly judging = new Map<string, Promise<void>>();
  /** Follow-ups asked to be judged while a pass ran: one more pass each (see judge). */
  private readonly judgeAgain = new Set<string>();
  private readonly watched = new Map<string, vscode.Disposable>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly lifetime = new AbortController();

  constructor(
    private readonly deps: FateDeps,
    private readonly drafts: CommentDrafts,
    private readonly threads: CommentThreads,
    private readonly runs: RunStore,
  ) {
    this.disposables.push(
      runs.onDidChange((change) => {
        if (change.facts.terminal && this.drafts.sentWith(change.facts.runId).some((c) => c.fate === undefined)) {
          void this.judge(change.facts.runId);
        }
      }),
    );
    // After a reload: keep the unjudged follow-ups' status fresh, so their end is seen.
    for (const followUp of drafts.unjudgedFollowUps().slice(0, MAX_PENDING_AT_START)) {
      this.watch(followUp);
    }
  }

  /** A follow-up just sent: judged when it ends. */
  watch(followUpRunId: string): void {
    if (!this.watched.has(followUpRunId)) {
      this.watched.set(followUpRunId, this.runs.show(followUpRunId));
    }
    const facts = this.runs.get(followUpRunId);
    if (facts?.terminal) {
      void this.judge(followUpRunId);
    }
  }

  /**
   * Judges the comments sent with a finished follow-up, once at a time per follow-up. A call that
   * comes while a pass runs gets one more pass after it: the send marks its comments one by one,
   * so a pass started by the run's end in the middle of that sees only the first ones.
   */
  judge(followUpRunId: string): Promise<void> {
    const running = this.judging.get(followUpRunId);
    if (running) {
      this.judgeAgain.add(followUpRunId);
      return running;
    }
    const pass = this.judgeNow(followUpRunId)
      .catch((err: unknown) => {
        this.deps.log.warn(
          `Review comments: what became of the comments sent with ${followUpRunId} could not be read: ${describeError(err)}`,
        );
      })
      .finally(() => {
        this.judging.delete(followUpRunId);
        if (this.judgeAgain.delete(followUpRunId) && !this.lifetime.signal.aborted) {
          void this.judge(followUpRunId);
        }
      });
    this.judging.set(followUpRunId, pass);
    return pass;
  }

  private async judgeNow(followUpRunId: string): Promise<void> {
    const comments = this.drafts.sentWith(followUpRunId).filter((c) => c.fate === undefined);
    if (comments.length === 0) {
      return;
    }
    const signal = AbortSignal.any([this.lifetime.signal, AbortSignal.timeout(JUDGE_TIMEOUT_MS)]);
    const client = this.deps.client();
    const reading = await this.readVerdicts(client, followUpRunId, new Set(comments.map((c) => c.id)), signal);
    const texts = new RevisionTexts(client, signal);
    const projectPaths = [...new Set(comments.filter(isProjectComment).map((c) => c.path))];
    const project = new ProjectTexts(this.deps, projectPaths, signal);
    for (const comment of comments) {
      const fileId = fileIdOf(comment);
      const verdict = reading.verdicts.get(comment.id);
      const textOf = (runId: string) =>
        isProjectComment(comment)
          ? project.of(runId, comment.path)
          : fileId === undefined
            ? Promise.resolve(undefined)
            : texts.of(runId, fileId);
      const fate = commentFate(comment, {
        verdict,
        previousText: verdict ? undefined : await textOf(comment.runId),
        nextText: verdict ? undefined : await textOf(followUpRunId),
      });
      const stored: StoredFate =
        fate.fate === 'addressed'
          ? { fate: 'addressed', by: fate.by, ...(fate.note !== undefined ? { note: fate.note } : {}) }
          : fate.fate === 'declined'
            ? { fate: 'declined', ...(fate.note !== undefined ? { note: fate.note } : {}) }
            : { fate: fate.fate };
      await this.threads.setFate(comment.id, stored);
    }
    this.watched.get(followUpRunId)?.dispose();
    this.watched.delete(followUpRunId);
    this.deps.log.info(
      `Review comments: ${comments.length} comment(s) sent with ${followUpRunId} judged (${reading.verdicts.size} by the agent's word).`,
    );
  }

  /** The follow-up's verdicts, from the start of its events to its end (bounded). */
  private async readVerdicts(
    client: ApiClient,
    followUpRunId: string,
    sentIds: ReadonlySet<string>,
    signal: AbortSignal,
  ): Promise<VerdictReading> {
    const named: { event: string; data: Record<string, unknown> }[] = [];
    const subscription = new RunEventSubscription(client, followUpRunId, {
      after: 0,
      signal,
      idleTimeoutMs: JUDGE_TIMEOUT_MS,
    });
    let read = 0;
    try {
      for await (const event of subscription) {
        if (event.event === 'review_comment.addressed') {
          named.push({ event: event.event, data: event.data });
        }
        if (isTerminalEvent(event.event)) {
          break;
        }
        if (++read >= FATE_LIMITS.events) {
          this.deps.log.warn(
            `Review comments: ${followUpRunId} has more than ${FATE_LIMITS.events} events; the rest are not read for verdicts.`,
          );
          break;
        }
      }
    } finally {
      subscription.close();
    }
    const reading = readVerdicts(named, sentIds);
    if (reading.unknownCount > 0) {
      this.deps.log.warn(
        `Review comments: ${followUpRunId} named ${reading.unknownCount} time(s) comments it was never sent (ignored): ${reading.unknownIds.map((id) => JSON.stringify(id)).join(', ')}`,
      );
    }
    if (reading.malformed > 0) {
      this.deps.log.warn(
        `Review comments: ${followUpRunId} sent ${reading.malformed} review_comment.addressed event(s) without a comment id and a known status (ignored).`,
      );
    }
    return reading;
  }

  dispose(): void {
    this.lifetime.abort();
    for (const d of [...this.disposables, ...this.watched.values()]) {
      d.dispose();
    }
    this.watched.clear();
  }
}

/** The uploaded file a comment names: kept with it, else from its review document's URI. */
export function fileIdOf(comment: StoredComment): string | undefined {
  if (comment.fileId !== undefined) {
    return comment.fileId;
  }
  try {
    return parseReviewUri(vscode.Uri.parse(comment.uri, true))?.fileId;
  } catch {
    return undefined;
  }
}

/**
 * A comment on a project run's file: Review Changes names such a file `<artifact id>:<path>`
 * (src/projects/projectChanges.ts, projectFileId), and the comment's path is the repository path.
 */
export function isProjectComment(comment: StoredComment): boolean {
  const fileId = fileIdOf(comment);
  return fileId !== undefined && fileId.length > comment.path.length + 1 && fileId.endsWith(`:${comment.path}`);
}

/** Project runs' texts of the commented paths, each run read once (undefined: not known). */
class ProjectTexts {
  private readonly byRun = new Map<string, Promise<Map<string, string> | undefined>>();

  constructor(
    private readonly deps: FateDeps,
    private readonly paths: readonly string[],
    private readonly signal: AbortSignal,
  ) {}

  async of(runId: string, path: string): Promise<string | undefined> {
    let texts = this.byRun.get(runId);
    if (!texts) {
      texts = this.deps.projectRevision(runId, this.paths, this.signal).catch((err: unknown) => {
        if (this.signal.aborted) {
          throw err;
        }
        this.deps.log.warn(
          `Review comments: the project files of ${runId} could not be read to judge comments: ${describeError(err)}`,
        );
        return undefined;
      });
      this.byRun.set(runId, texts);
    }
    return (await texts)?.get(path);
  }
}

/** A run's revision of an uploaded file, as text (undefined: none, not text, or too large); read once. */
class RevisionTexts {
  private readonly byRun = new Map<string, Promise<Map<string, string>>>();

  constructor(
    private readonly client: ApiClient,
    private readonly signal: AbortSignal,
  ) {}

  async of(runId: string, fileId: string): Promise<string | undefined> {
    let revisions = this.byRun.get(runId);
    if (!revisions) {
      revisions = this.revisionsOf(runId);
      this.byRun.set(runId, revisions);
    }
    const artifactFile = (await revisions).get(fileId);
    if (artifactFile === undefined) {
      return undefined;
    }
    try {
      const { content } = await this.client.readFileContent(artifactFile, {
        signal: this.signal,
        maxBytes: MAX_REVISION_BYTES,
      });
      return new TextDecoder('utf-8', { fatal: true }).decode(content);
    } catch (err) {
      if (this.signal.aborted) {
        throw err;
      }
      return undefined;
    }
  }

  /** source file id -> the file id of the run's last revision of it. */
  private async revisionsOf(runId: string): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for await (const artifact of this.client.iterateRunArtifacts(runId, {}, { signal: this.signal })) {
      if (typeof artifact.source_file_id === 'string') {
        out.set(artifact.source_file_id, artifact.file_id ?? artifact.id);
      }
    }
    return out;
  }
}
