// The framing of a multipart/form-data body whose file part is streamed: the bytes before and
// after the file are built up front, so the exact Content-Length is known before sending.

export interface MultipartFrame {
  boundary: string;
  contentType: string;
  /** Every text field, then the file part's headers. */
  head: Uint8Array;
  /** The closing boundary after the file's bytes. */
  tail: Uint8Array;
}

/** A quoted-string parameter value: no CR/LF, quotes and backslashes escaped. */
function quoted(value: string): string {
  return `"${value.replace(/[\r\n]/g, ' ').replace(/(["\\])/g, '\\$1')}"`;
}

/** filename="..." plus RFC 5987 filename* when the name is not plain ASCII. */
function filenameParams(filename: string): string {
  if (/^[\x20-\x7e]*$/.test(filename)) {
    return `filename=${quoted(filename)}`;
  }
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `filename=${quoted(ascii)}; filename*=UTF-8''${encoded}`;
}

export function buildMultipartFrame(
  fields: Record<string, string>,
  file: { field: string; filename: string; contentType: string },
): MultipartFrame {
  const random = globalThis.crypto.getRandomValues(new Uint8Array(16));
  const boundary = `----agent-runtime-${Array.from(random, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(file.field)}; ${filenameParams(file.filename)}\r\n` +
    `Content-Type: ${file.contentType.replace(/[\r\n]/g, '')}\r\n\r\n`;
  return {
    boundary,
    contentType: `multipart/form-data; boundary=${boundary}`,
    head: new TextEncoder().encode(head),
    tail: new TextEncoder().encode(`\r\n--${boundary}--\r\n`),
  };
}
