// Loose checks of what the server answers: strict only where the spec is (a record has an id, a
// page has a data array), everything else kept as it came so unknown fields survive.
import { ApiError } from './errors';
import type { DeletedFile, Page } from './types';

function protocol(message: string): ApiError {
  return new ApiError({ kind: 'protocol', message });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A record with at least a string id; every other field is kept. */
export function parseRecord<T extends { id: string }>(value: unknown, what: string): T {
  if (!isObject(value) || typeof value.id !== 'string' || value.id === '') {
    throw protocol(`The ${what} record in the answer has no id.`);
  }
  return value as T;
}

/** DELETE answers 200 with a body or 204 without one. */
export function parseDeleted(value: unknown, id: string): DeletedFile {
  if (value === undefined) return { id, deleted: true };
  if (!isObject(value)) throw protocol('The answer to the delete is not an object.');
  return { ...value, id: typeof value.id === 'string' ? value.id : id } as DeletedFile;
}

/** The list envelope: `data` must be an array; has_more counts only when literally true. */
export function parsePage<T>(value: unknown): Page<T> {
  if (!isObject(value) || !Array.isArray(value.data)) {
    throw protocol('The list in the answer has no data array.');
  }
  const cursor = value.next_cursor;
  return {
    ...value,
    object: typeof value.object === 'string' ? value.object : 'list',
    data: value.data as T[],
    has_more: value.has_more === true,
    next_cursor: typeof cursor === 'string' && cursor !== '' ? cursor : null,
  };
}
