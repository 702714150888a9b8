// Review comments on a follow-up (fork or resume): their checks on the way in, and the built-in
// agent's rule for acting on them (README "Review comments").
import { badRequest } from './httpErrors';

export interface RuntimeReviewComment {
  id: string;
  path: string;
  start_line: number;
  end_line: number;
  side: 'agent' | 'base';
  quote: string;
  body: string;
}

export const REVIEW_COMMENT_LIMITS = { count: 100, bodyBytes: 16 * 1024, quoteBytes: 4 * 1024, pathChars: 1024 };

/** What the agent appends to each line it rewrote for a comment (the checkable rule). */
export const REVISED_MARK = ' (revised per review)';

/** A comment whose body says this (any case) is declined: the agent leaves its lines alone. */
const DECLINE = /leave it/i;

/** `review_comments` of a fork or resume body: [] when absent; 400 `review_comments` when malformed. */
export function parseReviewComments(body: Record<string, unknown>): RuntimeReviewComment[] {
  const raw = body.review_comments;
  if (raw === undefined || raw === null) {
    return [];
  }
  if (!Array.isArray(raw)) {
    throw badRequest('review_comments must be an array.', 'review_comments');
  }
  if (raw.length > REVIEW_COMMENT_LIMITS.count) {
    throw badRequest(`review_comments may hold at most ${REVIEW_COMMENT_LIMITS.count} comments.`, 'review_comments');
  }
  const ids = new Set<string>();
  return raw.map((item: unknown, index) => {
    const bad = (why: string) => badRequest(`review_comments[${index}]: ${why}`, 'review_comments');
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw bad('must be an object.');
    }
    const c = item as Record<string, unknown>;
    if (typeof c.id !== 'string' || !/^rc_[0-9A-Za-z-]{1,64}$/.test(c.id) || ids.has(c.id)) {
      throw bad('id must be a unique rc_ id.');
    }
    ids.add(c.id);
    if (typeof c.path !== 'string' || c.path === '' || c.path.length > REVIEW_COMMENT_LIMITS.pathChars) {
      throw bad('path must be a non-empty string.');
    }
    const start = c.start_line;
    const end = c.end_line;
    if (
      !Number.isSafeInteger(start) ||
      !Number.isSafeInteger(end) ||
      (start as number) < 1 ||
      (end as number) < (start as number)
    ) {
      throw bad('start_line and end_line must be 1-based with start_line <= end_line.');
    }
    if (c.side !== 'agent' && c.side !== 'base') {
      throw bad('side must be "agent" or "base".');
    }
    if (typeof c.quote !== 'string' || Buffer.byteLength(c.quote) > REVIEW_COMMENT_LIMITS.quoteBytes) {
      throw bad('quote must be a string of at most 4 KiB.');
    }
    if (
      typeof c.body !== 'string' ||
      c.body.trim() === '' ||
      Buffer.byteLength(c.body) > REVIEW_COMMENT_LIMITS.bodyBytes
    ) {
      throw bad('body must be a non-empty string of at most 16 KiB.');
    }
    return {
      id: c.id,
      path: c.path,
      start_line: start as number,
      end_line: end as number,
      side: c.side,
      quote: c.quote,
      body: c.body,
    };
  });
}

export interface CommentVerdict {
  comment_id: string;
  status: 'addressed' | 'declined';
  note: string;
}

/**
 * The built-in agent's rule, for one file's text (the previous revision) and the comments on it:
 * a body saying "leave it" is declined; an agent-side comment whose lines still read as its quote
 * has each of those lines end in REVISED_MARK (once) and is addressed; any other comment (base
 * side, lines that no longer match) gets no verdict, so the client judges it from the revision.
 */
export function actOnComments(
  text: string,
  comments: readonly RuntimeReviewComment[],
): { text: string; verdicts: CommentVerdict[] } {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const finalNewline = text.endsWith('\n');
  const lines = text === '' ? [] : text.split(/\r?\n/);
  if (finalNewline) {
    lines.pop();
  }
  const verdicts: CommentVerdict[] = [];
  for (const comment of comments) {
    if (DECLINE.test(comment.body)) {
      verdicts.push({ comment_id: comment.id, status: 'declined', note: 'Left as it is, as the comment asked.' });
      continue;
    }
    if (comment.side !== 'agent' || comment.end_line > lines.length) {
      continue;
    }
    const current = lines.slice(comment.start_line - 1, comment.end_line).join('\n');
    if (current !== comment.quote.replace(/\r\n/g, '\n')) {
      continue;
    }
    for (let i = comment.start_line - 1; i < comment.end_line; i++) {
      if (!lines[i].endsWith(REVISED_MARK)) {
        lines[i] += REVISED_MARK;
      }
    }
    const span =
      comment.start_line === comment.end_line
        ? `line ${comment.start_line}`
        : `lines ${comment.start_line}-${comment.end_line}`;
    verdicts.push({ comment_id: comment.id, status: 'addressed', note: `Rewrote ${span} of ${comment.path}.` });
  }
  const joined = lines.join(eol);
  return { text: finalNewline && lines.length > 0 ? joined + eol : joined, verdicts };
}
