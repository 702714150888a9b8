// The panel's buttons that only tell the host something (copy, retry, export, steering,
// artifacts, record links) and the outline's toggle: no state of the timeline changes here.
import type { WebviewMessage } from '../runPanel/protocol';
import type { Layout } from './layout';
import type { Row } from './reducer';
import type { SteeringUi } from './steeringUi';
import type { VsCodeApi } from './vscodeApi';

/** What the controls need of the app (RunPanelApp). */
export interface ControlsApp {
  readonly vscode: VsCodeApi;
  readonly layout: Layout;
  readonly steering: SteeringUi;
  readonly runId: string;
  /** The row whose detail is open (copy, open and fork act on it). */
  readonly expanded: Row | undefined;
  jumpToNewest(): void;
  /** The outline was shown: its list lays out again. */
  outlineShown(): void;
}

/**
 * The panel beside an editor (about half the editor's width): the outline folds away so that the
 * rows keep the width. The same figure as the narrow media query in media/runPanel.css.
 */
export const NARROW_PANEL_QUERY = '(max-width: 600px)';

/**
 * The outline's toggle. Wide, the outline shows until the user folds it; narrow, it starts folded
 * and opens above the rows on demand; back to wide, the user's wide choice returns.
 */
function wireOutlineToggle(app: ControlsApp): void {
  const { layout } = app;
  const narrow = window.matchMedia(NARROW_PANEL_QUERY);
  let openWhenWide = !layout.outline.hidden;
  const show = (open: boolean) => {
    if (layout.outline.hidden === !open) {
      return;
    }
    layout.outline.hidden = !open;
    layout.outlineToggle.setAttribute('aria-expanded', String(open));
    if (open) {
      app.outlineShown();
    }
  };
  layout.outlineToggle.addEventListener('click', () => {
    const open = layout.outline.hidden;
    if (!narrow.matches) {
      openWhenWide = open;
    }
    show(open);
  });
  const fit = () => show(narrow.matches ? false : openWhenWide);
  narrow.addEventListener('change', fit);
  fit();
}

export function wireControls(app: ControlsApp): void {
  const { vscode, layout, steering } = app;
  /** A message, or what makes it at the click (nothing is sent when that gives nothing). */
  type Message = WebviewMessage | (() => WebviewMessage | undefined);
  const send = (message: Message) => {
    const m = typeof message === 'function' ? message() : message;
    if (m) {
      vscode.postMessage(m);
    }
  };
  const postOnClick = (button: HTMLElement, message: Message) => button.addEventListener('click', () => send(message));
  // Buttons inside the timeline (the open event's detail, the approval card) keep their clicks
  // from the timeline's own handlers.
  const postOnClickInTimeline = (button: HTMLElement, message: Message) =>
    button.addEventListener('click', (event) => {
      event.stopPropagation();
      send(message);
    });
  postOnClick(layout.copyRunId, () => ({ type: 'copy', text: app.runId, what: 'runId' }));
  postOnClick(layout.retry, { type: 'retry' });
  // After the end of the run, Retry lists the artifacts again.
  postOnClick(layout.artifactsRetry, { type: 'retry' });
  postOnClick(layout.signIn, { type: 'signIn' });
  postOnClickInTimeline(layout.rawCopy, () => {
    const expanded = app.expanded;
    if (!expanded?.raw) {
      return undefined;
    }
    // A cut event is copied whole: the host reads it again from the server's log.
    return expanded.raw.truncatedBytes !== undefined
      ? { type: 'copyEvent', sequence: expanded.sequence }
      : { type: 'copy', text: JSON.stringify(expanded.raw.data, null, 2), what: 'json' };
  });
  postOnClickInTimeline(layout.rawOpen, () => {
    const expanded = app.expanded;
    return expanded?.raw ? { type: 'openEvent', sequence: expanded.sequence } : undefined;
  });
  // The expanded event's record links: the row's sequence, the record kind and id the button carries.
  layout.rawLinks.addEventListener('click', (event) => {
    event.stopPropagation();
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>('button.record-link') : null;
    const expanded = app.expanded;
    const record = button?.dataset.record;
    const id = button?.dataset.id;
    if (!expanded?.raw || (record !== 'invocation' && record !== 'memory') || id === undefined) {
      return;
    }
    vscode.postMessage({ type: 'openRecord', sequence: expanded.sequence, record, id });
  });
  postOnClick(layout.exportMarkdown, { type: 'export', format: 'markdown' });
  postOnClick(layout.exportJsonl, { type: 'export', format: 'jsonl' });
  postOnClick(layout.openTranscript, { type: 'openTranscript' });
  wireOutlineToggle(app);
  for (const { action, button } of steering.actions) {
    if (action.panel === 'header') {
      postOnClick(button, { type: 'runAction', action: action.id });
    } else {
      postOnClickInTimeline(button, () => {
        const expanded = app.expanded;
        return expanded ? { type: 'runAction', action: action.id, sequence: expanded.sequence } : undefined;
      });
    }
  }
  // The count the button shows goes with the press; the host's preview shows what goes out.
  postOnClick(steering.sendComments, () => {
    const count = Number(steering.sendComments.dataset.count);
    return Number.isSafeInteger(count) && count > 0 ? { type: 'sendComments', count } : undefined;
  });
  const decide = (decision: 'approve' | 'deny') => (): WebviewMessage | undefined => {
    const approvalId = steering.card.dataset.approvalId;
    return approvalId ? { type: 'decide', approvalId, decision } : undefined;
  };
  postOnClickInTimeline(steering.approve, decide('approve'));
  postOnClickInTimeline(steering.deny, decide('deny'));
  postOnClickInTimeline(steering.openTool, () => {
    const approvalId = steering.card.dataset.approvalId;
    return approvalId ? { type: 'openTool', approvalId } : undefined;
  });
  layout.jump.addEventListener('click', () => app.jumpToNewest());
  layout.artifactsList.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>('button[data-action]') : null;
    const artifactId = button?.closest<HTMLElement>('[data-artifact-id]')?.dataset.artifactId;
    if (!button || artifactId === undefined) {
      return;
    }
    vscode.postMessage({
      type: button.dataset.action === 'saveArtifact' ? 'saveArtifact' : 'openArtifact',
      artifactId,
    });
  });
}
