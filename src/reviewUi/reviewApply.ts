// Writing a review's changes: re-reviews each chosen file against what it holds now, checks the
// target (inside the workspace folder it came from, no link out), and makes ONE WorkspaceEdit of
// line replacements for the whole action, so Undo takes it back and open editors follow.
import * as vscode from 'vscode';
import { vscodeTranslate } from '../common/vscodeTranslate';
import { applyReviewHunks, decodeText } from '../review';
import { refreshFile, type ReviewedFile, type SessionSources } from './reviewSession';
import { lineEditsFor } from './reviewText';
import { checkWorkspaceTarget } from './workspaceTarget';

export interface ApplyPick {
  file: ReviewedFile;
  /** Undefined: every hunk of the file. */
  hunkIds?: readonly string[];
}

export interface ApplyOutcome {
  /** Whether VS Code accepted the edit (false when there was nothing to write, too). */
  applied: boolean;
  files: { fileId: string; relativePath: string; hunks: number; conflicts: number }[];
  /** Files left alone, with the sentence saying why. */
  skipped: { fileId: string; relativePath: string; message: string }[];
}

export async function applyPicks(sources: SessionSources, picks: readonly ApplyPick[]): Promise<ApplyOutcome> {
  const outcome: ApplyOutcome = { applied: false, files: [], skipped: [] };
  const edit = new vscode.WorkspaceEdit();
  for (const { file, hunkIds } of picks) {
    const { fileId, origin } = file.change;
    const skip = (message: string) => outcome.skipped.push({ fileId, relativePath: origin.relativePath, message });
    if (file.place.kind !== 'here') {
      skip(
        file.place.kind === 'otherWindow'
          ? vscode.l10n.t('{0} belongs to a workspace folder that is not open in this window.', origin.relativePath)
          : vscode.l10n.t(
              '{0} was uploaded from outside the workspace; nothing is written there.',
              origin.relativePath,
            ),
      );
      continue;
    }
    const review = await refreshFile(sources, file);
    if (review.status === 'identical') {
      skip(vscode.l10n.t("{0} already has the agent's changes.", origin.relativePath));
      continue;
    }
    if (review.status !== 'ready') {
      skip(review.message);
      continue;
    }
    const ids = (hunkIds ?? review.hunks.map((h) => h.id)).filter((id) => review.hunks.some((h) => h.id === id));
    if (ids.length === 0) {
      skip(
        vscode.l10n.t(
          'The chosen changes to {0} are no longer there (applied already, or the file changed).',
          origin.relativePath,
        ),
      );
      continue;
    }
    const target = await checkWorkspaceTarget(vscode.Uri.parse(file.place.folder), file.uri);
    if (!target.ok) {
      skip(target.message);
      continue;
    }
    const doc = await vscode.workspace.openTextDocument(file.uri);
    const crlf = doc.eol === vscode.EndOfLine.CRLF;
    const asDoc = (text: string) => (crlf ? text.replace(/\n/g, '\r\n') : text);
    if (doc.getText().replace(/\r\n/g, '\n') === review.workspace.text) {
      for (const e of lineEditsFor(review.hunks, ids)) {
        edit.replace(doc.uri, doc.validateRange(new vscode.Range(e.startLine, 0, e.endLine, 0)), asDoc(e.text));
      }
    } else {
      // The document is not what was reviewed (it changed in between): write the whole text.
      const decoded = decodeText(applyReviewHunks(review, ids), vscodeTranslate);
      if (!decoded.ok) {
        skip(decoded.message);
        continue;
      }
      edit.replace(doc.uri, doc.validateRange(new vscode.Range(0, 0, doc.lineCount, 0)), asDoc(decoded.value.text));
    }
    outcome.files.push({
      fileId,
      relativePath: origin.relativePath,
      hunks: ids.length,
      conflicts: review.conflicts.length,
    });
  }
  if (outcome.files.length === 0) {
    return outcome;
  }
  // isRefactoring: files that were not open are saved or left dirty as files.refactoring.autoSave says.
  outcome.applied = await vscode.workspace.applyEdit(edit, { isRefactoring: true });
  if (outcome.applied) {
    const written = new Set(outcome.files.map((f) => f.fileId));
    sources.content.bindWorkspaceFiles(
      picks.map((p) => p.file).filter((f) => written.has(f.change.fileId)),
      'agent',
    );
  }
  return outcome;
}
