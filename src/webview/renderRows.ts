// The timeline's rows and the raw JSON block under an expanded row: built once per row element
// by the virtual list and filled from the view model. Server strings go in as text only.
import { matchesQuery } from '../runEvents/logQuery';
import { recordLinks, unlinkedCount } from '../runEvents/recordLinks';
import { DEFAULT_UI_STRINGS, type UiStrings } from '../runPanel/protocol';
import { codicon, el, setAttr, setBlockText, setButtonLabel, setHighlightedText, setIcon, setText } from './dom';
import { fill, rowView } from './format';
import type { Layout } from './layout';
import type { Row, TimelineState } from './reducer';

export const ROW_HEIGHT = 24;
/** The raw JSON block under an expanded row: a bar, then up to this many lines before it scrolls. */
export const RAW_MAX_LINES = 16;
export const RAW_LINE_HEIGHT = 18;
export const RAW_BAR_HEIGHT = 30;
/** The row of record links under the bar, when the event names records. */
export const RAW_LINKS_HEIGHT = 30;

export function createRowElement(): HTMLElement {
  const row = el('div', 'row');
  row.setAttribute('role', 'listitem');
  row.append(
    codicon('chevron-right', '', 'twisty'),
    codicon('circle-large-outline', '', 'icon'),
    el('span', 'label'),
    el('span', 'detail'),
    el('span', 'meta'),
    el('span', 'seq'),
  );
  return row;
}

/** How a row is marked beyond its event: the search and the row a jump landed on. */
export interface RowMarks {
  expanded: boolean;
  /** The normalised search query ('' for none). */
  query: string;
  /** The sequence of the match the find bar stands on. */
  currentMatch?: number;
  /** The sequence a jump landed on (highlighted briefly). */
  flash?: number;
}

export function fillRow(element: HTMLElement, row: Row, state: TimelineState, now: number, marks: RowMarks): void {
  const view = rowView(state, row, now);
  const expanded = marks.expanded;
  const [twisty, icon, label, detail, meta, seq] = Array.from(element.children) as HTMLElement[];
  const match = marks.query !== '' && row.raw !== undefined && matchesQuery(row.raw, marks.query);
  const current = match && row.sequence === marks.currentMatch;
  const className =
    `row kind-${row.kind} depth-${row.depth}${expanded ? ' expanded' : ''}${row.raw ? ' expandable' : ''}` +
    `${match ? ' match' : ''}${current ? ' current-match' : ''}${row.sequence > 0 && row.sequence === marks.flash ? ' flash' : ''}`;
  if (element.className !== className) {
    element.className = className;
  }
  if (current) {
    element.setAttribute('aria-current', 'true');
  } else {
    element.removeAttribute('aria-current');
  }
  // Every write only on a change: a step's row is filled at every draw (VirtualList `refill`).
  if (row.kind === 'omitted' || row.kind === 'later') {
    element.removeAttribute('data-sequence');
  } else {
    setAttr(element, 'data-sequence', String(row.sequence));
  }
  setAttr(element, 'data-kind', row.event);
  // The attribute, not the property: a div's tabIndex reads -1 without it, and is not focusable then.
  setAttr(element, 'tabindex', '-1');
  if (row.raw) {
    setAttr(element, 'aria-expanded', String(expanded));
  } else {
    element.removeAttribute('aria-expanded');
  }
  setIcon(twisty, expanded ? 'chevron-down' : 'chevron-right', '', 'twisty');
  setIcon(icon, view.icon, view.tone, 'icon');
  setHighlightedText(label, view.label, match ? marks.query : '');
  setHighlightedText(detail, view.detail, match ? marks.query : '');
  setText(meta, view.meta);
  setText(seq, row.sequence > 0 ? `#${row.sequence}` : '');
  setAttr(element, 'title', row.raw ? state.strings.expand : '');
}

/** Fills the raw JSON block for a row; returns its height in px. */
export function fillRaw(layout: Layout, row: Row, strings?: UiStrings): number {
  // The event as the server sent it (without the host's receivedAt stamp), or as the host cut it.
  const json = JSON.stringify(row.raw ? { event: row.raw.event, data: row.raw.data } : {}, null, 2);
  const cut = row.raw?.truncatedBytes;
  const mark = cut === undefined ? '' : ` · ${fill((strings ?? DEFAULT_UI_STRINGS).eventTruncated, cut)}`;
  setText(layout.rawTitle, `${row.event} #${row.sequence}${mark}`);
  layout.raw.classList.toggle('truncated', cut !== undefined);
  setBlockText(layout.rawJson, json);
  const linked = fillRecordLinks(layout.rawLinks, row, strings ?? DEFAULT_UI_STRINGS);
  // Not data-sequence: only the timeline's rows carry that (the e2e suite counts them).
  layout.raw.dataset.forSequence = String(row.sequence);
  const lines = Math.min(RAW_MAX_LINES, json.split('\n').length);
  return RAW_BAR_HEIGHT + (linked ? RAW_LINKS_HEIGHT : 0) + lines * RAW_LINE_HEIGHT + 12;
}

/**
 * The expanded event's record links: one real button per record it names (a tool call's record,
 * memory entries), carrying the record kind and id the click sends; the id shows as text.
 */
function fillRecordLinks(container: HTMLElement, row: Row, strings: UiStrings): boolean {
  const links = recordLinks(row.raw);
  const more = unlinkedCount(row.raw);
  const key = `${row.sequence}\u0000${links.map((l) => `${l.record}:${l.id}`).join(' ')}\u0000${more}\u0000${strings.openInvocation}\u0000${strings.openMemoryEntry}`;
  if (container.dataset.key === key) {
    return !container.hidden;
  }
  container.dataset.key = key;
  const buttons = links.map((link) => {
    const label = link.record === 'invocation' ? strings.openInvocation : fill(strings.openMemoryEntry, link.id);
    const button = el('button', 'text-button record-link');
    button.type = 'button';
    button.dataset.record = link.record;
    button.dataset.id = link.id;
    button.append(codicon(link.record === 'invocation' ? 'tools' : 'lightbulb'), el('span', 'button-label'));
    setButtonLabel(button, label);
    return button;
  });
  container.replaceChildren(
    ...buttons,
    ...(more > 0 ? [el('span', 'muted', fill(strings.moreRecordLinks, more))] : []),
  );
  container.hidden = buttons.length === 0;
  return !container.hidden;
}
