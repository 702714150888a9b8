// Bytes <-> text for review: what is refused as not text, and what is kept when written back.
import * as assert from 'node:assert';
import type { DecodedText } from '../../../src/review/textCodec';
import { decodeText, encodeText, splitLines } from '../../../src/review/textCodec';

const bytes = (text: string) => new TextEncoder().encode(text);
const decoded = (raw: Uint8Array): DecodedText => {
  const result = decodeText(raw);
  assert.ok(result.ok, 'expected text');
  return result.value;
};

describe('review text codec', () => {
  it('reads a CRLF file as LF text and writes it back byte for byte', () => {
    const raw = bytes('one\r\ntwo\r\n');
    const text = decoded(raw);
    assert.strictEqual(text.text, 'one\ntwo\n');
    assert.strictEqual(text.eol, '\r\n');
    assert.strictEqual(text.mixedEol, false);
    assert.deepStrictEqual(encodeText(text.text, text), raw);
  });

  it('keeps a missing final newline missing', () => {
    const raw = bytes('one\r\ntwo');
    const text = decoded(raw);
    assert.strictEqual(text.finalNewline, false);
    assert.deepStrictEqual(encodeText(text.text, text), raw);
  });

  it('reports mixed line ends and keeps the dominant one', () => {
    const text = decoded(bytes('a\r\nb\r\nc\nd\r\n'));
    assert.strictEqual(text.mixedEol, true);
    assert.strictEqual(text.eol, '\r\n');
    assert.strictEqual(new TextDecoder().decode(encodeText(text.text, text)), 'a\r\nb\r\nc\r\nd\r\n');
    const lf = decoded(bytes('a\nb\nc\r\n'));
    assert.strictEqual(lf.eol, '\n');
    assert.strictEqual(lf.mixedEol, true);
  });

  it('strips a UTF-8 BOM from the text and puts it back on write', () => {
    const raw = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('hé\n')]);
    const text = decoded(raw);
    assert.strictEqual(text.text, 'hé\n');
    assert.strictEqual(text.bom, true);
    assert.deepStrictEqual(encodeText(text.text, text), raw);
    assert.deepStrictEqual(encodeText(text.text, { eol: '\n', bom: false }), bytes('hé\n'));
  });

  it('refuses a binary file (NUL byte) with a reason', () => {
    const result = decodeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    assert.strictEqual(result.ok, false);
    assert.strictEqual(!result.ok && result.reason, 'binary');
    assert.match(!result.ok ? result.message : '', /binary/);
  });

  it('refuses bytes that are not UTF-8 (Latin-1) instead of guessing', () => {
    const result = decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café\n" in Latin-1
    assert.strictEqual(result.ok, false);
    assert.strictEqual(!result.ok && result.reason, 'notUtf8');
  });

  it('refuses UTF-16 text by its byte order mark', () => {
    const result = decodeText(new Uint8Array([0xff, 0xfe, 0x61, 0x00]));
    assert.strictEqual(!result.ok && result.reason, 'utf16');
  });

  it('reads an empty file as empty text', () => {
    const text = decoded(new Uint8Array());
    assert.strictEqual(text.text, '');
    assert.strictEqual(text.finalNewline, false);
  });

  it('splits lines keeping their line end, the last one possibly without', () => {
    assert.deepStrictEqual(splitLines('a\nb'), ['a\n', 'b']);
    assert.deepStrictEqual(splitLines('a\nb\n'), ['a\n', 'b\n']);
    assert.deepStrictEqual(splitLines('\n\n'), ['\n', '\n']);
    assert.deepStrictEqual(splitLines(''), []);
  });
});
