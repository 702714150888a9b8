// The run panel and the run log (RunPanelManager with what only it uses: the panel, its session,
// src/runLog) load at the first panel: Watch Run, a run link, Go to, Export Run or Open Run
// Transcript, or a panel VS Code restores after a reload. That restore needs the serializer
// registered at activation, so it is registered here and what it calls loads then. In the bundle,
// esbuild.js (LAZY_FILES) resolves the require below to a guard that loads dist/runpanel.js, a
// bundle that takes every module it shares with extension.js from extension.js's `__shared` (one
// class, one singleton); under tsc it is the plain module.
import * as vscode from 'vscode';
import { describeError } from '../api/errorSentences';
import { describeErrorForUser } from '../commandSupport/errorText';
import { notify } from '../common/notify';
import { RUN_PANEL_VIEW_TYPE } from './protocol';
import type { DraftCommentCounts, RunPanel } from './runPanel';
import type * as Manager from './runPanelManager';
import type { RunPanelDeps, RunPanelManager } from './runPanelManager';

export type { RunPanelDeps } from './runPanelManager';

// Before the manager loads there are no panels: one empty map for every read, not one per read.
const NO_PANELS: ReadonlyMap<string, RunPanel> = new Map<string, RunPanel>();

/** RunPanelManager's API at activation; the manager itself is created at the first use. */
export class LazyRunPanelManager implements vscode.Disposable {
  private manager: RunPanelManager | undefined;

  constructor(private readonly deps: RunPanelDeps) {}

  open(runId: string, options?: { objective?: string; revealSequence?: number }): void {
    this.load().open(runId, options);
  }

  panelFor(runId: string | undefined): RunPanel | undefined {
    // The active run panel: there is none before the first one was opened or restored.
    if (runId === undefined && !this.manager) {
      return undefined;
    }
    return this.load().panelFor(runId);
  }

  /** The open panels by run id (the extension-host suites read it to watch a panel's posts). */
  get panels(): ReadonlyMap<string, RunPanel> {
    return this.manager?.openPanels ?? NO_PANELS;
  }

  /** Review comments not sent yet (src/reviewTalk, from the composition root): every panel's send button follows them. */
  setDraftComments(source: DraftCommentCounts): void {
    this.deps.draftComments = source;
    for (const panel of this.panels.values()) {
      panel.useDraftComments(source);
    }
  }

  registerSerializer(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(RUN_PANEL_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => {
        let manager: RunPanelManager;
        try {
          manager = this.load();
        } catch (err) {
          // A broken install: say so (the message says to reinstall) instead of leaving a blank panel.
          this.deps.log.error(`Run panel: cannot restore a panel: ${describeError(err)}`);
          panel.dispose();
          void notify.error(describeErrorForUser(err));
          return;
        }
        manager.restore(panel, state);
      },
    });
  }

  dispose(): void {
    this.manager?.dispose();
  }

  private load(): RunPanelManager {
    // Synchronous on purpose: the file is local, and open() then returns as it did before.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.manager ??= new (require('./runPanelManager') as typeof Manager).RunPanelManager(this.deps);
    return this.manager;
  }
}
