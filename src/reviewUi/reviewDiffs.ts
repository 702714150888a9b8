// The editors of a review: one multi-file diff (today's file against the agent's version, and
// for a file changed since upload the as-sent pairs of the three-way view), a single-file diff,
// and the conflicts marked. Without `vscode.changes`, a quick pick of files each opening a diff.
import * as vscode from 'vscode';
import { shortenText } from '../common/format';
import { inert } from '../common/inertText';
import { agentSideOf, type ReviewedFile, type ReviewSession } from './reviewSession';

/** One multi-file diff editor; without `vscode.changes`, a quick pick of files each opening a diff. */
export async function openDiffs(
  session: ReviewSession,
  files: readonly ReviewedFile[],
  reviewed: (file: ReviewedFile) => boolean,
): Promise<void> {
  // The objective is what the user recognises; the run id only when the server did not tell it.
  // The title says what the sides are: the files' headers show only each file's name and folder.
  const title = session.objective
    ? vscode.l10n.t(
        'Changes for “{0}” (your files ↔ {1})',
        inert(shortenText(session.objective, 80)),
        agentSideOf(session),
      )
    : vscode.l10n.t('Changes by run {0} (your files ↔ {1})', inert(session.runId), agentSideOf(session));
  const entries: [vscode.Uri, vscode.Uri, vscode.Uri][] = [];
  for (const f of files) {
    entries.push([f.uri, f.uri, f.agentUri]);
    if (f.review.status === 'ready' && f.review.changedSinceUpload && f.asSentBytes) {
      // The other two sides of the three-way view: your edits since upload, and the agent's.
      entries.push([f.sentUri.with({ fragment: 'yours' }), f.sentUri, f.uri]);
      entries.push([f.sentUri.with({ fragment: 'agent' }), f.sentUri, f.agentUri]);
    }
  }
  const available = await vscode.commands.getCommands(true);
  if (available.includes('vscode.changes')) {
    await vscode.commands.executeCommand('vscode.changes', title, entries);
    return;
  }
  const picked = await vscode.window.showQuickPick(
    files.map((f) => ({
      label: inert(f.change.origin.relativePath),
      description: reviewed(f) ? vscode.l10n.t('✓ reviewed') : undefined,
      file: f,
    })),
    { title, placeHolder: vscode.l10n.t("Choose a file to compare with the agent's version") },
  );
  if (picked) {
    await openFileDiff(session, picked.file);
  }
}

async function openFileDiff(session: ReviewSession, file: ReviewedFile): Promise<void> {
  const name = file.change.origin.relativePath;
  await vscode.commands.executeCommand(
    'vscode.diff',
    file.uri,
    file.agentUri,
    vscode.l10n.t('{0} - your file ↔ {1}', inert(name), agentSideOf(session)),
  );
}

export async function openConflicts(files: readonly ReviewedFile[]): Promise<void> {
  for (const f of files) {
    if (f.review.status !== 'ready' || !f.review.conflictMarkedBytes) {
      continue;
    }
    await vscode.commands.executeCommand(
      'vscode.diff',
      f.uri,
      f.conflictsUri,
      vscode.l10n.t('{0} - your file ↔ conflicts marked', inert(f.change.origin.relativePath)),
      { preview: false },
    );
  }
}
