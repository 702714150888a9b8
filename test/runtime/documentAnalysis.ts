// Streams a document and summarises it (bytes, lines, words, Markdown headings), or says why it is not text.
import type { Readable } from 'node:stream';

export type DocumentAnalysis =
  | { text: true; bytes: number; lines: number; words: number; headings: string[] }
  | { text: false; bytes: number; reason: string };

const MAX_HEADINGS_KEPT = 50;

export async function analyseDocument(content: Readable): Promise<DocumentAnalysis> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let bytes = 0;
  let lines = 0;
  let words = 0;
  let inWord = false;
  let partialLine = '';
  const headings: string[] = [];

  const takeLine = (line: string): void => {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading && headings.length < MAX_HEADINGS_KEPT) {
      headings.push(heading[1]);
    }
  };
  const takeText = (text: string): void => {
    for (const ch of text) {
      const space = ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r' || ch === '\f' || ch === '\v';
      if (!space && !inWord) {
        words++;
      }
      inWord = !space;
    }
    const parts = (partialLine + text).split('\n');
    partialLine = parts.pop() ?? '';
    lines += parts.length;
    for (const line of parts) {
      takeLine(line.replace(/\r$/, ''));
    }
    // A pathological single line must not grow without bound.
    if (partialLine.length > 64 * 1024) {
      partialLine = partialLine.slice(0, 1024);
    }
  };

  for await (const chunk of content) {
    const buffer = chunk as Buffer;
    bytes += buffer.length;
    if (buffer.includes(0)) {
      content.destroy();
      return { text: false, bytes, reason: 'it contains NUL bytes' };
    }
    try {
      takeText(decoder.decode(buffer, { stream: true }));
    } catch {
      content.destroy();
      return { text: false, bytes, reason: 'it is not valid UTF-8' };
    }
  }
  try {
    takeText(decoder.decode());
  } catch {
    return { text: false, bytes, reason: 'it is not valid UTF-8' };
  }
  if (partialLine !== '') {
    lines++;
    takeLine(partialLine);
  }
  return { text: true, bytes, lines, words, headings };
}
