// Review comments on what a run changed (pure): the comment model, its caps, where it sits in a
// file that changed since (re-anchoring by its quote), its fate in the agent's next revision, and
// the instructions text that carries the comments to a server that does not know
// `review_comments` (docs/PROTOCOL.md, Review conversations).
import { randomUUID } from 'node:crypto';
import type { ReviewCommentBody } from '../api/steering';
import type { Translate } from '../common/translate';

/** Which version a comment is on: the run's (`agent`) or the one it started from (`base`). */
export type CommentSide = 'agent' | 'base';

/** One comment a person wrote on lines of a run's file. */
export interface ReviewComment {
  /** The client's own id: `rc_` + a UUID. */
  id: string;
  /** The run whose revision the comment is on. */
  runId: string;
  /** Relative to the repository root (projects) or the attachment's filename (uploads), `/`-separated. */
  path: string;
  side: CommentSide;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** The lines as the person read them (joined with `\n`). */
  quote: string;
  body: string;
}

/** The wire shape of `review_comments` items. */
export type WireReviewComment = ReviewCommentBody;

/** The protocol's caps (docs/PROTOCOL.md, Review conversations). */
export const COMMENT_LIMITS = {
  count: 100,
  bodyBytes: 16 * 1024,
  quoteBytes: 4 * 1024,
  pathChars: 1024,
  /** The instructions text the comments are written into (the reference runtime takes 10,000 characters). */
  instructionsChars: 10_000,
} as const;

/** Text files longer than this are not searched for a quote (the comment is then outdated). */
export const MAX_ANCHOR_LINES = 200_000;

const COMMENT_ID = /^rc_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function newCommentId(): string {
  return `rc_${randomUUID()}`;
}

export function isCommentId(value: unknown): value is string {
  return typeof value === 'string' && COMMENT_ID.test(value);
}

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const kib = (bytes: number): string => (bytes / 1024).toFixed(1);

/** The lines of a text (LF or CRLF), without their ends; a final newline adds no line. */
export function textLines(text: string): string[] {
  if (text === '') {
    return [];
  }
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines[lines.length - 1] === '') {
    lines.pop();
  }
  return lines;
}

/** Lines start..end (1-based, inclusive) of `lines`, joined with `\n`; undefined when out of range. */
export function quoteLines(lines: readonly string[], startLine: number, endLine: number): string | undefined {
  if (!validRange(startLine, endLine) || endLine > Math.max(lines.length, 1)) {
    return undefined;
  }
  return lines.slice(startLine - 1, endLine).join('\n');
}

function validRange(startLine: number, endLine: number): boolean {
  return Number.isSafeInteger(startLine) && Number.isSafeInteger(endLine) && startLine >= 1 && endLine >= startLine;
}

/**
 * Why a comment cannot be sent, as a sentence for the person; undefined when it can. The caps are
 * the protocol's: a body of at most 16 KiB, a quote of at most 4 KiB (comment on fewer lines).
 */
export function commentProblem(comment: ReviewComment, t: Translate): string | undefined {
  if (comment.body.trim() === '') {
    return t('The comment on {0} is empty: write what the agent should change.', comment.path);
  }
  const body = utf8Bytes(comment.body);
  if (body > COMMENT_LIMITS.bodyBytes) {
    return t(
      'The comment on {0} is {1} KiB; a comment may be at most 16 KiB. Shorten it or split it into two.',
      comment.path,
      kib(body),
    );
  }
  const quote = utf8Bytes(comment.quote);
  if (quote > COMMENT_LIMITS.quoteBytes) {
    return t(
      'The lines commented on in {0} are {1} KiB; a comment may quote at most 4 KiB. Comment on fewer lines.',
      comment.path,
      kib(quote),
    );
  }
  if (!validRange(comment.startLine, comment.endLine)) {
    return t('The comment on {0} has no valid lines.', comment.path);
  }
  if (!relativePathOk(comment.path)) {
    return t('The comment names a file the agent cannot know: {0}.', comment.path.slice(0, 200));
  }
  return undefined;
}

/** `/`-separated, relative, no `..`, no empty or control characters, bounded. */
function relativePathOk(path: string): boolean {
  if (path === '' || path.length > COMMENT_LIMITS.pathChars || path.startsWith('/') || /^[A-Za-z]:/.test(path)) {
    return false;
  }
  if (/[\u0000-\u001f\u007f\\]/.test(path)) {
    return false;
  }
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** Why these comments cannot go out together (count, then the first comment's problem); undefined: they can. */
export function batchProblem(comments: readonly ReviewComment[], t: Translate): string | undefined {
  if (comments.length === 0) {
    return t('There are no comments to send.');
  }
  if (comments.length > COMMENT_LIMITS.count) {
    return t(
      '{0} comments are more than one follow-up may carry ({1}). Send the first {1}, or resolve some.',
      comments.length,
      COMMENT_LIMITS.count,
    );
  }
  const ids = new Set<string>();
  for (const comment of comments) {
    if (ids.has(comment.id)) {
      return t('Two comments share the id {0}.', comment.id);
    }
    ids.add(comment.id);
    const problem = commentProblem(comment, t);
    if (problem !== undefined) {
      return problem;
    }
  }
  return undefined;
}

export function toWire(comment: ReviewComment): WireReviewComment {
  return {
    id: comment.id,
    path: comment.path,
    start_line: comment.startLine,
    end_line: comment.endLine,
    side: comment.side,
    quote: comment.quote,
    body: comment.body,
  };
}

/** Where a comment sits in the text as it is now. */
export type Anchor =
  | { state: 'exact'; startLine: number; endLine: number }
  | { state: 'moved'; startLine: number; endLine: number }
  | { state: 'outdated' };

/**
 * Finds the comment's lines in `text`: at its own lines when they still read as quoted, else the
 * occurrence of the quote nearest to them, else outdated (the quoted lines are gone or changed).
 */
export function anchorComment(
  comment: Pick<ReviewComment, 'startLine' | 'endLine' | 'quote'>,
  text: string | readonly string[],
): Anchor {
  const lines = typeof text === 'string' ? textLines(text) : text;
  const quoted = quoteAsLines(comment.quote);
  const span = comment.endLine - comment.startLine + 1;
  if (!validRange(comment.startLine, comment.endLine) || quoted.length !== span) {
    return { state: 'outdated' };
  }
  if (sameLines(lines, comment.startLine, quoted)) {
    return { state: 'exact', startLine: comment.startLine, endLine: comment.endLine };
  }
  if (lines.length > MAX_ANCHOR_LINES) {
    return { state: 'outdated' };
  }
  let best: number | undefined;
  for (let start = 1; start + span - 1 <= lines.length; start++) {
    if (sameLines(lines, start, quoted)) {
      if (best === undefined || Math.abs(start - comment.startLine) < Math.abs(best - comment.startLine)) {
        best = start;
      }
    }
  }
  return best === undefined ? { state: 'outdated' } : { state: 'moved', startLine: best, endLine: best + span - 1 };
}

/** A quote's lines: it is lines joined with `\n`, so an empty quote is one empty line. */
function quoteAsLines(quote: string): string[] {
  return quote.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

function sameLines(lines: readonly string[], start: number, quoted: readonly string[]): boolean {
  if (start + quoted.length - 1 > lines.length) {
    return false;
  }
  for (let i = 0; i < quoted.length; i++) {
    if (lines[start - 1 + i] !== quoted[i]) {
      return false;
    }
  }
  return true;
}

/** What the agent's `review_comment.addressed` event said about a comment. */
export interface AgentVerdict {
  status: 'addressed' | 'declined';
  note?: string;
}

/** A comment's fate in the follow-up's revision. */
export type CommentFate =
  | { fate: 'addressed'; by: 'agent' | 'change'; note?: string }
  | { fate: 'declined'; note?: string }
  | { fate: 'notChanged' }
  | { fate: 'outdated' };

/**
 * The fate of a comment once the follow-up ran. The agent's word comes first (its event); else an
 * agent-side comment is judged by its quoted lines in the new revision: gone or changed there
 * (while the lines of the revision it was written on still read as quoted) is "addressed", still
 * there is "not changed"; a file missing from the new revision, a quote that no longer matched its
 * own revision, or a base-side comment whose file changed, is "outdated" (not judged).
 */
export function commentFate(
  comment: ReviewComment,
  input: { verdict?: AgentVerdict; previousText?: string; nextText?: string },
): CommentFate {
  if (input.verdict) {
    return input.verdict.status === 'declined'
      ? { fate: 'declined', ...(input.verdict.note !== undefined ? { note: input.verdict.note } : {}) }
      : { fate: 'addressed', by: 'agent', ...(input.verdict.note !== undefined ? { note: input.verdict.note } : {}) };
  }
  if (input.nextText === undefined) {
    return { fate: 'outdated' };
  }
  if (comment.side === 'base') {
    return input.previousText !== undefined && input.previousText === input.nextText
      ? { fate: 'notChanged' }
      : { fate: 'outdated' };
  }
  if (input.previousText !== undefined && anchorComment(comment, input.previousText).state === 'outdated') {
    return { fate: 'outdated' };
  }
  return anchorComment(comment, input.nextText).state === 'outdated'
    ? { fate: 'addressed', by: 'change' }
    : { fate: 'notChanged' };
}

/** The instructions that carry the comments as text, and whether they had to be shortened. */
export interface CommentInstructions {
  text: string;
  /** Quotes were left out to stay within the bound. */
  quotesLeftOut: boolean;
  /** Comment bodies were shortened (the whole of each still goes in `review_comments`). */
  bodiesShortened: number;
}

/**
 * The follow-up's instructions: the person's overall instruction, then each comment with its
 * file, lines, side, quote and body, in English (the agent reads them). At most
 * `COMMENT_LIMITS.instructionsChars`: quotes give way first, then bodies are shortened, each cut
 * said in the text and in the result (the confirmation shows it; nothing is cut silently).
 */
export function commentInstructions(
  comments: readonly ReviewComment[],
  overall: string | undefined,
  max: number = COMMENT_LIMITS.instructionsChars,
): CommentInstructions {
  const head = overall !== undefined && overall.trim() !== '' ? `${overall.trim()}\n\n` : '';
  const intro = `Review comments on the previous revision (${comments.length}); each names a file, its lines and the version they are on:\n`;
  const full = head + intro + comments.map((c, i) => commentBlock(c, i, true)).join('');
  if (full.length <= max) {
    return { text: full, quotesLeftOut: false, bodiesShortened: 0 };
  }
  const noQuotes = head + intro + comments.map((c, i) => commentBlock(c, i, false)).join('');
  if (noQuotes.length <= max) {
    return { text: noQuotes, quotesLeftOut: true, bodiesShortened: 0 };
  }
  // Each body gets an equal share of what is left after the fixed parts.
  const fixed = head.length + intro.length + comments.reduce((n, c, i) => n + commentBlock(c, i, false, '').length, 0);
  const share = Math.max(0, Math.floor((max - fixed) / Math.max(comments.length, 1)) - CUT_NOTE.length);
  let shortened = 0;
  const blocks = comments.map((c, i) => {
    if (c.body.length <= share) {
      return commentBlock(c, i, false);
    }
    shortened++;
    return commentBlock(c, i, false, `${cutAtCodePoint(c.body, share)}${CUT_NOTE}`);
  });
  const text = (head + intro + blocks.join('')).slice(0, max);
  return { text, quotesLeftOut: true, bodiesShortened: shortened };
}

const CUT_NOTE = ' [shortened here; the whole comment is in review_comments]';

function commentBlock(c: ReviewComment, index: number, withQuote: boolean, body: string = c.body): string {
  const lines = c.startLine === c.endLine ? `line ${c.startLine}` : `lines ${c.startLine}-${c.endLine}`;
  const side = c.side === 'agent' ? "the agent's version" : 'the version before the agent';
  const quote = withQuote && c.quote !== '' ? `${indent(c.quote, '   > ')}\n` : '';
  return `\n${index + 1}. ${c.path}, ${lines} (${side}) [${c.id}]:\n${quote}${indent(body, '   ')}\n`;
}

function indent(text: string, prefix: string): string {
  return textLines(text)
    .map((line) => prefix + line)
    .join('\n');
}

function cutAtCodePoint(text: string, max: number): string {
  if (text.length <= max) {
    return text;
  }
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** Bounds on what a follow-up's events may say about its comments. */
export const FATE_LIMITS = {
  /** Events of the follow-up read for its verdicts. */
  events: 5_000,
  /** Characters of the agent's note kept (then a visible mark). */
  noteChars: 1_000,
  /** Unknown comment ids remembered for the log. */
  unknownIds: 10,
} as const;

/** Ends a note cut at `FATE_LIMITS.noteChars`. */
export const NOTE_CUT_MARK = ' [… note cut]';

/** What the follow-up's `review_comment.addressed` events said, read within the bounds. */
export interface VerdictReading {
  /** The last verdict per comment that was sent with the follow-up. */
  verdicts: Map<string, AgentVerdict>;
  /** Comment ids the follow-up was never sent (first few), and how many events named them. */
  unknownIds: string[];
  unknownCount: number;
  /** Events of the name whose fields were not a comment id and a known status. */
  malformed: number;
}

/**
 * The agent's verdicts from a follow-up's events (any others are passed over): a verdict counts
 * only for a comment sent with that follow-up (any other id is counted for the log, never shown),
 * only with status `addressed` or `declined`; its note is kept when it is text, cut with a mark.
 * A later verdict on the same comment replaces an earlier one (the agent's last word).
 */
export function readVerdicts(
  events: Iterable<{ event: string; data: Record<string, unknown> }>,
  sentIds: ReadonlySet<string>,
): VerdictReading {
  const reading: VerdictReading = { verdicts: new Map(), unknownIds: [], unknownCount: 0, malformed: 0 };
  for (const { event, data } of events) {
    if (event !== 'review_comment.addressed') {
      continue;
    }
    const id = data.comment_id;
    const status = data.status;
    if (typeof id !== 'string' || (status !== 'addressed' && status !== 'declined')) {
      reading.malformed++;
      continue;
    }
    if (!sentIds.has(id)) {
      reading.unknownCount++;
      if (reading.unknownIds.length < FATE_LIMITS.unknownIds && !reading.unknownIds.includes(id)) {
        reading.unknownIds.push(id.slice(0, 100));
      }
      continue;
    }
    const note = typeof data.note === 'string' && data.note.trim() !== '' ? cutNote(data.note) : undefined;
    reading.verdicts.set(id, { status, ...(note !== undefined ? { note } : {}) });
  }
  return reading;
}

/** A note of at most `max` characters (not splitting a surrogate pair), the mark saying it was cut. */
export function cutNote(note: string, max: number = FATE_LIMITS.noteChars): string {
  return note.length <= max ? note : `${cutAtCodePoint(note, max)}${NOTE_CUT_MARK}`;
}
