// The web bundle's twin of runExport.ts: VS Code for the Web keeps a run's log in memory
// (src/runLog/runLog.web.ts) and writes no files of it, so "Export Run…" and "Open Run
// Transcript" (the panel's buttons too) say so in the one sentence of the web build.
import * as vscode from 'vscode';
import { notInBrowser } from '../commandSupport/notInBrowser';
import { notify } from '../common/notify';
import type { ExportFormat, ExportOptions } from '../runLog/logExport';
import type { ConnectionView } from './protocol';

/** What the export needs of a panel's session (as runExport.ts declares it). */
export interface ExportableRun {
  readonly runId: string;
  readonly service: string | undefined;
  readonly connectionState: ConnectionView;
  readonly logComplete: boolean;
  readonly logReady: Promise<void>;
  readonly logProblem: string | undefined;
  readonly logCappedAfter: number | undefined;
  readonly quietForMs: number;
  exportLog(format: ExportFormat, target: string, options?: ExportOptions): Promise<number>;
}

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
