// Where review comments live between a reload and a send: the workspace's state (Memento), one
// bounded list. Drafts are the person's own; once sent they stay, marked with the follow-up run,
// until the person deletes them.
import { COMMENT_LIMITS, isCommentId, type ReviewComment } from '../reviewComments/reviewComments';

export const DRAFTS_KEY = 'agentRuntime.reviewComments.v1';

/** At most this many comments are kept in a workspace (drafts and sent ones). */
export const MAX_STORED_COMMENTS = 500;

export interface StoredComment extends ReviewComment {
  /** The document the thread is on (a review document's URI, as a string). */
  uri: string;
  state: 'draft' | 'sent';
  /** The follow-up run the comment went out with. */
  followUpRunId?: string;
}

/** The part of vscode.Memento the store uses. */
export interface StateMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export class CommentDrafts {
  private items: StoredComment[];

  constructor(private readonly memento: StateMemento) {
    this.items = readStored(memento.get<unknown>(DRAFTS_KEY));
  }

  all(): readonly StoredComment[] {
    return this.items;
  }

  get(id: string): StoredComment | undefined {
    return this.items.find((c) => c.id === id);
  }

  draftsOf(runId: string): StoredComment[] {
    return this.items.filter((c) => c.runId === runId && c.state === 'draft');
  }

  /** Runs with drafts, in the order their first draft was written. */
  runsWithDrafts(): string[] {
    return [...new Set(this.items.filter((c) => c.state === 'draft').map((c) => c.runId))];
  }

  /** Refuses (returns a reason) past the caps: 100 drafts on a run, 500 comments in the workspace. */
  async add(comment: StoredComment): Promise<'tooManyOnRun' | 'full' | undefined> {
    if (this.draftsOf(comment.runId).length >= COMMENT_LIMITS.count) {
      return 'tooManyOnRun';
    }
    if (this.items.length >= MAX_STORED_COMMENTS) {
      return 'full';
    }
    this.items = [...this.items, comment];
    await this.save();
    return undefined;
  }

  async update(id: string, change: Partial<StoredComment>): Promise<void> {
    this.items = this.items.map((c) => (c.id === id ? { ...c, ...change, id: c.id } : c));
    await this.save();
  }

  async remove(ids: readonly string[]): Promise<void> {
    const gone = new Set(ids);
    this.items = this.items.filter((c) => !gone.has(c.id));
    await this.save();
  }

  private save(): Thenable<void> {
    return this.memento.update(DRAFTS_KEY, this.items);
  }
}

/** What the workspace state holds, checked item by item (another version may have written it). */
function readStored(value: unknown): StoredComment[] {
  if (!Array.isArray(value)) {
    return [];
  }
  const out: StoredComment[] = [];
  for (const item of value.slice(0, MAX_STORED_COMMENTS)) {
    if (typeof item !== 'object' || item === null) {
      continue;
    }
    const c = item as Record<string, unknown>;
    if (
      isCommentId(c.id) &&
      typeof c.runId === 'string' &&
      typeof c.path === 'string' &&
      typeof c.uri === 'string' &&
      (c.side === 'agent' || c.side === 'base') &&
      Number.isSafeInteger(c.startLine) &&
      Number.isSafeInteger(c.endLine) &&
      typeof c.quote === 'string' &&
      typeof c.body === 'string' &&
      (c.state === 'draft' || c.state === 'sent')
    ) {
      out.push({
        id: c.id,
        runId: c.runId,
        path: c.path,
        uri: c.uri,
        side: c.side,
        startLine: c.startLine as number,
        endLine: c.endLine as number,
        quote: c.quote,
        body: c.body,
        state: c.state,
        ...(typeof c.followUpRunId === 'string' ? { followUpRunId: c.followUpRunId } : {}),
      });
    }
  }
  return out;
}
