// "Export Run…" and "Open Run Transcript" in VS Code: the save dialog, a progress notification
// with Cancel, the file written from the run's log on disk (src/runLog/logExport.ts), and a
// clear message when it fails. The transcript opens from a file in the extension's storage (not
// an untitled document): any size works, the editor reads it like any file, and closing it asks
// nothing.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeError } from '../api/errorSentences';
import { describeErrorForUser } from '../commandSupport/errorText';
import { notify } from '../common/notify';
import type { ExportFormat, TranscriptWords } from '../runLog/logExport';
import { transcriptFilePath } from '../runLog/logFolder';
import type { ExportableRun } from './exportableRun';

const EXTENSIONS: Record<ExportFormat, string> = { markdown: 'md', jsonl: 'jsonl' };

/** Asks where, then writes the run there; `format` unset: the user picks it by the file type. */
export async function exportRunToFile(
  run: ExportableRun,
  format: ExportFormat | undefined,
  log: vscode.LogOutputChannel,
): Promise<void> {
  const first = format ?? 'markdown';
  const filters: Record<string, string[]> = {};
  for (const f of [first, first === 'markdown' ? 'jsonl' : 'markdown'] as ExportFormat[]) {
    filters[f === 'markdown' ? vscode.l10n.t('Markdown transcript') : vscode.l10n.t('JSON lines')] = [EXTENSIONS[f]];
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Export Run'),
    defaultUri: vscode.Uri.joinPath(folder, `${run.runId}.${EXTENSIONS[first]}`),
    filters,
    saveLabel: vscode.l10n.t('Export'),
  });
  if (!target) {
    return;
  }
  if (target.scheme !== 'file') {
    void notify.error(vscode.l10n.t('A run can only be exported to a file on disk.'));
    return;
  }
  const chosen: ExportFormat = target.fsPath.toLowerCase().endsWith('.jsonl')
    ? 'jsonl'
    : target.fsPath.toLowerCase().endsWith('.md')
      ? 'markdown'
      : first;
  const written = await writeWithProgress(
    run,
    chosen,
    target.fsPath,
    vscode.l10n.t('Exporting run {0}…', run.runId),
    log,
  );
  if (written === undefined) {
    return;
  }
  const open = vscode.l10n.t('Open');
  const capped = run.logCappedAfter;
  const choice =
    capped === undefined
      ? await notify.info(vscode.l10n.t('Exported {0} events to {1}.', written, path.basename(target.fsPath)), open)
      : await notify.warn(
          vscode.l10n.t(
            "Exported {0} events to {1}. The run's log reached its size limit after event #{2}: later events are not in the file.",
            written,
            path.basename(target.fsPath),
            capped,
          ),
          open,
        );
  if (choice === open) {
    await openWritten(target, log);
  }
}

/** Opens a written file; the editor may refuse one (too large): the user is told, nothing rejects. */
async function openWritten(file: vscode.Uri, log: vscode.LogOutputChannel): Promise<void> {
  try {
    await vscode.window.showTextDocument(file, { preview: false });
  } catch (err) {
    log.warn(`Opening ${file.fsPath} failed: ${describeError(err)}`);
    void notify.error(
      vscode.l10n.t('The file was written but could not be opened in an editor: {0}', describeErrorForUser(err)),
    );
  }
}

/** Writes the Markdown transcript into `folder` and opens it in an editor. */
export async function openRunTranscript(
  run: ExportableRun,
  folder: string | undefined,
  log: vscode.LogOutputChannel,
): Promise<void> {
  if (!folder) {
    void notify.error(vscode.l10n.t('The transcript cannot be written: the extension has no storage folder.'));
    return;
  }
  const file = transcriptFilePath(folder, run.runId, run.service);
  if (!file) {
    void notify.error(
      vscode.l10n.t('The transcript of run {0} cannot be written: its id cannot be a file name.', run.runId),
    );
    return;
  }
  const written = await writeWithProgress(
    run,
    'markdown',
    file,
    vscode.l10n.t('Writing the transcript of run {0}…', run.runId),
    log,
  );
  if (written === undefined) {
    return;
  }
  await openWritten(vscode.Uri.file(file), log);
}

/** The number of events written; undefined when cancelled or failed (the user was told). */
async function writeWithProgress(
  run: ExportableRun,
  format: ExportFormat,
  target: string,
  title: string,
  log: vscode.LogOutputChannel,
): Promise<number | undefined> {
  const abort = new AbortController();
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token) => {
        token.onCancellationRequested(() => abort.abort());
        await logSettled(run, abort.signal);
        let shown = 0;
        return run.exportLog(format, target, {
          signal: abort.signal,
          words: transcriptWords(),
          onProgress: (written, total) => {
            const percent = total > 0 ? Math.floor((written / total) * 100) : 100;
            if (percent <= shown) {
              return;
            }
            progress.report({
              increment: percent - shown,
              message: vscode.l10n.t('{0} of {1} events', written, total),
            });
            shown = percent;
          },
        });
      },
    );
  } catch (err) {
    if (abort.signal.aborted) {
      return undefined;
    }
    log.warn(`Run ${run.runId}: export to ${target} failed: ${describeError(err)}`);
    void notify.error(vscode.l10n.t('The run could not be exported: {0}', describeErrorForUser(err)));
    return undefined;
  }
}

/**
 * A stream is "live" as soon as it opens, before it has replayed the run's history: a live run is
 * exported once the log holds what came and the replay has gone quiet for this long.
 */
const REPLAY_QUIET_MS = 1000;

/**
 * Until the log on disk holds the run: an ended run's whole log; a live run what came once its
 * replay went quiet; a failed stream what came. Throws (the caller shows it) when the log cannot
 * hold the run, rather than waiting for ever.
 */
async function logSettled(run: ExportableRun, signal: AbortSignal): Promise<void> {
  await run.logReady;
  for (;;) {
    if (run.logProblem) {
      throw new Error(run.logProblem);
    }
    const state = run.connectionState.state;
    if (state === 'ended' && run.logComplete) {
      return;
    }
    if (state === 'live' && run.logComplete && run.quietForMs >= REPLAY_QUIET_MS) {
      return;
    }
    if (state === 'failed') {
      return;
    }
    if (signal.aborted) {
      throw signal.reason;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function transcriptWords(): TranscriptWords {
  return {
    title: vscode.l10n.t('Run {0}', '{0}'),
    objective: vscode.l10n.t('Objective'),
    status: vscode.l10n.t('Status'),
    events: vscode.l10n.t('Events'),
    step: vscode.l10n.t('Step {0}: {1}', '{0}', '{1}'),
    stepCompleted: vscode.l10n.t('Step completed'),
    toolCall: vscode.l10n.t('Tool call'),
    observation: vscode.l10n.t('Observation'),
    plan: vscode.l10n.t('Plan: {0} steps', '{0}'),
    runEnded: vscode.l10n.t('Run ended: {0}', '{0}'),
    truncated: vscode.l10n.t('truncated: {0} bytes as sent', '{0}'),
    logCapped: vscode.l10n.t(
      'The log stops after event #{0}: it reached its size limit, later events are not in this file.',
      '{0}',
    ),
  };
}
