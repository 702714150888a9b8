// Changes Since Revision N: per file, what revision N left against what this revision leaves.
// Both revisions are whole against the same start (the file as sent, or the base commit), so the
// files each names are compared as they are; a file only one of them changed is compared with
// its start. Pure: the bytes come in, the pairs to show and the count left out go back.

/** One file as a revision left it. `startBytes`: the file before any revision, when known. */
export interface RevisionFile {
  /** What names the file in both revisions (the workspace file's URI). */
  key: string;
  relativePath: string;
  bytes: Uint8Array;
  startBytes?: Uint8Array;
}

export interface InterdiffEntry {
  key: string;
  relativePath: string;
  /** As the previous revision left the file (its start when that revision did not change it). */
  before: Uint8Array;
  /** As this revision leaves it (its start when this revision no longer changes it). */
  after: Uint8Array;
  /** changed: both revisions changed it; added: only this one; undone: only the previous one. */
  kind: 'changed' | 'added' | 'undone';
}

export interface Interdiff {
  /** The files whose content differs between the revisions, in this revision's order. */
  entries: InterdiffEntry[];
  /** Files both revisions leave the same: left out of the view, said in a count. */
  unchanged: string[];
  /** Files only one revision changed whose start is unknown: they cannot be compared. */
  unknownStart: string[];
}

export function interdiff(previous: readonly RevisionFile[], current: readonly RevisionFile[]): Interdiff {
  const before = new Map(previous.map((f) => [f.key, f]));
  const out: Interdiff = { entries: [], unchanged: [], unknownStart: [] };
  const seen = new Set<string>();
  for (const file of current) {
    seen.add(file.key);
    const old = before.get(file.key);
    const start = old?.bytes ?? file.startBytes;
    if (start === undefined) {
      out.unknownStart.push(file.relativePath);
    } else if (sameBytes(start, file.bytes)) {
      out.unchanged.push(file.relativePath);
    } else {
      out.entries.push({
        key: file.key,
        relativePath: file.relativePath,
        before: start,
        after: file.bytes,
        kind: old ? 'changed' : 'added',
      });
    }
  }
  for (const old of previous) {
    if (seen.has(old.key)) {
      continue;
    }
    if (old.startBytes === undefined) {
      out.unknownStart.push(old.relativePath);
    } else if (sameBytes(old.bytes, old.startBytes)) {
      out.unchanged.push(old.relativePath);
    } else {
      out.entries.push({
        key: old.key,
        relativePath: old.relativePath,
        before: old.bytes,
        after: old.startBytes,
        kind: 'undone',
      });
    }
  }
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((byte, i) => byte === b[i]);
}
