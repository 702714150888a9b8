// Which files of a project patch may be written into a repository folder: paths relative to the
// repository root, refused by name when absolute, with a `..` segment, into `.git/` (as any file
// system spells it: NTFS and HFS+ read `.git.`, `GIT~1` and `.g\u200cit` as `.git`), or reaching
// out of the folder through a symlink; binary parts are listed, never applied. Nothing here
// writes; the caller applies only `writable`. Plain Node (no vscode).
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { type Translate, untranslated } from '../common/translate';
import { parsePatchText, type PatchPart } from '../review/patchFile';
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
  if (segments.some(isDotGit)) {
    return t('{0} is inside .git (or a name a file system reads as .git); a patch never writes there.', name);
  }
  const alias = segments.map(gitFileAlias).find((a) => a !== undefined);
  if (alias) {
    return t('{0} names {1} under another spelling; a patch writes git files only by their own name.', name, alias);
  }
  return undefined;
}

// ---- names another file system reads as a git name (git's rules: is_hfs_dotgit in utf8.c,
// is_ntfs_dotgit and is_ntfs_dot_generic in path.c) ----

/** Code points HFS+ ignores when it compares names (git's next_hfs_char). */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** A segment as NTFS and HFS+ compare it: ignored code points gone, no `:stream` part, no trailing dots or spaces. */
function comparedName(segment: string): string {
  const colon = segment.indexOf(':');
  return (colon === -1 ? segment : segment.slice(0, colon))
    .replace(HFS_IGNORED, '')
    .replace(/[. ]+$/, '')
    .toLowerCase();
}

/** `.git` as some file system reads it: `.git.`, `.git `, `.git::$INDEX_ALLOCATION`, `.g\u200cit`, the short name `GIT~1`. */
function isDotGit(segment: string): boolean {
  const compared = comparedName(segment);
  return compared === '.git' || /^git~[1-9]$/.test(compared);
}

/** The files git guards besides `.git`, with the hashed prefix of their NTFS fallback short names. */
const GIT_FILES: readonly { name: string; hashed: string }[] = [
  { name: 'gitmodules', hashed: 'gi7eba' },
  { name: 'gitattributes', hashed: 'gi7d29' },
  { name: 'gitignore', hashed: 'gi250a' },
];

/**
 * The git file (`.gitmodules`...) a segment names under another spelling (`.gitmodules.`,
 * `.git\u200cmodules`, `GITMOD~1`, the hashed `GI7EBA~1`), undefined for its own name or any other.
 */
function gitFileAlias(segment: string): string | undefined {
  const compared = comparedName(segment);
  for (const file of GIT_FILES) {
    const own = `.${file.name}`;
    if (compared === own) {
      return segment === own ? undefined : own;
    }
    // The regular short name: the first six characters, then ~1 to ~4.
    if (new RegExp(`^${file.name.slice(0, 6)}~[1-4]$`).test(compared)) {
      return own;
    }
    // The fallback short name: a start of the hashed prefix, then ~ and digits, eight characters at most.
    const fallback = /^([a-z0-9]{1,6})~[1-9][0-9]*$/.exec(compared);
    if (fallback && compared.length <= 8 && file.hashed.startsWith(fallback[1])) {
      return own;
    }
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
