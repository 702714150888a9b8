// The review of a follow-up run as the next revision of a piece of work: "Changes Since Revision N"
// (per file, revision N's output against this one's, in one multi-file diff, files the two leave
// the same left out and counted) and "Mark File as Reviewed" (per run and file, for the content
// seen; src/reviewUi/reviewedMarks.ts carries a mark forward until a revision changes the file).
import * as vscode from 'vscode';
import { UserFacingError } from '../commandSupport/commandErrors';
import { shortenText } from '../common/format';
import { inert } from '../common/inertText';
import { notify } from '../common/notify';
import { isSingular } from '../common/vscodeTranslate';
import { interdiff, type InterdiffEntry, type RevisionFile } from '../review';
import { reviewUri } from './reviewContent';
import type { ReviewedMarks } from './reviewedMarks';
import {
  loadChanges,
  MAX_REVIEW_BYTES,
  type ReviewedFile,
  type ReviewSession,
  type SessionSources,
} from './reviewSession';

/** What Changes Since Revision N showed (for the tests and callers). */
export interface SinceSummary {
  runId: string;
  revision: number;
  previousRunId: string;
  previousRevision: number;
  files: { relativePath: string; kind: InterdiffEntry['kind']; reviewed: boolean }[];
  /** Files both revisions leave the same: not shown. */
  unchanged: string[];
  /** Files only one revision changed whose start could not be read: not shown. */
  unknownStart: string[];
}

export async function openChangesSince(
  sources: SessionSources,
  session: ReviewSession,
  marks: ReviewedMarks,
  signal: AbortSignal,
  report: (message: string) => void,
): Promise<SinceSummary> {
  const previousRunId = session.revisions[1];
  if (previousRunId === undefined) {
    throw new UserFacingError(
      vscode.l10n.t('This run is the first revision of its work: there is no earlier revision to compare it with.'),
    );
  }
  const revision = session.revisions.length;
  const previousRevision = revision - 1;
  report(vscode.l10n.t('Reading revision {0}', previousRevision));
  const previous = await loadChanges(sources, previousRunId, signal, report);
  const current: (RevisionFile & { fileId: string })[] = session.files.map((f) => ({
    key: f.change.origin.uri,
    relativePath: f.change.origin.relativePath,
    bytes: f.change.agentBytes,
    startBytes: f.change.asSentBytes ?? f.asSentBytes,
    fileId: f.change.fileId,
  }));
  const before: (RevisionFile & { fileId: string })[] = previous.files.map((c) => ({
    key: c.origin.uri,
    relativePath: c.origin.relativePath,
    bytes: c.agentBytes,
    startBytes: c.asSentBytes,
    fileId: c.fileId,
  }));
  // A file only one revision changed is compared with the file as sent: read it when not at hand.
  const currentKeys = new Set(current.map((f) => f.key));
  const beforeKeys = new Set(before.map((f) => f.key));
  const uploadOf = new Map(
    [...session.files.map((f) => f.change), ...previous.files].map((c) => [c.origin.uri, c.origin.baseCommit]),
  );
  for (const file of [
    ...current.filter((f) => !beforeKeys.has(f.key)),
    ...before.filter((f) => !currentKeys.has(f.key)),
  ]) {
    if (file.startBytes !== undefined || uploadOf.get(file.key) !== undefined) {
      continue;
    }
    try {
      file.startBytes = (
        await sources.client.readFileContent(file.fileId, { signal, maxBytes: MAX_REVIEW_BYTES })
      ).content;
    } catch (err) {
      signal.throwIfAborted();
      void err; // left unknown: the summary says it could not be compared
    }
  }
  const diff = interdiff(before, current);
  const fileIdOf = new Map([...before, ...current].map((f) => [f.key, f.fileId]));
  const byKey = new Map(session.files.map((f) => [f.change.origin.uri, f]));
  const reviewedOf = (key: string) => {
    const file = byKey.get(key);
    return file !== undefined && marks.isReviewed(session.revisions, key, file.agentHash);
  };
  const entries: [vscode.Uri, vscode.Uri, vscode.Uri][] = [];
  const titles: string[] = [];
  for (const entry of diff.entries) {
    const fileId = fileIdOf.get(entry.key) ?? entry.key;
    // One path on both sides: the multi-file diff shows the file as modified, not renamed.
    const place = { uri: entry.key, relativePath: entry.relativePath };
    const left = reviewUri(session.runId, 'previous', fileId, place);
    const right = reviewUri(session.runId, 'result', fileId, place);
    sources.content.set(left, entry.before);
    sources.content.set(right, entry.after);
    entries.push([vscode.Uri.parse(entry.key), left, right]);
    titles.push(
      vscode.l10n.t('{0} - revision {1} ↔ revision {2}', inert(entry.relativePath), previousRevision, revision),
    );
  }
  const summary: SinceSummary = {
    runId: session.runId,
    revision,
    previousRunId,
    previousRevision,
    files: diff.entries.map((e) => ({ relativePath: e.relativePath, kind: e.kind, reviewed: reviewedOf(e.key) })),
    unchanged: diff.unchanged,
    unknownStart: diff.unknownStart,
  };
  const notes = leftOutSentences(summary);
  if (entries.length === 0) {
    void notify.info(
      [vscode.l10n.t('Revision {0} leaves every file as revision {1} did.', revision, previousRevision), ...notes].join(
        ' ',
      ),
    );
    return summary;
  }
  const title = session.objective
    ? vscode.l10n.t(
        'Changes since revision {0} for “{1}” (revision {0} ↔ revision {2})',
        previousRevision,
        inert(shortenText(session.objective, 80)),
        revision,
      )
    : vscode.l10n.t('Changes since revision {0} (revision {0} ↔ revision {1})', previousRevision, revision);
  const available = await vscode.commands.getCommands(true);
  if (available.includes('vscode.changes')) {
    await vscode.commands.executeCommand('vscode.changes', title, entries);
  } else {
    const picked = await vscode.window.showQuickPick(
      entries.map((e, i) => ({ label: inert(diff.entries[i].relativePath), entry: e, title: titles[i] })),
      { title },
    );
    if (picked) {
      await vscode.commands.executeCommand('vscode.diff', picked.entry[1], picked.entry[2], picked.title);
    }
  }
  const changed = isSingular(entries.length)
    ? vscode.l10n.t('Revision {0} changed 1 file since revision {1}.', revision, previousRevision)
    : vscode.l10n.t('Revision {0} changed {1} files since revision {2}.', revision, entries.length, previousRevision);
  void notify.info([changed, ...notes].join(' '));
  return summary;
}

function leftOutSentences(summary: SinceSummary): string[] {
  const out: string[] = [];
  const same = summary.unchanged.length;
  if (same > 0) {
    out.push(
      isSingular(same)
        ? vscode.l10n.t('1 file the same in both revisions is left out.')
        : vscode.l10n.t('{0} files the same in both revisions are left out.', same),
    );
  }
  if (summary.unknownStart.length > 0) {
    out.push(
      vscode.l10n.t(
        'Not compared (the file as sent could not be read): {0}.',
        summary.unknownStart.map((p) => inert(p)).join(', '),
      ),
    );
  }
  return out;
}

/** Arguments of Mark File as Reviewed from a caller (the menus pass a review URI). */
export interface MarkArgs {
  fileId?: string;
  reviewed?: boolean;
}

/**
 * Marks files of a review as reviewed. One file named (its editor's title menu): that file,
 * marked (or as `reviewed` says); none: the review's files in a quick pick, the reviewed ones
 * ticked, and what the person leaves ticked is what counts as reviewed.
 */
export async function markFilesReviewed(
  session: ReviewSession,
  marks: ReviewedMarks,
  args: MarkArgs,
): Promise<{ relativePath: string; reviewed: boolean }[] | undefined> {
  const isReviewed = (f: ReviewedFile) => marks.isReviewed(session.revisions, f.change.origin.uri, f.agentHash);
  const files = session.files;
  if (files.length === 0) {
    throw new UserFacingError(vscode.l10n.t('This review has no files to mark.'));
  }
  let chosen: Map<ReviewedFile, boolean>;
  if (args.fileId !== undefined) {
    const file = files.find((f) => f.change.fileId === args.fileId);
    if (!file) {
      throw new UserFacingError(vscode.l10n.t('That file is not part of this review.'));
    }
    chosen = new Map([[file, args.reviewed ?? true]]);
  } else {
    const items = files.map((f) => ({
      label: inert(f.change.origin.relativePath),
      description: isReviewed(f) ? vscode.l10n.t('✓ reviewed') : undefined,
      picked: isReviewed(f),
      file: f,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      title: vscode.l10n.t('Mark Files as Reviewed'),
      placeHolder: vscode.l10n.t('Tick the files you have reviewed; a later revision that changes one clears its tick'),
    });
    if (!picked) {
      return undefined;
    }
    const ticked = new Set(picked.map((p) => p.file));
    chosen = new Map(files.map((f) => [f, ticked.has(f)]));
  }
  for (const [file, reviewed] of chosen) {
    if (reviewed !== isReviewed(file)) {
      await marks.set(session.runId, file.change.origin.uri, file.agentHash, reviewed);
    }
  }
  const state = files.map((f) => ({ relativePath: f.change.origin.relativePath, reviewed: isReviewed(f) }));
  const count = state.filter((s) => s.reviewed).length;
  void notify.info(vscode.l10n.t('{0} of {1} files marked as reviewed.', count, files.length));
  return state;
}
