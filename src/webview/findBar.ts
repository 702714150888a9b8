// The find bar's state: the query, the match it stands on, and the host's progress. The host
// searches the whole log in chunks (`find` -> `found`); this file only keeps the answer to the
// newest request and words its status: "i of N", "N+ so far (x% searched)", "No results".
import type { LogFilter } from '../runEvents/logQuery';
import { normalizeQuery } from '../runEvents/logQuery';
import type { HostMessage, UiStrings, WebviewMessage } from '../runPanel/protocol';
import { fill } from './format';

type Found = Extract<HostMessage, { type: 'found' }>;

export class FindState {
  /** The query as typed, and as matched (normalizeQuery). */
  text = '';
  query = '';
  /** The sequence of the match shown, if any. */
  current: number | undefined;
  private requestId = 0;
  private last: Found | undefined;

  /** The message that asks the host for the next or previous match after `from`. */
  request(
    text: string,
    filter: LogFilter,
    from: number,
    direction: 'next' | 'prev',
  ): Extract<WebviewMessage, { type: 'find' }> | undefined {
    if (text !== this.text) {
      this.current = undefined;
    }
    this.text = text;
    this.query = normalizeQuery(text);
    this.last = undefined;
    this.requestId++;
    if (this.query === '') {
      return undefined;
    }
    return { type: 'find', requestId: this.requestId, query: text.trim(), filter, from, direction };
  }

  clear(): void {
    this.text = '';
    this.query = '';
    this.current = undefined;
    this.last = undefined;
    this.requestId++;
  }

  /** Takes a `found`; returns the sequence to show when it names a new one. */
  take(message: Found): { show?: number } | undefined {
    if (message.requestId !== this.requestId || this.query === '') {
      return undefined;
    }
    this.last = message;
    if (message.sequence !== undefined && message.sequence !== this.current) {
      this.current = message.sequence;
      return { show: message.sequence };
    }
    return {};
  }

  /** `cappedAfter`: the log stops there (RunInfo.logCappedAfter), and the status says so. */
  status(strings: UiStrings, cappedAfter?: number): string {
    const text = this.statusText(strings);
    return text === '' || cappedAfter === undefined ? text : fill(strings.findCapped, text, cappedAfter);
  }

  private statusText(strings: UiStrings): string {
    if (this.query === '') {
      return '';
    }
    const m = this.last;
    if (!m) {
      return strings.findSearching;
    }
    if (m.done && m.count === 0) {
      return strings.findNone;
    }
    if (m.done && m.ordinal !== undefined) {
      return fill(strings.findCount, m.ordinal, m.count);
    }
    if (m.done) {
      return String(m.count);
    }
    const percent = m.total > 0 ? Math.min(99, Math.floor((m.scanned / m.total) * 100)) : 0;
    return fill(strings.findProgress, m.count, percent);
  }
}
