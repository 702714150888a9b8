// Pure helpers of the review's editor layer (no vscode): how a hunk is described in a quick
// pick, the line edits that apply chosen hunks to an open document, and whether an upload's
// origin can be written from this window, and what the review's notice says of files that moved on.
import type { Translate } from '../common/translate';
import type { Hunk } from '../review/hunks';
import type { UploadOrigin } from '../review/types';

const PREVIEW_CHARS = 80;

export interface HunkDescription {
  /** `lines 3-5`, `line 7`, `after line 9`, `at the start` (in the workspace file). */
  lines: string;
  /** `+2 -1` */
  counts: string;
  /** The first changed line, trimmed and cut: the added one, else the removed one. */
  preview: string;
}

export function describeHunk(hunk: Hunk): HunkDescription {
  const { start, count } = hunk.old;
  const lines =
    count === 0
      ? start <= 1
        ? 'at the start'
        : `after line ${start - 1}`
      : count === 1
        ? `line ${start}`
        : `lines ${start}-${start + count - 1}`;
  const sample = hunk.added.find((l) => l.trim() !== '') ?? hunk.removed.find((l) => l.trim() !== '') ?? '';
  const sign = hunk.added.some((l) => l.trim() !== '') ? '+ ' : '- ';
  const trimmed = sample.replace(/\r?\n$/, '').trim();
  const preview =
    trimmed === '' ? '' : sign + (trimmed.length > PREVIEW_CHARS ? `${trimmed.slice(0, PREVIEW_CHARS - 1)}…` : trimmed);
  return { lines, counts: `+${hunk.added.length} -${hunk.removed.length}`, preview };
}

/** One replacement of whole lines: lines [startLine, endLine) (0-based) become `text` (LF). */
export interface LineEdit {
  startLine: number;
  endLine: number;
  text: string;
}

/**
 * The chosen hunks as line replacements on the text they were computed from, so an open
 * editor keeps its cursor and folds outside the changed lines. Unknown ids are skipped.
 */
export function lineEditsFor(hunks: readonly Hunk[], chosen: Iterable<string>): LineEdit[] {
  const wanted = new Set(chosen);
  return hunks
    .filter((h) => wanted.has(h.id))
    .map((h) => ({ startLine: h.old.start - 1, endLine: h.old.start - 1 + h.old.count, text: h.added.join('') }));
}

export type OriginPlace =
  | { kind: 'here'; folder: string }
  | { kind: 'outside' } // uploaded from outside any workspace folder
  | { kind: 'otherWindow' }; // its workspace folder is not open in this window

/** Where an upload's workspace file is, seen from a window with `openFolders` (URI strings). */
export function placeOf(origin: UploadOrigin, openFolders: readonly string[]): OriginPlace {
  if (!origin.workspaceFolder) {
    return { kind: 'outside' };
  }
  const folder = stripSlash(origin.workspaceFolder);
  if (!openFolders.some((f) => stripSlash(f) === folder)) {
    return { kind: 'otherWindow' };
  }
  if (!origin.uri.startsWith(`${folder}/`)) {
    return { kind: 'outside' };
  }
  return { kind: 'here', folder: origin.workspaceFolder };
}

function stripSlash(uri: string): string {
  return uri.endsWith('/') ? uri.slice(0, -1) : uri;
}

/**
 * The notice's sentences for files that changed since the agent's copy was taken: an uploaded file
 * "since it was uploaded", a project file since the commit the agent worked on (never "uploaded":
 * nothing was).
 */
export function changedSinceSentences(
  origins: readonly Pick<UploadOrigin, 'relativePath' | 'baseCommit'>[],
  t: Translate,
): string[] {
  const sentences: string[] = [];
  const uploaded = origins.filter((o) => o.baseCommit === undefined);
  if (uploaded.length > 0) {
    sentences.push(
      t(
        "{0} changed since it was uploaded: the agent's changes are merged onto it (the diff shows the file as sent, your edits and the agent's).",
        uploaded.map((o) => o.relativePath).join(', '),
      ),
    );
  }
  const byCommit = new Map<string, string[]>();
  for (const o of origins) {
    if (o.baseCommit !== undefined) {
      byCommit.set(o.baseCommit, [...(byCommit.get(o.baseCommit) ?? []), o.relativePath]);
    }
  }
  for (const [commit, paths] of byCommit) {
    sentences.push(
      t(
        "{0} changed since commit {1}, which the agent worked on: the agent's changes are merged onto it (the diff shows the file at that commit, your edits and the agent's).",
        paths.join(', '),
        commit.slice(0, 7),
      ),
    );
  }
  return sentences;
}
