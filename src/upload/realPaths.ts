// Whether a local file lies inside the workspace once symbolic links are followed: a path under a
// workspace folder may reach, through a linked folder, a file anywhere on the disk (a home
// folder's keys). The web build has no local disk: its twin cannot tell.
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * True when `file`'s real path is inside one of `folders`' real paths; false when it is inside
 * none; undefined when it cannot be told (a path that cannot be resolved).
 */
export async function realInside(file: string, folders: readonly string[]): Promise<boolean | undefined> {
  const real = await realpath(file).catch(() => undefined);
  if (real === undefined) {
    return undefined;
  }
  for (const folder of folders) {
    const realFolder = await realpath(folder).catch(() => undefined);
    if (realFolder === undefined) {
      continue;
    }
    const relative = path.relative(realFolder, real);
    if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) {
      return true;
    }
  }
  return false;
}
