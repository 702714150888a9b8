// What the memory surfaces show of an entry: one inert line for a row, a bounded tooltip, the size
// rule. Every string of a memory record is data (inert()). Pure: no vscode.
import { MAX_MEMORY_BYTES, type MemoryRecord } from '../api/resourceTypes';
import { inert } from '../common/inertText';
import type { Translate } from '../common/translate';

/** A row's label: the first non-blank line of the content, inert and short. */
export function memoryLabel(record: MemoryRecord, t: Translate): string {
  const first = record.content
    .slice(0, 2000)
    .split(/\r\n|\n|\r/)
    .find((line) => line.trim() !== '');
  return first === undefined ? t('(empty memory)') : inert(first.trim(), 80);
}

/** A row's description: tags and project, inert. */
export function memoryDescription(record: MemoryRecord): string {
  const parts = record.tags.slice(0, 10).map((tag) => `#${tag}`);
  if (record.project_id) {
    parts.push(record.project_id);
  }
  return inert(parts.join(' '), 120);
}

/** A plain-text tooltip (never Markdown): the content's start, version and time, each inert. */
export function memoryTooltip(record: MemoryRecord, t: Translate): string {
  const lines = record.content
    .slice(0, 4000)
    .split(/\r\n|\n|\r/)
    .slice(0, 12)
    .map((line) => inert(line, 160));
  const meta = [
    record.version !== undefined ? t('Version {0}', record.version) : undefined,
    record.updated_at ? t('Updated {0}', inert(record.updated_at, 40)) : undefined,
    record.score !== undefined ? t('Relevance {0}%', Math.round(record.score * 100)) : undefined,
  ].filter((x): x is string => x !== undefined);
  return [...lines, '', inert(record.id, 80), ...meta].join('\n');
}

export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** The message for text too large to remember, or undefined when it fits. */
export function tooLargeMessage(text: string, t: Translate): string | undefined {
  const bytes = utf8Bytes(text);
  if (bytes <= MAX_MEMORY_BYTES) {
    return undefined;
  }
  return t(
    'The text is {0} bytes; a memory holds at most {1} bytes (64 KiB). Nothing was sent.',
    bytes,
    MAX_MEMORY_BYTES,
  );
}

/** Every line of a text as a question shows it, an empty text said in words. */
export function wholeTextLines(text: string, t: Translate): string[] {
  return text === '' ? [t('(empty memory)')] : text.split(/\r\n|\n|\r/);
}

/**
 * The whole of an entry for a question about it: its key, every tag, its project and version,
 * then every line of its text. Nothing is cut here; the question (askModal) shows what a dialog
 * cannot hold in its Show All list and refuses what even that cannot.
 */
export function wholeEntryLines(record: MemoryRecord, t: Translate): string[] {
  return [
    t('Memory: {0}', record.id),
    ...(record.tags.length > 0 ? [t('Tags: {0}', record.tags.map((tag) => `#${tag}`).join(' '))] : []),
    ...(record.project_id ? [t('Project: {0}', record.project_id)] : []),
    ...(record.version !== undefined ? [t('Version {0}', record.version)] : []),
    t('Its text:'),
    ...wholeTextLines(record.content, t),
  ];
}
