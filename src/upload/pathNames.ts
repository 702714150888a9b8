// The few path operations the upload prompts need, on this machine's paths (Node). The web
// bundle takes pathNames.web.ts: no disk there, every file is a URI read through workspace.fs.
export { basename, normalize } from 'node:path';

/** True where the extension host reads this machine's disk (a remote window's files are local to it). */
export const HOST_HAS_DISK = true;
