// The timeline's pointer and keyboard: a click, Enter or Space opens a row's detail (or pages in
// from the "earlier" / "later" rows); arrows, Home / End, Page Up / Down move the focus, and
// Ctrl+Up / Ctrl+Down go from step to step. Clicks inside the detail or the approval card are theirs.
import type { Layout } from './layout';
import type { Row } from './reducer';

/** What the timeline's pointer and keys need of the app (RunPanelApp). */
export interface TimelineKeysApp {
  readonly layout: Layout;
  /** The rows as drawn (with the "earlier" / "later" rows), which `data-index` points into. */
  readonly items: readonly Row[];
  focusIndex(index: number): void;
  activate(row: Row): void;
}

const rowElement = (target: EventTarget | null) =>
  target instanceof Element ? target.closest<HTMLElement>('.row') : null;

export function wireTimelineKeys(app: TimelineKeysApp): void {
  const timeline = app.layout.timeline;
  const activate = (target: EventTarget | null) => {
    const element = rowElement(target);
    if (!element) {
      return;
    }
    const row = app.items[Number(element.dataset.index)];
    if (row) {
      app.activate(row);
    }
  };
  timeline.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('#raw-detail, #approval-card')) {
      return;
    }
    activate(event.target);
  });
  timeline.addEventListener('keydown', (event) => {
    if (event.target instanceof Element && event.target.closest('#raw-detail, #approval-card')) {
      return;
    }
    const items = app.items;
    const current = rowElement(event.target) ? Number(rowElement(event.target)?.dataset.index) : -1;
    if ((event.ctrlKey || event.metaKey) && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      // Ctrl+Up / Ctrl+Down: the previous / next step's row.
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      for (let i = current + step; i >= 0 && i < items.length; i += step) {
        if (items[i].kind === 'step') {
          app.focusIndex(i);
          return;
        }
      }
      app.focusIndex(step > 0 ? items.length - 1 : 0);
      return;
    }
    const moves: Record<string, (i: number) => number> = {
      ArrowDown: (i) => i + 1,
      ArrowUp: (i) => i - 1,
      Home: () => 0,
      End: () => items.length - 1,
      PageDown: (i) => i + 20,
      PageUp: (i) => i - 20,
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      app.focusIndex(move(current));
      return;
    }
    if (event.key !== 'Enter' && event.key !== ' ') {
      return;
    }
    event.preventDefault();
    activate(event.target);
  });
}
