// The names files get inside an upload archive: the folder structure kept as relative paths
// that no extractor can take outside its target folder, each path segment short enough for
// common file systems, and no two entries alike (ignoring case, as Windows and macOS would).
// Pure, so the rules are unit-tested.

/** The longest file name most file systems take (ext4, APFS, NTFS: 255 bytes or units). */
export const MAX_SEGMENT_BYTES = 255;

/**
 * A relative path safe to extract anywhere, or undefined when nothing of the name is left.
 * Backslashes count as separators (Windows extractors read them so); empty, "." and ".."
 * segments and a drive letter ("C:") go; control characters become "_".
 */
export function safeEntryName(name: string): string | undefined {
  const segments = name
    .replace(/\\/g, '/')
    .split('/')
    .map((s) => s.replace(/[\x00-\x1f\x7f]/g, '_'))
    .filter((s, i) => s !== '' && s !== '.' && s !== '..' && !(i === 0 && /^[a-z]:$/i.test(s)))
    .map(shortSegment);
  return segments.length > 0 ? segments.join('/') : undefined;
}

/** Cut to MAX_SEGMENT_BYTES of UTF-8 without splitting a character, keeping a short extension. */
function shortSegment(segment: string): string {
  if (Buffer.byteLength(segment, 'utf8') <= MAX_SEGMENT_BYTES) {
    return segment;
  }
  const dot = segment.lastIndexOf('.');
  const extension = dot > 0 && segment.length - dot <= 16 ? segment.slice(dot) : '';
  let stem = segment.slice(0, segment.length - extension.length);
  const room = MAX_SEGMENT_BYTES - Buffer.byteLength(extension, 'utf8');
  while (Buffer.byteLength(stem, 'utf8') > room) {
    stem = Array.from(stem).slice(0, -1).join('');
  }
  return stem + extension;
}

/** Safe, unique names for the entries, in order; undefined where a name has nothing left. */
export function archiveEntryNames(names: readonly string[]): (string | undefined)[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const safe = safeEntryName(name);
    if (safe === undefined) {
      return undefined;
    }
    let candidate = safe;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
      candidate = numbered(safe, n);
    }
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

function numbered(name: string, n: number): string {
  const slash = name.lastIndexOf('/');
  const dot = name.lastIndexOf('.');
  return dot > slash + 1 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

/**
 * The archive's own name: the one folder every entry lies in ("docs.zip"), else a name that
 * says how many files it holds.
 */
export function archiveFileName(entryNames: readonly string[]): string {
  const tops = new Set(entryNames.map((n) => (n.includes('/') ? n.slice(0, n.indexOf('/')) : '')));
  const [top] = [...tops];
  return tops.size === 1 && top !== '' ? `${top}.zip` : `${entryNames.length}-files.zip`;
}
