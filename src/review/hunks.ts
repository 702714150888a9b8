// The agent's changes to one text as separate hunks, and the text you get by taking any subset
// of them: the per-hunk "apply" of the review.
import { sha256Hex } from '../common/sha256';
import { loadDiff } from './jsdiff';
import { splitLines } from './textCodec';

/**
 * Most lines added plus removed that a line diff looks for (jsdiff's maxEditLength): the diff's
 * cost grows with the square of it, so past it the texts are "too different" rather than the
 * extension host blocked (an 8,000-line rewrite took 35 s unbounded; about 0.3 s to give up here).
 */
export const MAX_EDIT_LINES = 2000;
/** A wall-clock limit on one line diff besides MAX_EDIT_LINES (very long texts): jsdiff gives up past it. */
export const DIFF_TIMEOUT_MS = 5000;

/** The texts differ by more than a line diff looks for: the review offers to open or save the file instead. */
export class TooDifferentError extends Error {
  override readonly name = 'TooDifferentError';
  constructor() {
    super(
      `The texts differ in more than ${MAX_EDIT_LINES} lines (or the comparison took longer than ${DIFF_TIMEOUT_MS / 1000} s).`,
    );
  }
}

/** Appends every item without spreading them as arguments (a spread of ~130,000 throws RangeError). */
export function pushAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) {
    target.push(item);
  }
}

/**
 * A line range. `start` is 1-based. An empty range (`count` 0) is an insertion point: the new
 * lines go before line `start` (`start` = line count + 1 at the end of the text).
 */
export interface LineRange {
  start: number;
  count: number;
}

/** One change: lines `old` of the base become lines `new` of the target. */
export interface Hunk {
  /**
   * Depends only on what is removed and added (plus which occurrence of that same change it
   * is), so it stays the same when the text is diffed again after other hunks were applied.
   */
  id: string;
  old: LineRange;
  new: LineRange;
  /** The base's lines, each with its `\n` except possibly the text's last line. */
  removed: string[];
  added: string[];
}

/**
 * Line-level hunks turning `base` into `target` (both LF text), in order, without context.
 * Throws TooDifferentError when they differ by more than MAX_EDIT_LINES lines (or DIFF_TIMEOUT_MS).
 */
export function computeHunks(base: string, target: string): Hunk[] {
  const hunks: Hunk[] = [];
  const seen = new Map<string, number>();
  let oldLine = 1;
  let newLine = 1;
  let pending: { removed: string[]; added: string[]; oldStart: number; newStart: number } | undefined;
  const flush = () => {
    if (!pending) {
      return;
    }
    const key = hunkKey(pending.removed, pending.added);
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    hunks.push({
      id: n === 0 ? key : `${key}-${n}`,
      old: { start: pending.oldStart, count: pending.removed.length },
      new: { start: pending.newStart, count: pending.added.length },
      removed: pending.removed,
      added: pending.added,
    });
    pending = undefined;
  };
  const changes = loadDiff().diffLines(base, target, { maxEditLength: MAX_EDIT_LINES, timeout: DIFF_TIMEOUT_MS });
  if (changes === undefined) {
    throw new TooDifferentError();
  }
  for (const change of changes) {
    const lines = splitLines(change.value);
    if (!change.added && !change.removed) {
      flush();
      oldLine += lines.length;
      newLine += lines.length;
      continue;
    }
    pending ??= { removed: [], added: [], oldStart: oldLine, newStart: newLine };
    if (change.removed) {
      pushAll(pending.removed, lines);
      oldLine += lines.length;
    } else {
      pushAll(pending.added, lines);
      newLine += lines.length;
    }
  }
  flush();
  return hunks;
}

/**
 * The base with the chosen hunks applied and the others left as they were. The hunks must be
 * those computed from this same base; their ranges do not overlap, so the order of `chosen`
 * does not matter, choosing none gives `base`, choosing all gives the target.
 * Unknown ids are ignored.
 */
export function applyHunks(base: string, hunks: readonly Hunk[], chosen: Iterable<string>): string {
  const wanted = new Set(chosen);
  const lines = splitLines(base);
  const out: string[] = [];
  let next = 0; // 0-based index of the next base line to copy
  for (const hunk of hunks) {
    if (!wanted.has(hunk.id)) {
      continue;
    }
    const from = hunk.old.start - 1;
    for (let i = next; i < from; i++) {
      out.push(lines[i]);
    }
    pushAll(out, hunk.added);
    next = from + hunk.old.count;
  }
  for (let i = next; i < lines.length; i++) {
    out.push(lines[i]);
  }
  // Plain concatenation is enough even for a base whose last line has no `\n`: a change after
  // that line always removes it and adds it back terminated (diffLines sees `x` and `x\n` as
  // different lines), so an unterminated line never ends up in the middle.
  return out.join('');
}

function hunkKey(removed: readonly string[], added: readonly string[]): string {
  return `h${sha256Hex(JSON.stringify([removed, added])).slice(0, 12)}`;
}
