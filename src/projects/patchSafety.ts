// Which files of a project patch may be written into a repository folder: paths relative to the
// repository root, refused by name when absolute, with a `..` segment, into `.git/`, or reaching
// out of the folder through a symlink; binary parts are listed, never applied. Nothing here
// writes; the caller applies only `writable`. Plain Node (no vscode).
import { untranslated, type Translate } from '../common/translate';
import { parsePatchText, type PatchPart } from '../review/patchFile';
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { checkWriteTarget } from '../review/safeTarget';

/** Files of one patch considered at most (a patch naming more is cut and says so). */
export const MAX_PATCH_FILES = 500;

export interface WritablePart {
  part: PatchPart;
  /** Relative to the repository root, `/`-separated. */
  path: string;
  /** Where it is written (links resolved, inside the folder). */
  realPath: string;
}

export interface RefusedPart {
  /** As the patch names it (shown as data). */
  name: string;
  message: string;
}

export interface PatchTargets {
  writable: WritablePart[];
  refused: RefusedPart[];
  /** Binary parts, listed and not applied. */
  binary: string[];
  /** Files past MAX_PATCH_FILES, not considered. */
  skipped: number;
}

export type PatchPlan = { ok: true; targets: PatchTargets } | { ok: false; message: string };

/**
 * Why `name` may never be a target, by name alone (undefined: it may be, if the file system
 * agrees). Backslashes count as separators, since they are on Windows.
 */
export function refusedByName(name: string, t: Translate = untranslated): string | undefined {
  if (name === '' || /[\0\r\n]/.test(name)) {
    return t('{0} is not a usable file name; nothing is written.', JSON.stringify(name));
  }
  if (/^([/\\]|[a-z]:)/i.test(name)) {
    return t('{0} is an absolute path; a project patch names files relative to the repository.', name);
  }
  const segments = name.split(/[/\\]+/);
  if (segments.some((s) => s === '..')) {
    return t('{0} climbs out of the repository (..); nothing is written.', name);
  }
  if (segments.some((s) => s.toLowerCase() === '.git')) {
    return t('{0} is inside .git; a patch never writes there.', name);
  }
  return undefined;
}

/** Whether `name` (relative to `root`) may be written now: by name, then through the file system. */
export async function checkProjectTarget(
  root: string,
  name: string,
  create: boolean,
  t: Translate = untranslated,
): Promise<{ ok: true; realPath: string } | { ok: false; message: string }> {
  const byName = refusedByName(name, t);
  if (byName) {
    return { ok: false, message: byName };
  }
  const check = await checkWriteTarget(root, name.replace(/\\/g, '/'), { allowCreate: create, t });
  if (!check.ok) {
    return { ok: false, message: check.message };
  }
  const throughLink = await refusedWhereItLands(root, check.realPath, name, t);
  return throughLink ? { ok: false, message: throughLink } : { ok: true, realPath: check.realPath };
}

/**
 * The name passed refusedByName, but links may lead elsewhere: where the file really lands (links
 * resolved) must pass it too, so `hooks/pre-commit` through a link `hooks -> .git/hooks` is refused.
 */
async function refusedWhereItLands(
  root: string,
  realPath: string,
  name: string,
  t: Translate,
): Promise<string | undefined> {
  let realRoot: string;
  try {
    realRoot = await fs.realpath(root);
  } catch {
    realRoot = nodePath.resolve(root);
  }
  const landed = nodePath.relative(realRoot, realPath);
  return refusedByName(landed, t) === undefined
    ? undefined
    : t('{0} leads through a link to {1}; a patch never writes there.', name, landed);
}

/** Sorts a patch's files into writable, refused and binary for the repository at `root`. Never throws. */
export async function planProjectPatch(
  text: string,
  root: string,
  t: Translate = untranslated,
  /** A file the patch edits may be missing from the folder now (it is read from a commit instead). */
  options: { editedMayBeMissing?: boolean } = {},
): Promise<PatchPlan> {
  const parsed = parsePatchText(text, t);
  if (!parsed.ok) {
    return parsed;
  }
  const targets: PatchTargets = {
    writable: [],
    refused: [],
    binary: [],
    skipped: Math.max(0, parsed.parts.length - MAX_PATCH_FILES),
  };
  for (const part of parsed.parts.slice(0, MAX_PATCH_FILES)) {
    // Every name the part touches must be safe (a rename names two).
    const names = [part.oldName, part.newName].filter((n): n is string => n !== undefined);
    const shown = part.name ?? names[0] ?? '';
    const byName =
      names.map((n) => refusedByName(n, t)).find((m) => m !== undefined) ??
      (names.length === 0 ? refusedByName('', t) : undefined);
    if (byName) {
      targets.refused.push({ name: shown, message: byName });
      continue;
    }
    if (part.operation === 'binary') {
      targets.binary.push(shown);
      continue;
    }
    if (part.operation !== 'modify' && part.operation !== 'create') {
      targets.refused.push({
        name: shown,
        message: t('The patch deletes, renames or copies {0}; only edits and new files are applied.', shown),
      });
      continue;
    }
    const path = shown.replace(/\\/g, '/');
    const check = await checkWriteTarget(root, path, {
      allowCreate: part.operation === 'create' || options.editedMayBeMissing === true,
      t,
    });
    if (!check.ok) {
      targets.refused.push({ name: shown, message: check.message });
      continue;
    }
    const throughLink = await refusedWhereItLands(root, check.realPath, shown, t);
    if (throughLink) {
      targets.refused.push({ name: shown, message: throughLink });
      continue;
    }
    targets.writable.push({ part, path, realPath: check.realPath });
  }
  return { ok: true, targets };
}
