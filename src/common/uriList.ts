// Reading a `text/uri-list` drop (RFC 2483: one URI per line, CRLF, `#` comment lines), as the
// Explorer and the OS put it in a drag. Pure, so the parsing is tested without vscode.

/** The URIs of a uri-list, in order, without comments, blanks or repeats. */
export function parseUriList(text: string): string[] {
  const seen = new Set<string>();
  const uris: string[] = [];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) {
      continue;
    }
    // A URI has a scheme; anything else (a stray path, text) is not something we can upload.
    if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(line)) {
      continue;
    }
    if (seen.has(line)) {
      continue;
    }
    seen.add(line);
    uris.push(line);
  }
  return uris;
}
