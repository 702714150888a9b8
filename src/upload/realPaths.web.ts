// The web build's twin of realPaths.ts: a web worker has no local disk and no links to follow.

/** Always undefined: the browser cannot tell (the workspace is remote or virtual there). */
export async function realInside(_file: string, _folders: readonly string[]): Promise<boolean | undefined> {
  return undefined;
}
