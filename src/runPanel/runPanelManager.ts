// Keeps one run panel per run (focusing it when asked again) and restores panels after a window
// reload through the WebviewPanelSerializer. What a panel's stream learns goes to the RunStore.
import * as vscode from 'vscode';
import { notify } from '../common/notify';
import { parsePersistedState } from './persistedState';
import { RUN_PANEL_VIEW_TYPE, isRunId, parseWebviewMessage, type HostMessage } from './protocol';
import { RunPanel, createRunWebviewPanel, type RunPanelDeps } from './runPanel';

export type { RunPanelDeps } from './runPanel';

export class RunPanelManager implements vscode.Disposable {
  private readonly panels = new Map<string, RunPanel>();
  /** Stops the reveal waiting for a panel's next page, if any. */
  private readonly pendingReveals = new Map<RunPanel, () => void>();

  constructor(private readonly deps: RunPanelDeps) {}

  /** `revealSequence`: the event to show (a run link's #sequence), once the page has its state. */
  open(runId: string, options: { objective?: string; revealSequence?: number } = {}): void {
    if (!isRunId(runId)) {
      void notify.error(vscode.l10n.t('"{0}" is not a run id (a run id starts with run_).', runId));
      return;
    }
    const existing = this.panels.get(runId);
    const shownBefore = existing?.panel.visible ?? false;
    const panel = existing ?? this.track(new RunPanel(createRunWebviewPanel(this.deps.extensionUri, runId, options.objective), runId, this.deps, { objective: options.objective }));
    const sequence = options.revealSequence;
    if (sequence !== undefined && Number.isSafeInteger(sequence) && sequence > 0) this.revealWhenReady(panel, { type: 'reveal', sequence }, shownBefore);
    if (existing) existing.reveal(options.objective);
  }

  registerSerializer(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(RUN_PANEL_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => this.restore(panel, state),
    });
  }

  dispose(): void {
    for (const panel of [...this.panels.values()]) panel.dispose();
    this.panels.clear();
  }

  private restore(panel: vscode.WebviewPanel, rawState: unknown): void {
    const state = parsePersistedState(rawState);
    if (!state || this.panels.has(state.runId)) {
      // Nothing to resume from (or the run is already shown): a blank panel would only confuse.
      this.deps.log.info(`Run panel: not restoring a panel (${state ? `run ${state.runId} already open` : 'no saved state'})`);
      panel.dispose();
      return;
    }
    // With its saved snapshot the panel resumes after lastSequence; without one it replays the
    // log from the start, which shows everything and still repeats nothing (the page is new).
    this.deps.log.info(`Run panel: restoring run ${state.runId} after sequence ${state.snapshot ? state.lastSequence : 0}`);
    this.track(new RunPanel(panel, state.runId, this.deps, { objective: state.objective, restored: state }));
  }

  private track(panel: RunPanel): RunPanel {
    this.panels.set(panel.runId, panel);
    panel.onDidDispose(() => {
      if (this.panels.get(panel.runId) === panel) this.panels.delete(panel.runId);
    });
    return panel;
  }

  /**
   * Posts `reveal` after each `reset` the page gets until the panel is next hidden: its `ready`
   * (a new or reloaded page) and its coming back into view both make the RunPanel post a reset
   * first, as its listeners were added before these. A page in view gets it at once as well.
   * A newer reveal for the same panel replaces this one.
   */
  private revealWhenReady(panel: RunPanel, message: HostMessage, inView: boolean): void {
    this.pendingReveals.get(panel)?.();
    const post = () => void panel.panel.webview.postMessage(message);
    if (inView) post();
    const subs = [
      panel.panel.webview.onDidReceiveMessage((raw: unknown) => {
        if (parseWebviewMessage(raw)?.type === 'ready') post();
      }),
      panel.panel.onDidChangeViewState(({ webviewPanel }) => {
        if (!webviewPanel.visible) return done();
        if (!inView) post();
        inView = true;
      }),
      panel.onDidDispose(() => done()),
    ];
    const done = () => {
      subs.splice(0).forEach((d) => d.dispose());
      if (this.pendingReveals.get(panel) === done) this.pendingReveals.delete(panel);
    };
    this.pendingReveals.set(panel, done);
  }
}
