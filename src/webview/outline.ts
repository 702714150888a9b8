// The outline of a run's steps (title, duration, state) from the model's step aggregates: a
// virtual list beside the timeline, so a run of thousands of steps keeps a small DOM. Up/Down
// move through it, Enter or a click jumps the timeline to the step (app.ts pages it in).
import type { StepSummary } from '../runEvents/wire';
import type { UiStrings } from '../runPanel/protocol';
import { codicon, el, setIcon, setText, setTitle } from './dom';
import { formatDuration } from './format';
import type { TimelineState } from './reducer';
import { VirtualList } from './virtualList';

export const OUTLINE_ROW_HEIGHT = 22;

export interface Outline {
  list: VirtualList<StepSummary>;
  /** Redraws when the steps changed (`force`: a reset brought another model). */
  update(state: TimelineState, force?: boolean): void;
}

export function createOutline(
  container: HTMLElement,
  strings: () => UiStrings,
  onJump: (step: StepSummary) => void,
): Outline {
  let items: StepSummary[] = [];
  let key = '';
  let ended = false;
  const list = new VirtualList<StepSummary>({
    container,
    rowHeight: OUTLINE_ROW_HEIGHT,
    createRow: () => {
      const row = el('div', 'outline-item');
      row.setAttribute('role', 'listitem');
      row.tabIndex = -1;
      row.append(codicon('circle-large-outline'), el('span', 'outline-label'), el('span', 'outline-meta muted'));
      return row;
    },
    renderRow: (element, step) => {
      const [icon, label, meta] = Array.from(element.children) as HTMLElement[];
      const s = strings();
      const done = step.state === 'completed';
      setIcon(icon, done ? 'pass' : ended ? 'circle-slash' : 'sync', done ? 'ok' : ended ? 'muted' : 'spin');
      icon.setAttribute('aria-hidden', 'true');
      setText(label, step.title || step.stepId);
      // The state in words beside the icon: an icon never carries the meaning alone.
      const state = done ? s.completed : s.running;
      setText(meta, step.durationMs !== undefined ? `${formatDuration(step.durationMs)} · ${state}` : state);
      element.dataset.stepId = step.stepId;
      element.dataset.sequence = String(step.startSequence);
      setTitle(element, step.stepId);
    },
  });
  const indexOf = (target: EventTarget | null) => {
    const row = target instanceof Element ? target.closest<HTMLElement>('.outline-item') : null;
    return row ? Number(row.dataset.index) : -1;
  };
  container.addEventListener('click', (event) => {
    const index = indexOf(event.target);
    if (items[index]) {
      list.reveal(index)?.focus({ preventScroll: true });
      onJump(items[index]);
    }
  });
  container.addEventListener('keydown', (event) => {
    const current = indexOf(event.target);
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      Home: 0,
      End: items.length - 1,
      PageDown: current + 10,
      PageUp: current - 10,
    };
    if (event.key in moves) {
      event.preventDefault();
      list.reveal(Math.max(0, Math.min(items.length - 1, moves[event.key])))?.focus({ preventScroll: true });
      return;
    }
    if ((event.key === 'Enter' || event.key === ' ') && items[current]) {
      event.preventDefault();
      onJump(items[current]);
    }
  });
  return {
    list,
    update(state, force) {
      if (force) {
        key = '';
      }
      const next = `${state.model.kindCounts().get('step.started') ?? 0}/${state.model.completedStepCount}/${state.model.terminalEvent ? 1 : 0}/${state.strings.running}`;
      if (next === key) {
        return;
      }
      key = next;
      ended = state.model.terminalEvent !== undefined;
      items = [...state.model.stepSummaries()];
      list.setItems(items);
      list.render(true);
    },
  };
}
