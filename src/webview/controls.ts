// The panel's buttons that only tell the host something (copy, retry, export, steering,
// artifacts) and the outline's toggle: no state of the timeline changes here.
import type { Row } from './reducer';
import type { Layout } from './layout';
import type { SteeringUi } from './steeringUi';
import type { VsCodeApi } from './vscodeApi';

export interface ControlsContext {
  vscode: VsCodeApi;
  runId(): string;
  /** The row whose detail is open (copy, open and fork act on it). */
  expanded(): Row | undefined;
  jumpToNewest(): void;
  /** The outline was shown: its list lays out again. */
  outlineShown(): void;
}

export function wireControls(layout: Layout, steering: SteeringUi, ctx: ControlsContext): void {
  const { vscode } = ctx;
  layout.copyRunId.addEventListener('click', () => vscode.postMessage({ type: 'copy', text: ctx.runId(), what: 'runId' }));
  layout.retry.addEventListener('click', () => vscode.postMessage({ type: 'retry' }));
  // After the end of the run, Retry lists the artifacts again.
  layout.artifactsRetry.addEventListener('click', () => vscode.postMessage({ type: 'retry' }));
  layout.signIn.addEventListener('click', () => vscode.postMessage({ type: 'signIn' }));
  layout.rawCopy.addEventListener('click', (event) => {
    event.stopPropagation();
    const expanded = ctx.expanded();
    if (!expanded?.raw) return;
    // A cut event is copied whole: the host reads it again from the server's log.
    if (expanded.raw.truncatedBytes !== undefined) vscode.postMessage({ type: 'copyEvent', sequence: expanded.sequence });
    else vscode.postMessage({ type: 'copy', text: JSON.stringify(expanded.raw.data, null, 2), what: 'json' });
  });
  layout.rawOpen.addEventListener('click', (event) => {
    event.stopPropagation();
    const expanded = ctx.expanded();
    if (expanded?.raw) vscode.postMessage({ type: 'openEvent', sequence: expanded.sequence });
  });
  layout.exportMarkdown.addEventListener('click', () => vscode.postMessage({ type: 'export', format: 'markdown' }));
  layout.exportJsonl.addEventListener('click', () => vscode.postMessage({ type: 'export', format: 'jsonl' }));
  layout.openTranscript.addEventListener('click', () => vscode.postMessage({ type: 'openTranscript' }));
  layout.outlineToggle.addEventListener('click', () => {
    layout.outline.hidden = !layout.outline.hidden;
    layout.outlineToggle.setAttribute('aria-expanded', String(!layout.outline.hidden));
    if (!layout.outline.hidden) ctx.outlineShown();
  });
  steering.cancel.addEventListener('click', () => vscode.postMessage({ type: 'cancel' }));
  steering.resume.addEventListener('click', () => vscode.postMessage({ type: 'resume' }));
  steering.review.addEventListener('click', () => vscode.postMessage({ type: 'review' }));
  steering.fork.addEventListener('click', (event) => {
    event.stopPropagation();
    const expanded = ctx.expanded();
    if (expanded) vscode.postMessage({ type: 'fork', sequence: expanded.sequence });
  });
  const decide = (decision: 'approve' | 'deny') => {
    const approvalId = steering.card.dataset.approvalId;
    if (approvalId) vscode.postMessage({ type: 'decide', approvalId, decision });
  };
  steering.approve.addEventListener('click', (event) => {
    event.stopPropagation();
    decide('approve');
  });
  steering.deny.addEventListener('click', (event) => {
    event.stopPropagation();
    decide('deny');
  });
  layout.jump.addEventListener('click', () => ctx.jumpToNewest());
  layout.artifactsList.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>('button[data-action]') : null;
    const artifactId = button?.closest<HTMLElement>('[data-artifact-id]')?.dataset.artifactId;
    if (!button || artifactId === undefined) return;
    vscode.postMessage({ type: button.dataset.action === 'saveArtifact' ? 'saveArtifact' : 'openArtifact', artifactId });
  });
}
