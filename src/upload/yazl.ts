// yazl (with buffer-crc32) loads when a folder is first packed, not when the extension activates:
// only a folder archive upload needs it. In the bundle, esbuild.js (LAZY_FILES) resolves the
// require below to a guard that loads dist/yazl.js and says "Reinstall the extension" when that
// file is missing; under tsc it is the plain package.
import type * as Yazl from 'yazl';

let loaded: typeof Yazl | undefined;

export function loadYazl(): typeof Yazl {
  // Synchronous on purpose: the file is local and the archive is built right after.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('yazl') as typeof Yazl;
  return loaded;
}
