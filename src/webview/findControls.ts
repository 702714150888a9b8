// The find bar's and the go-to box's keys, and the panel-wide shortcuts: Ctrl+F the find bar,
// F3 / Shift+F3 the matches, Ctrl+G go to. Typing searches after a pause; Enter / Shift+Enter
// step through the matches, Escape closes.
import type { Layout } from './layout';

export interface FindControlsContext {
  /** The text the current find was started with (Enter on the same text steps on from the match). */
  findText(): string;
  startFind(direction: 'next' | 'prev', fromCurrent: boolean): void;
  clearFind(): void;
  goTo(sequence: number): void;
  /** The go-to box holds no event number. */
  gotoInvalid(): void;
}

export function wireFindControls(layout: Layout, ctx: FindControlsContext): void {
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  layout.search.addEventListener('input', () => {
    if (searchTimer !== undefined) clearTimeout(searchTimer);
    searchTimer = setTimeout(() => ctx.startFind('next', false), 200);
  });
  layout.search.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      if (searchTimer !== undefined) clearTimeout(searchTimer);
      ctx.startFind(event.shiftKey ? 'prev' : 'next', layout.search.value === ctx.findText());
    } else if (event.key === 'Escape') {
      event.preventDefault();
      layout.search.value = '';
      ctx.clearFind();
      layout.timeline.focus();
    }
  });
  layout.findNext.addEventListener('click', () => ctx.startFind('next', true));
  layout.findPrev.addEventListener('click', () => ctx.startFind('prev', true));
  layout.gotoInput.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      layout.gotoInput.value = '';
      layout.timeline.focus();
      return;
    }
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const text = layout.gotoInput.value.trim().replace(/^#/, '');
    const sequence = /^\d+$/.test(text) ? Number(text) : NaN;
    const valid = Number.isSafeInteger(sequence) && sequence > 0;
    // Never a silent no-op: the find bar's status (a live region) says what the box wants.
    layout.gotoInput.setAttribute('aria-invalid', String(!valid));
    if (valid) ctx.goTo(sequence);
    else ctx.gotoInvalid();
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
      ctx.startFind(event.shiftKey ? 'prev' : 'next', true);
    }
  });
}
