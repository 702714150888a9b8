// "Export Run…" and "Open Run Transcript": from a run row of the Tasks view, a {runId} object, a
// run id, or the run panel's title bar / the palette (resolveRun: the selected run row or the
// active run panel). The panel's session holds the run's whole log; a run not open yet gets its
// panel, which reads the log. An argument that names no run acts on nothing.
import * as vscode from 'vscode';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { resolveRun } from '../commandSupport/runArgs';
import { Commands } from '../common/ids';
import { notify } from '../common/notify';
import type { RunPanel } from './runPanel';

export interface RunPanels {
  panelFor(runId: string | undefined): RunPanel | undefined;
}

export function registerRunLogCommands(deps: CommandDeps, panels: RunPanels): vscode.Disposable[] {
  const withPanel = (name: string, action: (panel: RunPanel) => Promise<void>) =>
    deps.guard(name, async (arg?: unknown) => {
      const target = resolveRun(arg, { selection: deps.selection('tasks'), activePanel: deps.activeRunPanel });
      if (!target && arg !== undefined) {
        throw new UserFacingError(vscode.l10n.t('Choose a run: this command was given something that is not one.'));
      }
      const panel = target && panels.panelFor(target.runId);
      if (!panel) {
        void notify.info(vscode.l10n.t('Open a run first: choose a run in the Tasks view, or use Watch Run.'));
        return;
      }
      await action(panel);
    });
  return [
    vscode.commands.registerCommand(
      Commands.exportRun,
      withPanel('Export run', (panel) => panel.exportRun()),
    ),
    vscode.commands.registerCommand(
      Commands.openRunTranscript,
      withPanel('Open run transcript', (panel) => panel.openTranscript()),
    ),
  ];
}
