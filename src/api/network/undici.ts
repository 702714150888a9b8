// undici loads at the first request, not when the extension activates: it is the largest part of
// the API layer and activation only needs it once a view asks the service for data. In the
// bundle, esbuild.js resolves the require below to a guard that loads dist/undici.js and says
// "Reinstall the extension" when that file is missing; under tsc it is the plain module.
import type * as UndiciParts from './undiciParts';

export type Undici = typeof UndiciParts;

let loaded: Undici | undefined;

export function loadUndici(): Undici {
  // A synchronous require on purpose: dispatchers are built synchronously, and the file is local.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./undiciParts') as Undici;
  return loaded;
}

/** True once the first request has loaded undici (the build test checks activation does not). */
export function isUndiciLoaded(): boolean {
  return loaded !== undefined;
}
