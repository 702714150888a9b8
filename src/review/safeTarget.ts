// Where the review may write: only to the workspace file a version belongs to, only inside the
// workspace folder it came from, with symlinks resolved (a link must not carry a write outside).
import type { Stats } from 'node:fs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { type Translate, untranslated } from '../common/translate';

export type TargetCheck =
  | { ok: true; realPath: string }
  | { ok: false; reason: 'outside' | 'gone' | 'notAFile' | 'folderGone'; message: string };

export interface TargetCheckOptions {
  /**
   * Allow a file that does not exist yet (its nearest existing folder is checked instead).
   * Off by default: a write-back goes to the file that was uploaded, and a missing file
   * means it was deleted or renamed since.
   */
  allowCreate?: boolean;
  /** The messages' language (vscode.l10n.t in the extension); English by default. */
  t?: Translate;
}

/**
 * Whether `target` (absolute, or relative to the folder) may be written as part of `folder`.
 * Never throws; every refusal says why in a sentence.
 */
export async function checkWriteTarget(
  folder: string,
  target: string,
  options: TargetCheckOptions = {},
): Promise<TargetCheck> {
  const t: Translate = options.t ?? untranslated;
  let realFolder: string;
  try {
    realFolder = await fs.realpath(folder);
  } catch {
    return { ok: false, reason: 'folderGone', message: t('The workspace folder {0} is no longer there.', folder) };
  }
  const lexical = path.resolve(folder, target);
  if (!isInside(path.resolve(folder), lexical)) {
    return {
      ok: false,
      reason: 'outside',
      message: t('{0} is outside the workspace folder {1}; nothing is written there.', target, folder),
    };
  }
  const shown = path.relative(path.resolve(folder), lexical);

  let stat: Stats | undefined;
  try {
    stat = await fs.stat(lexical);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A link whose target is missing (stat fails, lstat does not) is not a place to create a file.
    const isLink = await fs.lstat(lexical).then(
      (s) => s.isSymbolicLink(),
      () => false,
    );
    if (isLink || (code !== 'ENOENT' && code !== 'ENOTDIR')) {
      return {
        ok: false,
        reason: 'gone',
        message: t('{0} cannot be reached ({1}); it may have been moved.', shown, code ?? 'error'),
      };
    }
  }

  if (stat) {
    if (!stat.isFile()) {
      return { ok: false, reason: 'notAFile', message: t('{0} is not a file.', shown) };
    }
    const real = await fs.realpath(lexical).catch(() => undefined);
    if (real === undefined) {
      return { ok: false, reason: 'gone', message: t('{0} was moved while it was being checked.', shown) };
    }
    if (!isInside(realFolder, real)) {
      return {
        ok: false,
        reason: 'outside',
        message: t('{0} is a link to a place outside the workspace folder; nothing is written there.', shown),
      };
    }
    return { ok: true, realPath: real };
  }

  if (!options.allowCreate) {
    return {
      ok: false,
      reason: 'gone',
      message: t('{0} is no longer in the workspace (deleted or renamed since it was uploaded).', shown),
    };
  }
  // Climb to the nearest folder that exists; it must be a real folder inside the workspace.
  let parent = path.dirname(lexical);
  let rest = path.basename(lexical);
  for (;;) {
    try {
      const real = await fs.realpath(parent);
      if (!(await fs.stat(real)).isDirectory()) {
        return {
          ok: false,
          reason: 'notAFile',
          message: t('{0} is not a folder.', path.relative(path.resolve(folder), parent)),
        };
      }
      if (real !== realFolder && !isInside(realFolder, real)) {
        return {
          ok: false,
          reason: 'outside',
          message: t('{0} would be written through a link to a place outside the workspace folder.', shown),
        };
      }
      return { ok: true, realPath: path.join(real, rest) };
    } catch {
      if (path.resolve(parent) === path.resolve(folder)) {
        return { ok: false, reason: 'folderGone', message: t('The workspace folder {0} is no longer there.', folder) };
      }
      rest = path.join(path.basename(parent), rest);
      parent = path.dirname(parent);
    }
  }
}

/** `child` is strictly below `parent` (both absolute and normalised). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}
