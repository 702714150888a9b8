// What a view filter matches: every word of the query must appear (ignoring case) in one of the
// row's fields, which are what a person reads (objective, name, status as shown) plus the raw
// status and id. Pure: no vscode; the filter view (viewFilter.ts) applies it to rows.
import type { FileRecord, TaskRecord } from '../api/types';
import type { Translate } from '../common/translate';
import { statusLabel } from '../runEvents/runStatus';

/** Longer input is cut: a filter is a few words, and the view's description repeats it. */
export const MAX_FILTER_CHARS = 200;

/** The query as kept: trimmed, one space between words, at most MAX_FILTER_CHARS; undefined when empty. */
export function normalizeFilter(text: unknown): string | undefined {
  if (typeof text !== 'string') {
    return undefined;
  }
  const line = Array.from(text.replace(/\s+/g, ' ').trim()).slice(0, MAX_FILTER_CHARS).join('').trim();
  return line === '' ? undefined : line;
}

function fold(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

export function matchesFilter(query: string, fields: ReadonlyArray<string | undefined>): boolean {
  const haystack = fields.filter((f): f is string => typeof f === 'string').map(fold);
  return fold(query)
    .split(' ')
    .filter((word) => word !== '')
    .every((word) => haystack.some((field) => field.includes(word)));
}

export function taskFilterFields(task: TaskRecord, t: Translate): Array<string | undefined> {
  const status = typeof task.status === 'string' ? task.status : undefined;
  return [
    typeof task.objective === 'string' ? task.objective : undefined,
    task.id,
    status,
    statusLabel(task.status, t),
  ];
}

export function fileFilterFields(file: FileRecord): Array<string | undefined> {
  return [
    typeof file.filename === 'string' ? file.filename : undefined,
    file.id,
    typeof file.purpose === 'string' ? file.purpose : undefined,
  ];
}
