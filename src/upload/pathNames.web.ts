// The web bundle's twin of pathNames.ts: a web worker has no disk and no node:path; the only
// paths here are the URI paths of workspace.fs (forward slashes).

export function basename(path: string): string {
  const parts = path.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? path;
}

export function normalize(path: string): string {
  return path;
}

/** False: every file is read through workspace.fs, whatever its scheme (vscode-remote included). */
export const HOST_HAS_DISK = false;
