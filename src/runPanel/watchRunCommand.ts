// The `agentRuntime.watchRun` command: from a tree row or notification (a run id, or an object
// with one) or from the palette (asks for the id).
import * as vscode from 'vscode';
import { isRunId } from './protocol';

export type WatchRunArgument = string | { runId: string; objective?: string } | undefined;

export function watchRunCommand(manager: { open(runId: string, options?: { objective?: string }): void }) {
  return async (arg?: WatchRunArgument): Promise<void> => {
    let runId: string | undefined;
    let objective: string | undefined;
    if (typeof arg === 'string') {
      runId = arg;
    } else if (arg && typeof arg === 'object' && typeof arg.runId === 'string') {
      runId = arg.runId;
      objective = typeof arg.objective === 'string' ? arg.objective : undefined;
    }
    if (runId === undefined) {
      runId = await vscode.window.showInputBox({
        title: vscode.l10n.t('Watch Run'),
        prompt: vscode.l10n.t('The id of the run to watch'),
        placeHolder: 'run_…',
        ignoreFocusOut: true,
        validateInput: (value) => (isRunId(value.trim()) ? undefined : vscode.l10n.t('A run id starts with run_ (letters, digits, _ and - only).')),
      });
      if (runId === undefined) return;
      runId = runId.trim();
    }
    manager.open(runId, { objective });
  };
}
