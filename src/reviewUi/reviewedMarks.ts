// "Mark File as Reviewed": a mark per run and file with the hash of the content the person saw,
// kept in the workspace's state. A later revision inherits the nearest earlier mark while the
// file's content is the same, and loses it once that revision changes the file again. Plain
// Node: no vscode.
import { sha256Hex } from '../common/sha256';

/** Marks kept; the oldest go first beyond it. */
export const MAX_REVIEWED_MARKS = 2000;
export const REVIEWED_MARKS_KEY = 'agentRuntime.reviewedFiles';

export interface ReviewedMark {
  runId: string;
  /** The workspace file's URI. */
  fileKey: string;
  /** sha256 (hex) of the content marked. */
  hash: string;
  reviewed: boolean;
  /** When it was set (ms): the order the cap drops by. */
  at: number;
}

export interface MarksMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export function contentHash(bytes: Uint8Array): string {
  return sha256Hex(bytes);
}

/**
 * Whether the file counts as reviewed in the first run of `revisions` (newest first: the run,
 * then the revisions it follows up): the nearest mark decides, and only for the content it saw.
 */
export function isReviewed(
  marks: readonly ReviewedMark[],
  revisions: readonly string[],
  fileKey: string,
  hash: string,
): boolean {
  for (const runId of revisions) {
    const mark = marks.find((m) => m.runId === runId && m.fileKey === fileKey);
    if (mark) {
      return mark.reviewed && mark.hash === hash;
    }
  }
  return false;
}

export class ReviewedMarks {
  private marks: ReviewedMark[];

  constructor(private readonly memento: MarksMemento) {
    this.marks = readMarks(memento.get<unknown>(REVIEWED_MARKS_KEY));
  }

  isReviewed(revisions: readonly string[], fileKey: string, hash: string): boolean {
    return isReviewed(this.marks, revisions, fileKey, hash);
  }

  async set(runId: string, fileKey: string, hash: string, reviewed: boolean): Promise<void> {
    const rest = this.marks.filter((m) => !(m.runId === runId && m.fileKey === fileKey));
    rest.push({ runId, fileKey, hash, reviewed, at: Date.now() });
    this.marks = rest.length > MAX_REVIEWED_MARKS ? rest.slice(rest.length - MAX_REVIEWED_MARKS) : rest;
    await this.memento.update(REVIEWED_MARKS_KEY, this.marks);
  }
}

/** What the state holds, each entry checked; anything else is dropped. */
function readMarks(stored: unknown): ReviewedMark[] {
  if (!Array.isArray(stored)) {
    return [];
  }
  const out: ReviewedMark[] = [];
  for (const item of stored.slice(-MAX_REVIEWED_MARKS)) {
    const m = item as Partial<ReviewedMark> | null;
    if (
      m &&
      typeof m.runId === 'string' &&
      typeof m.fileKey === 'string' &&
      typeof m.hash === 'string' &&
      typeof m.reviewed === 'boolean' &&
      typeof m.at === 'number'
    ) {
      out.push({ runId: m.runId, fileKey: m.fileKey, hash: m.hash, reviewed: m.reviewed, at: m.at });
    }
  }
  return out.sort((a, b) => a.at - b.at);
}
