// Keeps one run panel per run (focusing it when asked again), restores panels after a window
// reload through the WebviewPanelSerializer, and reports when a watched run ends.
import * as vscode from 'vscode';
import { parsePersistedState } from './persistedState';
import { RUN_PANEL_VIEW_TYPE, isRunId } from './protocol';
import { RunPanel, createRunWebviewPanel, type RunPanelDeps } from './runPanel';

export type { RunPanelDeps } from './runPanel';

export interface RunStatusChange {
  runId: string;
  status: string;
}

export class RunPanelManager implements vscode.Disposable {
  private readonly panels = new Map<string, RunPanel>();
  private readonly statusEmitter = new vscode.EventEmitter<RunStatusChange>();
  /** Fires once when a watched run reaches its terminal event. */
  readonly onDidChangeRunStatus = this.statusEmitter.event;

  constructor(private readonly deps: RunPanelDeps) {}

  open(runId: string, options: { objective?: string } = {}): void {
    if (!isRunId(runId)) {
      void vscode.window.showErrorMessage(vscode.l10n.t('"{0}" is not a run id (a run id starts with run_).', runId));
      return;
    }
    const existing = this.panels.get(runId);
    if (existing) {
      existing.reveal(options.objective);
      return;
    }
    this.track(new RunPanel(createRunWebviewPanel(this.deps.extensionUri, runId), runId, this.deps, this.panelOptions(runId, options.objective)));
  }

  registerSerializer(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(RUN_PANEL_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => this.restore(panel, state),
    });
  }

  /** The runs with an open panel. */
  get openRuns(): string[] {
    return [...this.panels.keys()];
  }

  dispose(): void {
    for (const panel of [...this.panels.values()]) panel.dispose();
    this.panels.clear();
    this.statusEmitter.dispose();
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
    this.track(new RunPanel(panel, state.runId, this.deps, { ...this.panelOptions(state.runId, state.objective), restored: state }));
  }

  private panelOptions(runId: string, objective: string | undefined) {
    return { objective, onStatus: (status: string) => this.statusEmitter.fire({ runId, status }) };
  }

  private track(panel: RunPanel): void {
    this.panels.set(panel.runId, panel);
    panel.onDidDispose(() => {
      if (this.panels.get(panel.runId) === panel) this.panels.delete(panel.runId);
    });
  }
}
