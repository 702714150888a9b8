// Bytes <-> text for review: only UTF-8 text is reviewed line by line; everything else is
// refused with a reason so the caller can offer the plain actions (open, save) instead.
import { type Translate, untranslated } from '../common/translate';

export type Eol = '\n' | '\r\n';

/** A decoded file. `text` has LF line ends (so CRLF and LF versions diff as equal). */
export interface DecodedText {
  text: string;
  /** The line end to write back: the file's only one, or the one most of its lines use. */
  eol: Eol;
  /** Both CRLF and LF were found; writing back uses `eol` throughout. */
  mixedEol: boolean;
  /** The UTF-8 byte order mark was present (and is kept on write). */
  bom: boolean;
  /** The last line ends with a line end. */
  finalNewline: boolean;
}

export type NotTextReason = 'binary' | 'utf16' | 'notUtf8';

export type DecodeResult = { ok: true; value: DecodedText } | { ok: false; reason: NotTextReason; message: string };

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** Decodes bytes for review; never throws. */
export function decodeText(bytes: Uint8Array, t: Translate = untranslated): DecodeResult {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return {
      ok: false,
      reason: 'utf16',
      message: t('The file is UTF-16 text; only UTF-8 text can be reviewed line by line.'),
    };
  }
  // A NUL byte is the usual sign of a binary format; UTF-8 text never needs one.
  if (bytes.indexOf(0) !== -1) {
    return {
      ok: false,
      reason: 'binary',
      message: t('The file is binary (it contains NUL bytes); it can be opened or saved, not reviewed line by line.'),
    };
  }
  const bom = bytes.length >= 3 && bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
  let raw: string;
  try {
    raw = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bom ? bytes.subarray(3) : bytes);
  } catch {
    return {
      ok: false,
      reason: 'notUtf8',
      message: t('The file is not valid UTF-8 text; it can be opened or saved, not reviewed line by line.'),
    };
  }
  const crlf = countMatches(raw, /\r\n/g);
  const lf = countMatches(raw, /\n/g) - crlf;
  const eol: Eol = crlf > lf ? '\r\n' : '\n';
  const text = crlf > 0 ? raw.replace(/\r\n/g, '\n') : raw;
  return {
    ok: true,
    value: { text, eol, mixedEol: crlf > 0 && lf > 0, bom, finalNewline: text.endsWith('\n') },
  };
}

/** Encodes LF text with a file's line end and byte order mark. */
export function encodeText(text: string, style: { eol: Eol; bom: boolean }): Uint8Array {
  const body = style.eol === '\r\n' ? text.replace(/\r?\n/g, '\r\n') : text;
  const encoded = new TextEncoder().encode(body);
  if (!style.bom) {
    return encoded;
  }
  const out = new Uint8Array(encoded.length + 3);
  out.set(UTF8_BOM, 0);
  out.set(encoded, 3);
  return out;
}

/** Splits LF text into lines that keep their `\n` (the last one may have none). */
export function splitLines(text: string): string[] {
  if (text === '') {
    return [];
  }
  const lines = text.split('\n').map((line) => `${line}\n`);
  const last = lines.length - 1;
  lines[last] = lines[last].slice(0, -1);
  if (lines[last] === '') {
    lines.pop();
  }
  return lines;
}

function countMatches(text: string, pattern: RegExp): number {
  let n = 0;
  while (pattern.exec(text) !== null) {
    n++;
  }
  return n;
}
