// Keeps one run panel per run (focusing it when asked again) and restores panels after a window
// reload (the WebviewPanelSerializer, registered at activation by runPanelLoader.ts, calls
// restore()). What a panel's stream learns goes to the RunStore. Loaded at the first panel, as the
// entry of dist/runpanel.js (runPanelLoader.ts).
import * as vscode from 'vscode';
import { notify } from '../common/notify';
import { isRunId } from '../runEvents/ids';
import { PendingReveals } from './panelReveal';
import { parsePersistedState } from './persistedState';
import { createRunWebviewPanel, RunPanel, type RunPanelDeps } from './runPanel';

export type { RunPanelDeps } from './runPanel';

export class RunPanelManager implements vscode.Disposable {
  private readonly panels = new Map<string, RunPanel>();
  /** Events to show once a panel's page can take them (a run link's #sequence). */
  private readonly reveals = new PendingReveals();

  constructor(private readonly deps: RunPanelDeps) {}

  /** `revealSequence`: the event to show (a run link's #sequence), once the page has its state. */
  open(runId: string, options: { objective?: string; revealSequence?: number } = {}): void {
    if (!isRunId(runId)) {
      void notify.error(vscode.l10n.t('"{0}" is not a run id (a run id starts with run_).', runId));
      return;
    }
    const existing = this.panels.get(runId);
    const inView = existing?.panel.visible ?? false;
    const panel =
      existing ??
      this.track(
        new RunPanel(createRunWebviewPanel(this.deps.extensionUri, runId, options.objective), runId, this.deps, {
          objective: options.objective,
        }),
      );
    if (options.revealSequence !== undefined) {
      this.reveals.reveal(panel, options.revealSequence, inView);
    }
    if (existing) {
      existing.reveal(options.objective);
    }
  }

  /**
   * The panel of a run for "Export Run…" and "Open Run Transcript": the run's (opened if needed, so
   * its log is read), or without a run id the active run panel.
   */
  panelFor(runId: string | undefined): RunPanel | undefined {
    if (runId === undefined) {
      return [...this.panels.values()].find((p) => p.panel.active);
    }
    if (!this.panels.has(runId)) {
      this.open(runId);
    }
    return this.panels.get(runId);
  }

  get openPanels(): ReadonlyMap<string, RunPanel> {
    return this.panels;
  }

  dispose(): void {
    this.reveals.dispose();
    for (const panel of [...this.panels.values()]) {
      panel.dispose();
    }
    this.panels.clear();
  }

  /** A panel VS Code restored after a reload (the serializer's call). */
  restore(panel: vscode.WebviewPanel, rawState: unknown): void {
    const state = parsePersistedState(rawState);
    if (!state || this.panels.has(state.runId)) {
      // Nothing to resume from (or the run is already shown): a blank panel would only confuse.
      this.deps.log.info(
        `Run panel: not restoring a panel (${state ? `run ${state.runId} already open` : 'no saved state'})`,
      );
      panel.dispose();
      return;
    }
    // With its saved snapshot the panel resumes after lastSequence; without one it replays the
    // log from the start, which shows everything and still repeats nothing (the page is new).
    this.deps.log.info(
      `Run panel: restoring run ${state.runId} after sequence ${state.snapshot ? state.lastSequence : 0}`,
    );
    this.track(new RunPanel(panel, state.runId, this.deps, { objective: state.objective, restored: state }));
  }

  private track(panel: RunPanel): RunPanel {
    this.panels.set(panel.runId, panel);
    panel.onDidDispose(() => {
      if (this.panels.get(panel.runId) === panel) {
        this.panels.delete(panel.runId);
      }
    });
    return panel;
  }
}
