// jsdiff loads at the first review or patch, not when the extension activates. In the bundle,
// esbuild.js (LAZY_FILES) resolves the require below to a guard that loads dist/diff.js and says
// "Reinstall the extension" when that file is missing; under tsc it is the plain package.
import type * as Diff from 'diff';

let loaded: typeof Diff | undefined;

export function loadDiff(): typeof Diff {
  // Synchronous on purpose: hunks and patches are computed in synchronous code, and the file is local.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('diff') as typeof Diff;
  return loaded;
}
