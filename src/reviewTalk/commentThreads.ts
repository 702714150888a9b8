// The comment controller of Review Changes' documents: a person writes comments to the agent on
// lines of the agent's version or of the file as sent; each comment is one thread bound to its
// run, kept in CommentDrafts (so it survives a reload and shows in the Comments panel).
import * as vscode from 'vscode';
import { UserFacingError } from '../commandSupport/commandErrors';
import { visibleText } from '../common/visibleText';
import { vscodeTranslate } from '../common/vscodeTranslate';
import { commentProblem, type CommentSide, newCommentId, quoteLines } from '../reviewComments/reviewComments';
import { parseReviewUri, REVIEW_SCHEME, type ReviewContent } from '../reviewUi/reviewContent';
import type { BoundFiles } from './boundFiles';
import type { CommentDrafts, StoredComment, StoredFate } from './commentDrafts';

export const COMMENT_CONTROLLER_ID = 'agentRuntime.reviewComments';

/** One comment as VS Code shows it; `draftId` ties it to the store. */
export class DraftComment implements vscode.Comment {
  body: string;
  mode = vscode.CommentMode.Preview;
  readonly author: vscode.CommentAuthorInformation = { name: vscode.l10n.t('You') };
  contextValue: string;
  label: string;
  /** The body before an edit began (Cancel puts it back). */
  savedBody: string;

  constructor(
    readonly draftId: string,
    body: string,
    sent: boolean,
  ) {
    this.body = body;
    this.savedBody = body;
    this.contextValue = sent ? 'sent' : 'draft';
    this.label = sent ? vscode.l10n.t('Sent to the agent') : vscode.l10n.t('Draft');
  }
}

/**
 * The agent's note on a comment: text from the server, so data. Its Markdown is escaped
 * (appendText), never trusted, no HTML or icons: a link or command in it stays text.
 */
export class AgentNote implements vscode.Comment {
  readonly body: vscode.MarkdownString;
  readonly mode = vscode.CommentMode.Preview;
  readonly author: vscode.CommentAuthorInformation = { name: vscode.l10n.t('Agent') };
  readonly contextValue = 'note';

  constructor(note: string) {
    const body = new vscode.MarkdownString();
    body.isTrusted = false;
    body.supportHtml = false;
    body.supportThemeIcons = false;
    body.appendText(visibleText(note, { lineBreaks: true }));
    this.body = body;
  }
}

/** The thread's label for a comment's fate. */
export function fateLabel(fate: StoredFate): string {
  switch (fate.fate) {
    case 'addressed':
      return fate.by === 'agent'
        ? vscode.l10n.t('Addressed: the agent says so')
        : vscode.l10n.t('Addressed: the lines it quoted changed');
    case 'declined':
      return vscode.l10n.t('Declined by the agent');
    case 'notChanged':
      return vscode.l10n.t('Not changed: the lines it quoted are still there');
    case 'outdated':
      return vscode.l10n.t('Outdated: the file or the lines are gone');
  }
}

/** What a document is to a comment: its run, side and the path the agent knows it by. */
export interface CommentTarget {
  runId: string;
  side: CommentSide;
  path: string;
  /** The uploaded file it is (a workspace file's comment keeps it; review URIs carry it). */
  fileId?: string;
}

export function commentTargetOf(uri: vscode.Uri, content: ReviewContent): CommentTarget | undefined {
  const parsed = parseReviewUri(uri);
  if (!parsed || parsed.kind === 'conflicts') {
    return undefined;
  }
  const path = content.commentPath(uri);
  return path === undefined
    ? undefined
    : { runId: parsed.runId, side: parsed.kind === 'agent' ? 'agent' : 'base', path };
}

export class CommentThreads implements vscode.Disposable {
  readonly controller: vscode.CommentController;
  private readonly threads = new Map<string, vscode.CommentThread>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a comment is added, edited, sent or deleted (the Tasks view counts drafts). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly drafts: CommentDrafts,
    private readonly content: ReviewContent,
    private readonly bound: BoundFiles,
  ) {
    this.controller = vscode.comments.createCommentController(
      COMMENT_CONTROLLER_ID,
      vscode.l10n.t('Comments to the Agent'),
    );
    this.controller.options = {
      prompt: vscode.l10n.t('Tell the agent what to change here'),
      placeHolder: vscode.l10n.t('Your comment goes to the agent with the lines it is on.'),
    };
    this.controller.commentingRangeProvider = {
      provideCommentingRanges: (document) =>
        this.targetOf(document.uri) && document.lineCount > 0
          ? [new vscode.Range(0, 0, document.lineCount - 1, 0)]
          : [],
    };
    for (const stored of this.drafts.all()) {
      this.show(stored);
    }
  }

  /** The Add Comment button of an empty thread: the reply's text becomes a draft on those lines. */
  async add(reply: vscode.CommentReply): Promise<StoredComment> {
    const thread = reply.thread;
    const target = this.targetOf(thread.uri);
    if (!target) {
      thread.dispose();
      throw new UserFacingError(
        vscode.l10n.t(
          "Comments to the agent go on the documents of Review Changes, or on a workspace file after its run's changes were applied. Review the run again, then comment.",
        ),
      );
    }
    const range = thread.range ?? new vscode.Range(0, 0, 0, 0);
    const document = await vscode.workspace.openTextDocument(thread.uri);
    const lines = Array.from({ length: document.lineCount }, (_, i) => document.lineAt(i).text);
    const startLine = range.start.line + 1;
    const endLine = Math.max(startLine, range.end.line + 1);
    const stored: StoredComment = {
      id: newCommentId(),
      runId: target.runId,
      path: target.path,
      side: target.side,
      startLine,
      endLine,
      quote: quoteLines(lines, startLine, endLine) ?? '',
      body: reply.text,
      uri: thread.uri.toString(),
      state: 'draft',
      ...(target.fileId !== undefined ? { fileId: target.fileId } : {}),
    };
    const problem = commentProblem(stored, vscodeTranslate);
    if (problem !== undefined) {
      // The thread stays open with the text typed: nothing is lost.
      throw new UserFacingError(problem);
    }
    const refused = await this.drafts.add(stored);
    if (refused !== undefined) {
      throw new UserFacingError(
        refused === 'tooManyOnRun'
          ? vscode.l10n.t('This run already has 100 comments to send, the most one follow-up carries. Send them first.')
          : vscode.l10n.t('This workspace keeps at most 500 comments. Delete some sent ones first.'),
      );
    }
    this.show(stored, thread);
    this.changed.fire();
    return stored;
  }

  edit(comment: DraftComment): void {
    const thread = this.threads.get(comment.draftId);
    if (!thread || comment.contextValue !== 'draft') {
      return;
    }
    comment.savedBody = typeof comment.body === 'string' ? comment.body : comment.savedBody;
    comment.mode = vscode.CommentMode.Editing;
    thread.comments = [...thread.comments];
  }

  async saveEdit(comment: DraftComment): Promise<void> {
    const stored = this.drafts.get(comment.draftId);
    const thread = this.threads.get(comment.draftId);
    if (!stored || !thread) {
      return;
    }
    const body = typeof comment.body === 'string' ? comment.body : comment.savedBody;
    const problem = commentProblem({ ...stored, body }, vscodeTranslate);
    if (problem !== undefined) {
      throw new UserFacingError(problem);
    }
    await this.drafts.update(stored.id, { body });
    comment.savedBody = body;
    comment.mode = vscode.CommentMode.Preview;
    thread.comments = [...thread.comments];
    this.changed.fire();
  }

  cancelEdit(comment: DraftComment): void {
    const thread = this.threads.get(comment.draftId);
    comment.body = comment.savedBody;
    comment.mode = vscode.CommentMode.Preview;
    if (thread) {
      thread.comments = [...thread.comments];
    }
  }

  async delete(comment: DraftComment | vscode.CommentThread): Promise<void> {
    const ids =
      comment instanceof DraftComment
        ? [comment.draftId]
        : [...this.threads.entries()].filter(([, t]) => t === comment).map(([id]) => id);
    await this.drafts.remove(ids);
    for (const id of ids) {
      this.threads.get(id)?.dispose();
      this.threads.delete(id);
    }
    this.changed.fire();
  }

  /** Marks comments as sent with their follow-up run (their threads say so and can no longer be edited). */
  async markSent(ids: readonly string[], followUpRunId: string): Promise<void> {
    for (const id of ids) {
      await this.drafts.update(id, { state: 'sent', followUpRunId });
      const stored = this.drafts.get(id);
      if (stored) {
        this.show(stored);
      }
    }
    this.changed.fire();
  }

  /** The run, side and path a comment on this document names: a review document, or a bound workspace file. */
  targetOf(uri: vscode.Uri): CommentTarget | undefined {
    if (uri.scheme === REVIEW_SCHEME) {
      return commentTargetOf(uri, this.content);
    }
    const bound = this.bound.get(uri.toString());
    return bound && { runId: bound.runId, side: bound.side, path: bound.path, fileId: bound.fileId };
  }

  /** Keeps what became of a sent comment and shows it on its thread. */
  async setFate(id: string, fate: StoredFate): Promise<void> {
    await this.drafts.update(id, { fate });
    const stored = this.drafts.get(id);
    if (stored) {
      this.show(stored);
    }
    this.changed.fire();
  }

  /** Resolves (or reopens) a judged comment's thread: collapsed and marked resolved. */
  async setResolved(arg: unknown, resolved: boolean): Promise<void> {
    const id = this.idOf(arg);
    const stored = id === undefined ? undefined : this.drafts.get(id);
    if (!stored || stored.fate === undefined) {
      return;
    }
    await this.drafts.update(stored.id, { resolved });
    this.show({ ...stored, resolved });
    this.changed.fire();
  }

  /**
   * Sends a judged comment again: a new draft with the same text on the same lines, bound to the
   * follow-up (the revision it continues from), on that run's version of the document; the old
   * thread is resolved. Undefined when the argument is no judged comment.
   */
  async again(arg: unknown): Promise<StoredComment | undefined> {
    const stored = this.storedOf(arg);
    if (!stored || stored.fate === undefined || stored.followUpRunId === undefined) {
      return undefined;
    }
    const uri = vscode.Uri.parse(stored.uri);
    const parsed = parseReviewUri(uri);
    const next: StoredComment = {
      id: newCommentId(),
      runId: stored.followUpRunId,
      path: stored.path,
      side: stored.side,
      startLine: stored.startLine,
      endLine: stored.endLine,
      quote: stored.quote,
      body: stored.body,
      uri: parsed
        ? uri.with({ path: uri.path.replace(/^\/[^/]*\//, `/${encodeURIComponent(stored.followUpRunId)}/`) }).toString()
        : stored.uri,
      state: 'draft',
      ...(parsed ? { fileId: parsed.fileId } : stored.fileId !== undefined ? { fileId: stored.fileId } : {}),
    };
    const refused = await this.drafts.add(next);
    if (refused !== undefined) {
      throw new UserFacingError(
        refused === 'tooManyOnRun'
          ? vscode.l10n.t('This run already has 100 comments to send, the most one follow-up carries. Send them first.')
          : vscode.l10n.t('This workspace keeps at most 500 comments. Delete some sent ones first.'),
      );
    }
    await this.drafts.update(stored.id, { resolved: true });
    this.show({ ...stored, resolved: true });
    this.show(next);
    this.changed.fire();
    return next;
  }

  /** The stored comment a thread or one of its comments shows. */
  storedOf(arg: unknown): StoredComment | undefined {
    const id = this.idOf(arg);
    return id === undefined ? undefined : this.drafts.get(id);
  }

  private idOf(arg: unknown): string | undefined {
    if (arg instanceof DraftComment) {
      return arg.draftId;
    }
    for (const [id, thread] of this.threads) {
      if (thread === arg || (arg instanceof AgentNote && thread.comments.includes(arg))) {
        return id;
      }
    }
    return undefined;
  }

  /** The thread that shows a stored comment. */
  threadOf(id: string): vscode.CommentThread | undefined {
    return this.threads.get(id);
  }

  /** The run a thread or comment belongs to (the Send command's argument). */
  runOf(arg: unknown): string | undefined {
    return this.storedOf(arg)?.runId;
  }

  /** Shows a stored comment in its thread: the one the person typed into, else a new one. */
  private show(stored: StoredComment, typedInto?: vscode.CommentThread): void {
    const comment = new DraftComment(stored.id, stored.body, stored.state === 'sent');
    const comments: vscode.Comment[] = [comment];
    if (stored.fate?.note !== undefined) {
      comments.push(new AgentNote(stored.fate.note));
    }
    let thread = typedInto ?? this.threads.get(stored.id);
    if (thread) {
      thread.comments = comments;
    } else {
      const range = new vscode.Range(stored.startLine - 1, 0, stored.endLine - 1, 0);
      thread = this.controller.createCommentThread(vscode.Uri.parse(stored.uri), range, comments);
    }
    thread.canReply = false;
    if (stored.fate !== undefined) {
      // A judged comment can be resolved, reopened, or sent again.
      thread.contextValue = stored.resolved ? 'judgedResolved' : 'judged';
      thread.label = fateLabel(stored.fate);
      thread.state = stored.resolved ? vscode.CommentThreadState.Resolved : vscode.CommentThreadState.Unresolved;
      thread.collapsibleState = stored.resolved
        ? vscode.CommentThreadCollapsibleState.Collapsed
        : vscode.CommentThreadCollapsibleState.Expanded;
    } else {
      thread.contextValue = stored.state;
      thread.label =
        stored.state === 'sent' ? vscode.l10n.t('Sent to the agent') : vscode.l10n.t('To send to the agent');
      thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
    }
    this.threads.set(stored.id, thread);
  }

  dispose(): void {
    for (const thread of this.threads.values()) {
      thread.dispose();
    }
    this.threads.clear();
    this.controller.dispose();
    this.changed.dispose();
  }
}
