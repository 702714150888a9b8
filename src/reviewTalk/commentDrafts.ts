// Where review comments live between a reload and a send: the workspace's state (Memento), one
// bounded list. Drafts are the person's own; once sent they stay, marked with the follow-up run,
// until the person deletes them.
import { COMMENT_LIMITS, cutNote, isCommentId, type ReviewComment } from '../reviewComments/reviewComments';

export const DRAFTS_KEY = 'agentRuntime.reviewComments.v1';
/** Which run a send of comments started, and from which run: [followUp, source] pairs. */
export const FOLLOW_UPS_KEY = 'agentRuntime.reviewFollowUps.v1';

/** At most this many follow-up links are kept (the oldest goes first). */
export const MAX_FOLLOW_UPS = 200;

/** At most this many comments are kept in a workspace (drafts and sent ones). */
export const MAX_STORED_COMMENTS = 500;

export interface StoredComment extends ReviewComment {
  /** The document the thread is on (a review document's URI, as a string). */
  uri: string;
  state: 'draft' | 'sent';
  /** The follow-up run the comment went out with. */
  followUpRunId?: string;
  /** The uploaded file the comment's path is (a comment on a workspace file; review URIs carry it). */
  fileId?: string;
  /** What became of the comment once its follow-up ran. */
  fate?: StoredFate;
  /** The person resolved the thread. */
  resolved?: boolean;
}

export type FateName = 'addressed' | 'declined' | 'notChanged' | 'outdated';

export interface StoredFate {
  fate: FateName;
  /** For `addressed`: the agent said so, or the quoted lines changed. */
  by?: 'agent' | 'change';
  /** The agent's note: data from the server, shown escaped. */
  note?: string;
}

/** The part of vscode.Memento the store uses. */
export interface StateMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export class CommentDrafts {
  private items: StoredComment[];
  private followUps: [string, string][];

  constructor(private readonly memento: StateMemento) {
    this.items = readStored(memento.get<unknown>(DRAFTS_KEY));
    this.followUps = readFollowUps(memento.get<unknown>(FOLLOW_UPS_KEY));
  }

  /** Remembers that a send of comments on `source` started `followUp` (the Tasks view's revisions). */
  async noteFollowUp(followUp: string, source: string): Promise<void> {
    const kept = this.followUps.filter(([f]) => f !== followUp);
    this.followUps = [...kept, [followUp, source] as [string, string]].slice(-MAX_FOLLOW_UPS);
    await this.memento.update(FOLLOW_UPS_KEY, this.followUps);
  }

  /** The run whose comments started `runId`, as this workspace recorded it. */
  followUpOf(runId: string): string | undefined {
    return this.followUps.find(([f]) => f === runId)?.[1];
  }

  /** Sent comments whose follow-up has not been judged yet, by follow-up run. */
  unjudgedFollowUps(): string[] {
    return [
      ...new Set(
        this.items
          .filter((c) => c.state === 'sent' && c.fate === undefined && c.followUpRunId !== undefined)
          .map((c) => c.followUpRunId as string),
      ),
    ];
  }

  sentWith(followUpRunId: string): StoredComment[] {
    return this.items.filter((c) => c.state === 'sent' && c.followUpRunId === followUpRunId);
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
        ...(typeof c.fileId === 'string' ? { fileId: c.fileId } : {}),
        ...(readFate(c.fate) ? { fate: readFate(c.fate) } : {}),
        ...(c.resolved === true ? { resolved: true } : {}),
      });
    }
  }
  return out;
}

const FATES: readonly string[] = ['addressed', 'declined', 'notChanged', 'outdated'];

function readFate(value: unknown): StoredFate | undefined {
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  const f = value as Record<string, unknown>;
  if (typeof f.fate !== 'string' || !FATES.includes(f.fate)) {
    return undefined;
  }
  return {
    fate: f.fate as FateName,
    ...(f.by === 'agent' || f.by === 'change' ? { by: f.by } : {}),
    ...(typeof f.note === 'string' ? { note: cutNote(f.note) } : {}),
  };
}

function readFollowUps(value: unknown): [string, string][] {
  if (!Array.isArray(value)) {
    return [];
  }
  return value
    .filter(
      (p: unknown): p is [string, string] =>
        Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string',
    )
    .slice(-MAX_FOLLOW_UPS);
}
