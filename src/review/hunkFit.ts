// Places a patch part's hunks in a text exactly (no fuzz), each hunk once: at the line its header
// names shifted by where the hunks before it landed, else at the nearest place (below first on a
// tie) after the previous hunk where its old lines read the same. These are the placements of
// jsdiff's applyPatch with fuzzFactor 0, found without its scan of every line for a hunk that fits
// nowhere: a line index (built at the first hunk that moved) gives the places where the hunk's
// rarest old line stands, and only those are compared. Bounded: MAX_PART_HUNKS hunks, a budget of
// work units (FitBudget, a line compared or indexed is one, long lines more), the event loop given
// a turn every FIT_SLICE units, an AbortSignal. Pure: no vscode.
import type { StructuredPatch } from 'diff';

type Hunk = StructuredPatch['hunks'][number];

/** The most hunks of one file's part that are applied; a part of more is refused whole. */
export const MAX_PART_HUNKS = 10_000;
/** The work units (see FitBudget) one patch may spend on placing its hunks. */
export const MAX_FIT_WORK = 20_000_000;
/** The work done between two turns of the event loop. */
export const FIT_SLICE = 100_000;

/** Work units left; shared by the parts of one patch so the whole patch is bounded. */
export interface FitBudget {
  left: number;
}

export function fitBudget(units = MAX_FIT_WORK): FitBudget {
  return { left: units };
}

export interface FitOptions {
  /** Stop at the first hunk that fits nowhere (the part applies whole or not at all); else leave it out and go on. */
  stopAtMisfit: boolean;
  budget?: FitBudget;
  signal?: AbortSignal;
  /** How the work gives the event loop a turn between slices (a macrotask by default). */
  pause?: () => Promise<void>;
}

export type Fitted =
  /** `misfits`: 0-based indexes of the hunks left out (at most one, the last tried, with stopAtMisfit). */
  | { kind: 'fitted'; text: string; applied: number; misfits: number[] }
  | { kind: 'stopped'; misfit: number }
  | { kind: 'tooManyHunks'; hunks: number }
  | { kind: 'tooMuchWork'; hunk: number }
  | { kind: 'cancelled' };

/** Work counted at once while a moved hunk is looked for. */
const SPEND_EVERY = 4_096;

const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What a hunk asks of the text: its old lines, and what it leaves in their place. */
interface HunkPlan {
  old: string[];
  /** The hunk's lines as they come out, up to its trailing context (not consumed). */
  out: ({ from: 'text'; at: number } | { from: 'hunk'; line: string })[];
  /** Old lines consumed: old.length without the trailing context. */
  consumed: number;
}

function planHunk(hunk: Hunk): HunkPlan {
  const old: string[] = [];
  const out: HunkPlan['out'] = [];
  let trailing = 0;
  for (const line of hunk.lines) {
    const op = line.length > 0 ? line[0] : ' ';
    const content = line.length > 0 ? line.slice(1) : line;
    if (op === '-') {
      old.push(content);
      trailing = 0;
    } else if (op === '+') {
      out.push({ from: 'hunk', line: content });
      trailing = 0;
    } else if (op === ' ') {
      out.push({ from: 'text', at: old.length });
      old.push(content);
      trailing++;
    }
  }
  out.length -= trailing;
  return { old, out, consumed: old.length - trailing };
}

/**
 * Applies `patch`'s hunks to `source` as jsdiff's applyPatch(source, hunks, { fuzzFactor: 0 })
 * would apply the hunks that fit, each once. Never throws.
 */
export async function fitHunks(source: string, patch: StructuredPatch, options: FitOptions): Promise<Fitted> {
  const hunks = patch.hunks;
  if (hunks.length > MAX_PART_HUNKS) {
    return { kind: 'tooManyHunks', hunks: hunks.length };
  }
  const budget = options.budget ?? fitBudget();
  const pause = options.pause ?? macrotask;
  let sinceTurn = 0;
  // Gives the event loop a turn once a slice of work is done; false when the work must stop.
  const spend = async (units: number): Promise<'go' | 'tooMuch' | 'cancelled'> => {
    budget.left -= units;
    sinceTurn += units;
    if (budget.left < 0) {
      return 'tooMuch';
    }
    if (sinceTurn >= FIT_SLICE) {
      sinceTurn = 0;
      await pause();
    }
    return options.signal?.aborted ? 'cancelled' : 'go';
  };
  if (options.signal?.aborted) {
    return { kind: 'cancelled' };
  }
  if (hunks.length === 0) {
    return { kind: 'fitted', text: source, applied: 0, misfits: [] };
  }
  const plans = sameLineEndings(source, hunks).map(planHunk);
  const lines = source.split('\n');
  // The end-of-file newline, as jsdiff reads it from the last hunk's "\ No newline" markers; the
  // text takes it just before the last hunk, so the hunks before it are placed as in a patch
  // of those hunks alone (the old hunk-by-hunk tries).
  const last = hunks.length - 1;
  const eof = endOfFile(hunks[last], lines);
  let lastRefused = eof === 'refuse';

  let index: Map<string, number[]> | undefined;
  const result: string[] = [];
  const misfits: number[] = [];
  let minLine = 0;
  let offset = 0;
  let applied = 0;
  const work = (a: string | undefined, b: string) => 1 + (a !== undefined && a.length === b.length ? a.length >> 6 : 0);

  for (let h = 0; h < hunks.length; h++) {
    const hunk = hunks[h];
    const plan = plans[h];
    let at: number | undefined;
    if (h === last && eof === 'pop') {
      lines.pop();
    } else if (h === last && eof === 'push') {
      lines.push('');
      // The index (if built) learns the new empty line.
      const empty = index?.get('');
      if (empty) {
        empty.push(lines.length - 1);
      } else {
        index?.set('', [lines.length - 1]);
      }
    }
    if (!(h === last && lastRefused)) {
      // A hunk that fits where it is expected costs its own lines.
      const start = hunk.oldStart + offset - 1;
      let units = 0;
      const fitsAt = (pos: number): boolean => {
        for (let j = 0; j < plan.old.length; j++) {
          units += work(lines[pos + j], plan.old[j]);
          if (lines[pos + j] !== plan.old[j]) {
            return false;
          }
        }
        return true;
      };
      if (fitsAt(start)) {
        at = start;
      } else {
        if (!index) {
          index = new Map();
          for (let i = 0; i < lines.length; i++) {
            const seen = index.get(lines[i]);
            if (seen) {
              seen.push(i);
            } else {
              index.set(lines[i], [i]);
            }
            if ((i & 0xffff) === 0xffff) {
              const go = await spend(0x10000);
              if (go !== 'go') {
                return go === 'tooMuch' ? { kind: 'tooMuchWork', hunk: h + 1 } : { kind: 'cancelled' };
              }
            }
          }
          units += lines.length & 0xffff;
        }
        const found = await nearest(plan.old, start, minLine, lines.length - hunk.oldLines, index, fitsAt, async () => {
          if (units < SPEND_EVERY) {
            return 'go';
          }
          const u = units;
          units = 0;
          return spend(u);
        });
        if (found === 'tooMuch' || found === 'cancelled') {
          return found === 'tooMuch' ? { kind: 'tooMuchWork', hunk: h + 1 } : { kind: 'cancelled' };
        }
        at = found;
      }
      const go = await spend(units);
      if (go !== 'go') {
        return go === 'tooMuch' ? { kind: 'tooMuchWork', hunk: h + 1 } : { kind: 'cancelled' };
      }
    }
    if (at === undefined) {
      if (options.stopAtMisfit) {
        return { kind: 'stopped', misfit: h };
      }
      misfits.push(h);
      if (h === last) {
        lastRefused = true;
      }
      continue;
    }
    for (let i = minLine; i < at; i++) {
      result.push(lines[i]);
    }
    for (const piece of plan.out) {
      result.push(piece.from === 'text' ? lines[at + piece.at] : piece.line);
    }
    minLine = at + plan.consumed;
    offset = at + 1 - hunk.oldStart;
    applied++;
  }
  // The last hunk did not apply: the end of the file stays as it was.
  if (lastRefused) {
    if (eof === 'pop') {
      lines.push('');
    } else if (eof === 'push' && lines.length > minLine) {
      lines.pop();
    }
  }
  for (let i = minLine; i < lines.length; i++) {
    result.push(lines[i]);
  }
  return { kind: 'fitted', text: result.join('\n'), applied, misfits };
}

/**
 * The nearest place to `start` within [minLine, maxLine] where `old` fits, in the order of
 * jsdiff's distance iterator (start + 1, start - 1, start + 2, ...); `start` itself was tried.
 * Only places where the rarest of the old lines stands are compared.
 */
async function nearest(
  old: readonly string[],
  start: number,
  minLine: number,
  maxLine: number,
  index: Map<string, number[]>,
  fitsAt: (pos: number) => boolean,
  /** Counts the work of the places tried so far (now and then, not at every place). */
  spend: () => Promise<'go' | 'tooMuch' | 'cancelled'>,
): Promise<number | undefined | 'tooMuch' | 'cancelled'> {
  if (old.length === 0) {
    // An insertion fits anywhere, so at start, which was tried.
    return undefined;
  }
  let rarest = 0;
  let places: number[] = [];
  for (let j = 0; j < old.length; j++) {
    const at = index.get(old[j]);
    if (!at) {
      return undefined;
    }
    if (j === 0 || at.length < places.length) {
      rarest = j;
      places = at;
    }
  }
  // Candidate positions are places[i] - rarest, ascending.
  const pos = (i: number) => places[i] - rarest;
  let lo = 0;
  let hi = places.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pos(mid) <= start) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  let ahead = lo;
  let behind = lo - 1;
  while (behind >= 0 && pos(behind) >= start) {
    behind--;
  }
  for (;;) {
    const a = ahead < places.length && pos(ahead) <= maxLine ? pos(ahead) : undefined;
    const b = behind >= 0 && pos(behind) >= minLine ? pos(behind) : undefined;
    let next: number;
    if (a !== undefined && (b === undefined || a - start <= start - b)) {
      next = a;
      ahead++;
    } else if (b !== undefined) {
      next = b;
      behind--;
    } else {
      return undefined;
    }
    if (fitsAt(next)) {
      return next;
    }
    const go = await spend();
    if (go !== 'go') {
      return go;
    }
  }
}

/**
 * What the last hunk's "\ No newline at end of file" asks of the text (jsdiff's rule at fuzz 0):
 * drop the final empty line, add one, nothing, or it cannot apply.
 */
function endOfFile(hunk: Hunk, lines: readonly string[]): 'pop' | 'push' | 'keep' | 'refuse' {
  let prev = '';
  let remove = false;
  let add = false;
  for (const line of hunk.lines) {
    if (line[0] === '\\') {
      if (prev[0] === '+') {
        remove = true;
      } else if (prev[0] === '-') {
        add = true;
      }
    }
    prev = line;
  }
  const endsEmpty = lines[lines.length - 1] === '';
  if (remove && add) {
    return endsEmpty ? 'refuse' : 'keep';
  }
  if (remove) {
    return endsEmpty ? 'pop' : 'refuse';
  }
  if (add) {
    return endsEmpty ? 'refuse' : 'push';
  }
  return 'keep';
}

/** The hunks with CRLF or LF lines to match the text's, as jsdiff's autoConvertLineEndings does. */
function sameLineEndings(source: string, hunks: readonly Hunk[]): readonly Hunk[] {
  const onlyWin = source.includes('\r\n') && !source.startsWith('\n') && !/[^\r]\n/.test(source);
  const onlyUnix = !source.includes('\r\n') && source.includes('\n');
  const isUnix = !hunks.some((h) => h.lines.some((l) => !l.startsWith('\\') && l.endsWith('\r')));
  const ends = (h: Hunk, i: number) =>
    h.lines[i].startsWith('\\') || h.lines[i].endsWith('\r') || h.lines[i + 1]?.startsWith('\\');
  if (onlyWin && isUnix) {
    return hunks.map((h) => ({ ...h, lines: h.lines.map((l, i) => (ends(h, i) ? l : l + '\r')) }));
  }
  const isWin =
    hunks.some((h) => h.lines.some((l) => l.endsWith('\r'))) && hunks.every((h) => h.lines.every((_, i) => ends(h, i)));
  if (onlyUnix && isWin) {
    return hunks.map((h) => ({ ...h, lines: h.lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)) }));
  }
  return hunks;
}
