// The names files reach the service under when the workspace has several folders (multi-root):
// two files named alike in two folders must not reach a task as two "README.md". Plain Node.
//
// The rule: in a workspace with more than one folder, every planned file whose name collides
// with another planned file's name (ignoring case, as Windows and macOS would) gets the name of
// its workspace folder in front: "frontend/README.md" and "backend/README.md". Names that are
// unique, and every name in a single-folder workspace, stay as they are.

export interface NamedFile {
  name: string;
}

/**
 * The files with collision-free names where the workspace folders allow it. `rootOf` gives the
 * workspace folder's name of a file (undefined outside every folder: such a file keeps its name).
 */
export function namesAcrossRoots<T extends NamedFile>(
  files: readonly T[],
  rootOf: (file: T) => string | undefined,
  rootCount: number,
): T[] {
  if (rootCount < 2) {
    return [...files];
  }
  const counts = new Map<string, number>();
  for (const file of files) {
    counts.set(key(file.name), (counts.get(key(file.name)) ?? 0) + 1);
  }
  return files.map((file) => {
    if ((counts.get(key(file.name)) ?? 0) < 2) {
      return file;
    }
    const root = rootOf(file);
    return root === undefined || root === '' ? file : { ...file, name: `${root}/${file.name}` };
  });
}

function key(name: string): string {
  return name.toLowerCase();
}
