// The web bundle's twin of runExport.ts: VS Code for the Web keeps a run's log in memory
// (src/runLog/runLog.web.ts) and writes no files of it, so "Export Run…" and "Open Run
// Transcript" (the panel's buttons too) say so in the one sentence of the web build.
import * as vscode from 'vscode';
import { notInBrowser } from '../commandSupport/notInBrowser';
import { notify } from '../common/notify';
import type { ExportFormat } from '../runLog/logExport';
import type { ExportableRun } from './exportableRun';

export async function exportRunToFile(
  _run: ExportableRun,
  _format: ExportFormat | undefined,
  _log: vscode.LogOutputChannel,
): Promise<void> {
  void notify.info(notInBrowser(vscode.l10n.t('Export Run')));
}

export async function openRunTranscript(
  _run: ExportableRun,
  _folder: string | undefined,
  _log: vscode.LogOutputChannel,
): Promise<void> {
  void notify.info(notInBrowser(vscode.l10n.t('Open Run Transcript')));
}
