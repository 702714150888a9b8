// Three-way merge for a workspace file that changed since it was uploaded: the agent's changes
// (as sent -> agent) are carried onto the workspace's current text (as sent -> workspace now).
//
// The walk, in base ("as sent") line numbers:
// 1. Diff base->workspace and base->agent into hunks (computeHunks, i.e. jsdiff's diffLines).
// 2. Sort all hunks of both sides by where they start in the base and group the ones that
//    overlap (see `overlaps`), transitively, so each group is one stretch of the base. A hunk
//    that leaves its side's last line without a newline also takes in what follows it.
// 3. A group with hunks from one side only is taken from that side: that is a clean change.
//    A group with hunks from both sides is a conflict, unless both sides turned that stretch
//    into the same lines (then it is taken once).
// Between groups the base lines are common to all three texts.
import type { Hunk, LineRange } from './hunks';
import { computeHunks, pushAll } from './hunks';
import { splitLines } from './textCodec';

/** What to put in the merged text where the two sides conflict. */
export type ConflictStyle = 'workspace' | 'agent' | 'markers';

export interface MergeConflict {
  /** Stable within one merge: `c1`, `c2`, ... in text order. */
  id: string;
  /** The stretch of the file as sent, and what each side made of it, in each side's lines. */
  base: LineRange;
  workspace: LineRange;
  agent: LineRange;
  /** Where it sits in the merged text (markers included when the style is `markers`). */
  merged: LineRange;
  baseLines: string[];
  workspaceLines: string[];
  agentLines: string[];
}

export interface MergeResult {
  /** All three texts are LF text; `text` is the workspace text with the agent's changes. */
  text: string;
  /** No conflicts: `text` holds every change of both sides. */
  clean: boolean;
  conflicts: MergeConflict[];
  /** How many of the agent's changes were carried over without conflict (identical ones included). */
  appliedAgentHunks: number;
}

export const MARKER_WORKSPACE = '<<<<<<< workspace';
export const MARKER_SEPARATOR = '=======';
export const MARKER_AGENT = '>>>>>>> agent';

/**
 * Merges `agent`'s changes to `base` into `workspace` (TooDifferentError from computeHunks when
 * a side differs from the base by too much to diff). Conflicting stretches get the
 * workspace's lines (the default: nothing the user wrote is lost), the agent's lines, or
 * both between conflict markers.
 */
export function mergeThreeWay(
  base: string,
  workspace: string,
  agent: string,
  options: { conflictStyle?: ConflictStyle } = {},
): MergeResult {
  const style = options.conflictStyle ?? 'workspace';
  const baseLines = splitLines(base);
  const ours = computeHunks(base, workspace).map((hunk) => ({ hunk, side: 'workspace' as const }));
  const theirs = computeHunks(base, agent).map((hunk) => ({ hunk, side: 'agent' as const }));
  const all = [...ours, ...theirs].sort(
    (a, b) => a.hunk.old.start - b.hunk.old.start || a.hunk.old.count - b.hunk.old.count,
  );

  const out: string[] = [];
  const conflicts: MergeConflict[] = [];
  let applied = 0;
  let baseNext = 1; // next base line (1-based) not yet copied
  let oursShift = 0; // workspace line = base line + oursShift, outside hunks
  let theirsShift = 0; // agent line = base line + theirsShift, outside hunks

  for (let i = 0; i < all.length;) {
    const group = [all[i]];
    let start = all[i].hunk.old.start;
    let end = start + all[i].hunk.old.count;
    // A side whose new lines end the file without a final newline has nothing after it; a
    // change of the other side at that point (an append) joins the group, or it would be glued
    // onto that unterminated line.
    const endsOpen = () => group.some((g) => !(g.hunk.added.at(-1) ?? '\n').endsWith('\n'));
    for (i++; i < all.length && (overlaps(start, end, all[i].hunk.old) || endsOpen()); i++) {
      group.push(all[i]);
      end = Math.max(end, all[i].hunk.old.start + all[i].hunk.old.count);
      start = Math.min(start, all[i].hunk.old.start);
    }
    pushAll(out, baseLines.slice(baseNext - 1, start - 1));
    const stretch = baseLines.slice(start - 1, end - 1);
    const oursHunks = group.filter((g) => g.side === 'workspace').map((g) => g.hunk);
    const theirsHunks = group.filter((g) => g.side === 'agent').map((g) => g.hunk);
    const oursLines = replay(stretch, start, oursHunks);
    const theirsLines = replay(stretch, start, theirsHunks);

    if (theirsHunks.length === 0) {
      pushAll(out, oursLines);
    } else if (oursHunks.length === 0 || sameLines(oursLines, theirsLines)) {
      pushAll(out, theirsLines);
      applied += theirsHunks.length;
    } else {
      const mergedStart = out.length + 1;
      if (style === 'workspace') {
        pushAll(out, oursLines);
      } else if (style === 'agent') {
        pushAll(out, theirsLines);
      } else {
        out.push(`${MARKER_WORKSPACE}\n`);
        pushAll(out, terminated(oursLines));
        out.push(`${MARKER_SEPARATOR}\n`);
        pushAll(out, terminated(theirsLines));
        out.push(`${MARKER_AGENT}\n`);
      }
      conflicts.push({
        id: `c${conflicts.length + 1}`,
        base: { start, count: stretch.length },
        workspace: { start: start + oursShift, count: oursLines.length },
        agent: { start: start + theirsShift, count: theirsLines.length },
        merged: { start: mergedStart, count: out.length + 1 - mergedStart },
        baseLines: stretch,
        workspaceLines: oursLines,
        agentLines: theirsLines,
      });
    }
    oursShift += oursLines.length - stretch.length;
    theirsShift += theirsLines.length - stretch.length;
    baseNext = end;
  }
  pushAll(out, baseLines.slice(baseNext - 1));
  return { text: out.join(''), clean: conflicts.length === 0, conflicts, appliedAgentHunks: applied };
}

/**
 * Whether a hunk touches the group spanning base lines [start, end). Ranges that share a line
 * overlap. Two insertions at the same point overlap (their order would be a guess), and so does
 * an insertion strictly inside a replaced stretch. Changes that merely sit next to each other
 * (one ends where the other begins) do not: both are applied, in line order.
 */
function overlaps(start: number, end: number, range: LineRange): boolean {
  const rStart = range.start;
  const rEnd = range.start + range.count;
  if (range.count === 0 && end === start) {
    return rStart === start;
  }
  if (range.count === 0) {
    return rStart > start && rStart < end;
  }
  if (end === start) {
    return start > rStart && start < rEnd;
  }
  return rStart < end && start < rEnd;
}

/** One side's version of a base stretch starting at base line `start`, given its hunks in it. */
function replay(stretch: readonly string[], start: number, hunks: readonly Hunk[]): string[] {
  const out: string[] = [];
  let next = 0;
  for (const hunk of hunks) {
    const from = hunk.old.start - start;
    pushAll(out, stretch.slice(next, from));
    pushAll(out, hunk.added);
    next = from + hunk.old.count;
  }
  pushAll(out, stretch.slice(next));
  return out;
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

/** A side's last line may lack its `\n` (end of file); a marker after it must start a line. */
function terminated(lines: readonly string[]): string[] {
  return lines.map((line) => (line.endsWith('\n') ? line : `${line}\n`));
}
