// The find bar's and the go-to box's keys, and the panel-wide shortcuts: Ctrl+F the find bar,
// F3 / Shift+F3 the matches, Ctrl+G go to. Typing searches after a pause; Enter / Shift+Enter
// step through the matches, Escape closes.
import type { Layout } from './layout';

/** What the find bar and the go-to box need of the app (RunPanelApp). */
export interface FindControlsApp {
  readonly layout: Layout;
  /** `text`: what the current find was started with (Enter on the same text steps on from the match). */
  readonly find: { readonly text: string };
  startFind(direction: 'next' | 'prev', fromCurrent: boolean): void;
  clearFind(): void;
  goTo(sequence: number): void;
  /** The go-to box holds no event number. */
  gotoInvalid(): void;
}

export function wireFindControls(app: FindControlsApp): void {
  const { layout } = app;
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  layout.search.addEventListener('input', () => {
    if (searchTimer !== undefined) {
      clearTimeout(searchTimer);
    }
    searchTimer = setTimeout(() => app.startFind('next', false), 200);
  });
  layout.search.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      if (searchTimer !== undefined) {
        clearTimeout(searchTimer);
      }
      app.startFind(event.shiftKey ? 'prev' : 'next', layout.search.value === app.find.text);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      layout.search.value = '';
      app.clearFind();
      layout.timeline.focus();
    }
  });
  layout.findNext.addEventListener('click', () => app.startFind('next', true));
  layout.findPrev.addEventListener('click', () => app.startFind('prev', true));
  layout.gotoInput.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      layout.gotoInput.value = '';
      layout.timeline.focus();
      return;
    }
    if (event.key !== 'Enter') {
      return;
    }
    event.preventDefault();
    const text = layout.gotoInput.value.trim().replace(/^#/, '');
    const sequence = /^\d+$/.test(text) ? Number(text) : NaN;
    const valid = Number.isSafeInteger(sequence) && sequence > 0;
    // Never a silent no-op: the find bar's status (a live region) says what the box wants.
    layout.gotoInput.setAttribute('aria-invalid', String(!valid));
    if (valid) {
      app.goTo(sequence);
    } else {
      app.gotoInvalid();
    }
  });
  document.addEventListener('keydown', (event) => {
    const mod = event.ctrlKey || event.metaKey;
    if (mod && !event.altKey && event.key.toLowerCase() === 'f') {
      event.preventDefault();
      layout.search.focus();
      layout.search.select();
    } else if (mod && !event.altKey && event.key.toLowerCase() === 'g') {
      event.preventDefault();
      layout.gotoInput.focus();
      layout.gotoInput.select();
    } else if (event.key === 'F3') {
      event.preventDefault();
      app.startFind(event.shiftKey ? 'prev' : 'next', true);
    }
  });
}
