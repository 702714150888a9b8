// The agent's changes to one text as separate hunks, and the text you get by taking any subset
// of them: the per-hunk "apply" of the review.
import { createHash } from 'node:crypto';
import { loadDiff } from './jsdiff';
import { splitLines } from './textCodec';

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

/** Line-level hunks turning `base` into `target` (both LF text), in order, without context. */
export function computeHunks(base: string, target: string): Hunk[] {
  const hunks: Hunk[] = [];
  const seen = new Map<string, number>();
  let oldLine = 1;
  let newLine = 1;
  let pending: { removed: string[]; added: string[]; oldStart: number; newStart: number } | undefined;
  const flush = () => {
    if (!pending) return;
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
  for (const change of loadDiff().diffLines(base, target)) {
    const lines = splitLines(change.value);
    if (!change.added && !change.removed) {
      flush();
      oldLine += lines.length;
      newLine += lines.length;
      continue;
    }
    pending ??= { removed: [], added: [], oldStart: oldLine, newStart: newLine };
    if (change.removed) {
      pending.removed.push(...lines);
      oldLine += lines.length;
    } else {
      pending.added.push(...lines);
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
    if (!wanted.has(hunk.id)) continue;
    const from = hunk.old.start - 1;
    out.push(...lines.slice(next, from), ...hunk.added);
    next = from + hunk.old.count;
  }
  out.push(...lines.slice(next));
  // Plain concatenation is enough even for a base whose last line has no `\n`: a change after
  // that line always removes it and adds it back terminated (diffLines sees `x` and `x\n` as
  // different lines), so an unterminated line never ends up in the middle.
  return out.join('');
}

function hunkKey(removed: readonly string[], added: readonly string[]): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify([removed, added]));
  return `h${hash.digest('hex').slice(0, 12)}`;
}
