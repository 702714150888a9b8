// Patch artifacts: read one with jsdiff, apply a file's part to the file as sent, and write a
// whole change set as one patch ("Save as patch").
import type { StructuredPatch } from 'diff';
import { type Translate, untranslated } from '../common/translate';
import { type FitBudget, fitHunks, MAX_PART_HUNKS } from './hunkFit';
import { loadDiff } from './jsdiff';

/** One file's part of a patch. */
export interface PatchPart {
  /** The file it is about: the new name, else the old one, without the `a/` or `b/` prefix. */
  name: string | undefined;
  oldName: string | undefined;
  newName: string | undefined;
  /** What the part does besides editing lines; these are not reviewable as text edits. */
  operation: 'modify' | 'create' | 'delete' | 'rename' | 'copy' | 'binary';
  hunkCount: number;
  patch: StructuredPatch;
}

export type ParsedPatch = { ok: true; parts: PatchPart[] } | { ok: false; message: string };
export type PatchApplied = { ok: true; text: string } | { ok: false; message: string };

/** Parses a unified diff (plain or git-style). Never throws. */
export function parsePatchText(text: string, t: Translate = untranslated): ParsedPatch {
  // Outside the try: an incomplete install is not a patch that cannot be read.
  const { parsePatch } = loadDiff();
  let patches: StructuredPatch[];
  try {
    patches = parsePatch(text);
  } catch (err) {
    return {
      ok: false,
      message: t('The patch cannot be read: {0}.', err instanceof Error ? err.message.trim() : String(err)),
    };
  }
  const parts = patches
    .filter((p) => p.hunks.length > 0 || p.isBinary || p.isRename || p.isCopy || p.isDelete || p.isCreate)
    .map(toPart);
  if (parts.length === 0) {
    return { ok: false, message: t('The patch names no file and changes nothing; it is not a unified diff.') };
  }
  return { ok: true, parts };
}

/**
 * Applies a file's part to its text as sent (both LF text), exactly: no fuzz, so a part that
 * does not match is refused rather than put in a guessed place. Each hunk is placed once, after
 * the ones before it (hunkFit.ts); the work is bounded (MAX_PART_HUNKS, a FitBudget) and gives
 * the event loop a turn between slices. Never throws.
 */
export async function applyPatchPart(
  part: PatchPart,
  text: string,
  t: Translate = untranslated,
  options: { budget?: FitBudget; signal?: AbortSignal } = {},
): Promise<PatchApplied> {
  const unsupported = unsupportedReason(part, t);
  if (unsupported) {
    return { ok: false, message: unsupported };
  }
  const count = part.patch.hunks.length;
  const fitted = await fitHunks(text, part.patch, { stopAtMisfit: true, ...options });
  const name = part.name ?? t('a file');
  switch (fitted.kind) {
    case 'fitted':
      return { ok: true, text: fitted.text };
    case 'tooManyHunks':
      return {
        ok: false,
        message: t(
          'The patch changes {0} in {1} places, more than the {2} that are applied at most; it is not applied.',
          name,
          count,
          MAX_PART_HUNKS,
        ),
      };
    case 'tooMuchWork':
      return {
        ok: false,
        message: t(
          'The patch is not applied to {0}: finding where its changes go took more work than allowed (it stopped at change {1} of {2}).',
          name,
          fitted.hunk,
          count,
        ),
      };
    case 'cancelled':
      return { ok: false, message: t('Applying the patch to {0} was cancelled.', name) };
    case 'stopped':
      break;
  }
  // Say which hunk is the first that does not match, so the message points at a line.
  const n = fitted.misfit + 1;
  const hunk = part.patch.hunks[fitted.misfit];
  return {
    ok: false,
    message: part.name
      ? t(
          'The patch does not apply to {0} as it was sent: change {1} of {2} (at line {3}) does not match its lines.',
          part.name,
          n,
          count,
          hunk.oldStart,
        )
      : t(
          'The patch does not apply to the file as it was sent: change {0} of {1} (at line {2}) does not match its lines.',
          n,
          count,
          hunk.oldStart,
        ),
  };
}

/** Why a part is not an edit of an existing text file (undefined when it is one). */
export function unsupportedReason(part: PatchPart, t: Translate = untranslated): string | undefined {
  const name = part.name ?? t('a file');
  // Whole sentences per operation: a translation may need to order them differently.
  switch (part.operation) {
    case 'modify':
      return undefined;
    case 'create':
      return t('The patch creates {0}; only edits to existing text files can be reviewed.', name);
    case 'delete':
      return t('The patch deletes {0}; only edits to existing text files can be reviewed.', name);
    case 'rename':
      return t('The patch renames {0}; only edits to existing text files can be reviewed.', name);
    case 'copy':
      return t('The patch copies {0}; only edits to existing text files can be reviewed.', name);
    default:
      return t('The patch makes a binary change to {0}; only edits to existing text files can be reviewed.', name);
  }
}

/** One file of a change set, for "Save as patch": its text before and after, as written on disk. */
export interface PatchFileEntry {
  relativePath: string;
  before: string;
  after: string;
}

/**
 * A unified diff of the whole change set, paths `a/<relativePath>` and `b/<relativePath>`
 * (relative to the workspace folder, so `git apply` in that folder takes it). Files whose
 * before and after are equal are left out. Text is used as given, CRLF included.
 */
export function formatChangeSetPatch(files: readonly PatchFileEntry[]): string {
  const { createTwoFilesPatch, FILE_HEADERS_ONLY } = loadDiff();
  return files
    .filter((file) => file.before !== file.after)
    .map((file) => {
      const path = file.relativePath.replace(/\\/g, '/').replace(/^\/+/, '');
      return createTwoFilesPatch(`a/${path}`, `b/${path}`, file.before, file.after, undefined, undefined, {
        headerOptions: FILE_HEADERS_ONLY,
      });
    })
    .join('');
}

/** `a/x`, `b/x` -> `x`; `/dev/null` -> undefined. */
export function stripPatchPrefix(name: string | undefined): string | undefined {
  if (name === undefined || name === '' || name === '/dev/null') {
    return undefined;
  }
  return name.replace(/^[ab]\//, '');
}

function toPart(patch: StructuredPatch): PatchPart {
  const oldName = stripPatchPrefix(patch.oldFileName);
  const newName = stripPatchPrefix(patch.newFileName);
  let operation: PatchPart['operation'] = 'modify';
  if (patch.isBinary) {
    operation = 'binary';
  } else if (patch.isCreate || oldName === undefined) {
    operation = 'create';
  } else if (patch.isDelete || newName === undefined) {
    operation = 'delete';
  }
  // Only a git header says "rename": plain diffs often name the old side `x.orig` or the like.
  else if (patch.isRename) {
    operation = 'rename';
  } else if (patch.isCopy) {
    operation = 'copy';
  }
  return { name: newName ?? oldName, oldName, newName, operation, hunkCount: patch.hunks.length, patch };
}
