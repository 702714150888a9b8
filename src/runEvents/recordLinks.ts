// The records a run event names, which the run panel links to: a `tool.called` with
// `invocation_id` (its invocation record), `memory.recalled {memory_ids}` and
// `memory.written {memory_id}` (the memory entries). One rule for both sides: the webview offers
// a link only for what this returns, and the host opens one only when the event, read again,
// names that record (runPanel/recordLinkTarget.ts). Ids are checked as ids; anything else is not
// linked (it stays text in the row and its JSON). Pure: no vscode, no DOM.
import type { WireEvent } from './wire';

export type LinkedRecord = 'invocation' | 'memory';

export interface RecordLink {
  record: LinkedRecord;
  id: string;
}

/** A record id as a link may carry it: the service's shape, nothing that could leave a path. */
export const RECORD_ID = /^[A-Za-z0-9_-]{1,200}$/;
/** At most this many links per event (a recall may name many entries; the rest stay in its JSON). */
export const MAX_RECORD_LINKS = 10;

export function isRecordId(value: unknown): value is string {
  return typeof value === 'string' && RECORD_ID.test(value);
}

/** The links an event offers, in the event's order, without repeats, at most MAX_RECORD_LINKS. */
export function recordLinks(event: Pick<WireEvent, 'event' | 'data'> | undefined): RecordLink[] {
  if (!event || typeof event.data !== 'object' || event.data === null) {
    return [];
  }
  const data = event.data as Record<string, unknown>;
  switch (event.event) {
    case 'tool.called':
      return isRecordId(data.invocation_id) ? [{ record: 'invocation', id: data.invocation_id }] : [];
    case 'memory.written':
      return isRecordId(data.memory_id) ? [{ record: 'memory', id: data.memory_id }] : [];
    case 'memory.recalled': {
      const ids = Array.isArray(data.memory_ids) ? data.memory_ids : [];
      const links: RecordLink[] = [];
      for (const id of ids) {
        if (links.length >= MAX_RECORD_LINKS) {
          break;
        }
        if (isRecordId(id) && !links.some((l) => l.id === id)) {
          links.push({ record: 'memory', id });
        }
      }
      return links;
    }
    default:
      return [];
  }
}

/** How many valid, distinct ids an event names beyond the links shown (a "N more" note). */
export function unlinkedCount(event: Pick<WireEvent, 'event' | 'data'> | undefined): number {
  if (event?.event !== 'memory.recalled') {
    return 0;
  }
  const ids = (event.data as Record<string, unknown>).memory_ids;
  if (!Array.isArray(ids)) {
    return 0;
  }
  const distinct = new Set(ids.filter(isRecordId)).size;
  return Math.max(0, distinct - MAX_RECORD_LINKS);
}

/** Whether the event offers exactly this link. */
export function offersLink(event: Pick<WireEvent, 'event' | 'data'> | undefined, link: RecordLink): boolean {
  return recordLinks(event).some((l) => l.record === link.record && l.id === link.id);
}
