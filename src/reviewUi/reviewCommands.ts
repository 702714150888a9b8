// Review Changes: a run's revised workspace files in one multi-file diff editor (today's file
// against the agent's version), then Apply All, Apply Chosen Changes... (hunks from a quick
// pick) and Save Changes as Patch...; outputs that cannot be reviewed get the plain open/save.
import * as vscode from 'vscode';
import { describeError } from '../api/errorSentences';
import { type CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { resolveRun } from '../commandSupport/runArgs';
import { Commands } from '../common/ids';
import { inert } from '../common/inertText';
import { notify } from '../common/notify';
import { isSingular } from '../common/vscodeTranslate';
import { applyToNewBranch } from '../projects/applyBranchCommand';
import { formatChangeSetPatch } from '../review';
import { projectRevisionTexts } from './projectReview';
import { type ApplyOutcome, type ApplyPick, applyPicks } from './reviewApply';
import { parseReviewUri, type ReviewContent } from './reviewContent';
import { openConflicts, openDiffs } from './reviewDiffs';
import { type MarksMemento, ReviewedMarks } from './reviewedMarks';
import { loadSession, refreshFile, type ReviewedFile, type ReviewSession, type SessionSources } from './reviewSession';
import { changedSinceSentences, describeHunk } from './reviewText';
import { markFilesReviewed, openChangesSince, type SinceSummary } from './revisionReview';
import { hasReviewableOutputs } from './runOutputs';

export const REVIEW_OPEN_CONTEXT = 'agentRuntime.reviewOpen';
/** Set while the newest review is of a follow-up run (Changes Since Revision N is offered). */
export const REVIEW_IS_REVISION_CONTEXT = 'agentRuntime.reviewIsRevision';

/** What Review Changes returns (for the lead's callers and the tests). */
export interface ReviewSummary {
  runId: string;
  files: {
    fileId: string;
    uri: string;
    relativePath: string;
    status: 'ready' | 'identical' | 'gone' | 'needsAsSent' | 'notText' | 'tooDifferent' | 'outside' | 'otherWindow';
    changedSinceUpload?: boolean;
    hunks?: { id: string; lines: string; counts: string }[];
    conflicts?: number;
    message?: string;
    /** Marked as reviewed (in this run, or in an earlier revision that left the same content). */
    reviewed: boolean;
  }[];
  /** The run's revision number (1 unless it follows up an earlier run). */
  revision: number;
  problems: { code: string; artifactId: string; message: string }[];
  /** The run lists more outputs than a review reads: only this many were looked at. */
  outputsRead?: number;
}

/** Arguments of the apply commands (menus pass a review URI instead). */
export interface ApplyArgs {
  runId?: string;
  fileId?: string;
  hunkIds?: string[];
}

export interface RunReview extends vscode.Disposable {
  /** Review Changes for a run: fetch, compare, open the diff editor and offer the actions. */
  reviewRun(runId: string): Promise<ReviewSummary | undefined>;
  /** Whether a run has outputs that revise files uploaded from here (lists artifacts only). */
  hasReviewableChanges(runId: string): Promise<boolean>;
  /** A project run's text of each of `paths` (see projectRevisionTexts); undefined: no project run. */
  projectRevision(
    runId: string,
    paths: readonly string[],
    signal: AbortSignal,
  ): Promise<Map<string, string> | undefined>;
}

/** The commands' handlers; reviewLoader.ts registers them at activation and loads this file on first use. */
export interface ReviewHandlers extends Omit<RunReview, 'dispose'> {
  /** Stops the checks still running (the extension is going away). */
  dispose(): void;
  reviewCommand(arg?: unknown): Promise<ReviewSummary | undefined>;
  applyCommand(arg?: unknown): Promise<ApplyOutcome>;
  chooseCommand(arg?: unknown): Promise<ApplyOutcome | undefined>;
  savePatchCommand(arg?: unknown): Promise<vscode.Uri | undefined>;
  /** Changes Since Revision N of a follow-up run. */
  sinceCommand(arg?: unknown): Promise<SinceSummary | undefined>;
  /** Mark File as Reviewed (a review URI: that file; none: a quick pick of the review's files). */
  markReviewedCommand(arg?: unknown): Promise<{ relativePath: string; reviewed: boolean }[] | undefined>;
  /** "Apply to a New Branch..." of a project run (src/projects/applyBranchCommand.ts; here so jsdiff stays lazy). */
  applyToNewBranchCommand(arg?: unknown): Promise<{ branch: string; written: string[] } | undefined>;
}

export function createReview(deps: CommandDeps, content: ReviewContent, state: MarksMemento): ReviewHandlers {
  const sessions = new Map<string, ReviewSession>();
  const marks = new ReviewedMarks(state);
  const isReviewed = (session: ReviewSession, file: ReviewedFile) =>
    marks.isReviewed(session.revisions, file.change.origin.uri, file.agentHash);
  const lifetime = new AbortController();
  let latest: string | undefined;
  /** Runs whose review was shown in this window: only their changes may be applied by a caller. */
  const shown = new Set<string>();
  const sources = (): SessionSources => ({
    client: deps.service.client,
    originOf: (id) => deps.localFiles.origin(id),
    taskFiles: (taskId) => deps.localFiles.taskFiles(taskId),
    content,
  });
  // The upload record may have been written by another window since: read it again (a failure keeps what is known).
  const refreshUploads = () =>
    deps.localFiles
      .refresh()
      .catch((err: unknown) => deps.log.warn(`Review: the record of uploads could not be read: ${describeError(err)}`));

  const load = async (runId: string): Promise<ReviewSession | undefined> => {
    if (!(await deps.ensureSignedIn())) {
      return undefined;
    }
    await refreshUploads();
    const session = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Fetching what the run produced'),
        cancellable: true,
      },
      async (progress, token) => {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        try {
          return await loadSession(sources(), runId, controller.signal, (message) =>
            progress.report({ message: inert(message) }),
          );
        } finally {
          sub.dispose();
        }
      },
    );
    sessions.set(runId, session);
    latest = runId;
    void vscode.commands.executeCommand('setContext', REVIEW_OPEN_CONTEXT, true);
    void vscode.commands.executeCommand('setContext', REVIEW_IS_REVISION_CONTEXT, session.revisions.length > 1);
    return session;
  };

  const sessionFor = async (runId: string | undefined): Promise<ReviewSession> => {
    const id = runId ?? latest;
    if (!id) {
      throw new UserFacingError(
        vscode.l10n.t("Review a run's changes first (Review Changes on a run in the Tasks view)."),
      );
    }
    const session = sessions.get(id) ?? (await load(id));
    if (!session) {
      throw new UserFacingError(
        vscode.l10n.t("Review a run's changes first (Review Changes on a run in the Tasks view)."),
      );
    }
    return session;
  };

  const reviewRun = async (runId: string): Promise<ReviewSummary | undefined> => {
    const session = await load(runId);
    if (!session) {
      return undefined;
    }
    await show(session);
    return summarize(session, (f) => isReviewed(session, f));
  };

  const show = async (session: ReviewSession): Promise<void> => {
    shown.add(session.runId);
    const ready = session.files.filter((f) => f.review.status === 'ready');
    const blocked = session.files.filter(
      (f) => f.place.kind !== 'here' || (f.review.status !== 'ready' && f.review.status !== 'identical'),
    );
    if (session.outputsCut) {
      deps.log.info(
        `Review ${session.runId}: the run lists more outputs; the first ${session.artifacts.length} were read.`,
      );
      void notify.warn(
        vscode.l10n.t(
          'This run lists more outputs than a review reads; only the first {0} were looked at.',
          session.artifacts.length,
        ),
      );
    }
    if (ready.length > 0) {
      await openDiffs(session, ready, (f) => isReviewed(session, f));
    }
    reportUnreviewable(session, blocked);
    if (ready.length === 0) {
      const any = session.files.length > 0;
      void notify.info(
        any
          ? vscode.l10n.t('The workspace files already have every change this run made.')
          : vscode.l10n.t('This run did not produce a new version of any file uploaded from this machine.'),
      );
      return;
    }
    const changed = ready.filter((f) => f.review.status === 'ready' && f.review.changedSinceUpload);
    const conflicts = ready.reduce((n, f) => n + (f.review.status === 'ready' ? f.review.conflicts.length : 0), 0);
    const applyAll = vscode.l10n.t('Apply All');
    const choose = vscode.l10n.t('Choose Changes...');
    const savePatch = vscode.l10n.t('Save as Patch...');
    const showConflicts = vscode.l10n.t('Show Conflicts');
    const previousRevision = session.revisions.length - 1;
    const since = previousRevision > 0 ? vscode.l10n.t('Changes Since Revision {0}', previousRevision) : undefined;
    let message =
      ready.length === 1
        ? vscode.l10n.t('The run changed {0}.', ready[0].change.origin.relativePath)
        : vscode.l10n.t('The run changed {0} files.', ready.length);
    for (const sentence of changedSinceSentences(
      changed.map((f) => f.change.origin),
      (message, ...args) => vscode.l10n.t(message, ...args),
    )) {
      message += ' ' + sentence;
    }
    if (conflicts > 0) {
      message +=
        ' ' +
        (isSingular(conflicts)
          ? vscode.l10n.t('1 conflicting change is left as your version.')
          : vscode.l10n.t('{0} conflicting changes are left as your version.', conflicts));
    }
    const marked = ready.filter((f) => isReviewed(session, f)).length;
    if (marked > 0) {
      message += ' ' + vscode.l10n.t('{0} of them marked as reviewed.', marked);
    }
    // Where the base moved, the agent can redo its changes on today's files instead of the merge.
    const catchUp = changed.length > 0 ? vscode.l10n.t('Ask the Agent to Update...') : undefined;
    const actions = [
      ...(since ? [since] : []),
      applyAll,
      choose,
      ...(conflicts > 0 ? [showConflicts] : []),
      savePatch,
      ...(catchUp ? [catchUp] : []),
    ];
    void notify.info(message, ...actions).then((choice) => {
      const args = { runId: session.runId };
      if (catchUp !== undefined && choice === catchUp) {
        void vscode.commands.executeCommand(Commands.askAgentToCatchUp, args);
      }
      if (choice === applyAll) {
        void vscode.commands.executeCommand(Commands.applyReviewChanges, args);
      }
      if (choice === choose) {
        void vscode.commands.executeCommand(Commands.chooseReviewChanges, args);
      }
      if (choice === savePatch) {
        void vscode.commands.executeCommand(Commands.saveReviewPatch, args);
      }
      if (choice === showConflicts) {
        void openConflicts(ready);
      }
      if (since !== undefined && choice === since) {
        void vscode.commands.executeCommand(Commands.reviewChangesSinceRevision, args);
      }
    });
  };

  const applyAndReport = async (session: ReviewSession, picks: ApplyPick[]): Promise<ApplyOutcome> => {
    const outcome = await applyPicks(sources(), picks);
    for (const s of outcome.skipped) {
      deps.log.info(`Review ${session.runId}: ${s.relativePath} skipped: ${s.message}`);
    }
    if (outcome.skipped.length > 0) {
      void notify.warn(outcome.skipped.map((s) => s.message).join(' '));
    }
    if (outcome.files.length > 0 && !outcome.applied) {
      void notify.error(vscode.l10n.t('The changes could not be applied (an editor refused the edit).'));
    } else if (outcome.applied) {
      const hunks = outcome.files.reduce((n, f) => n + f.hunks, 0);
      const conflicts = outcome.files.reduce((n, f) => n + f.conflicts, 0);
      let message =
        outcome.files.length === 1
          ? isSingular(hunks)
            ? vscode.l10n.t('Applied 1 change to {0}.', outcome.files[0].relativePath)
            : vscode.l10n.t('Applied {0} changes to {1}.', hunks, outcome.files[0].relativePath)
          : vscode.l10n.t('Applied {0} changes to {1} files.', hunks, outcome.files.length);
      if (conflicts > 0) {
        message +=
          ' ' +
          (isSingular(conflicts)
            ? vscode.l10n.t('1 conflicting change was kept as your version; review it before saving.')
            : vscode.l10n.t(
                '{0} conflicting changes were kept as your version; review them before saving.',
                conflicts,
              ));
      }
      deps.log.info(`Review ${session.runId}: ${message}`);
      void (conflicts > 0 ? notify.warn(message) : notify.info(message));
    }
    return outcome;
  };

  const filesOf = (session: ReviewSession, fileId: string | undefined): ReviewedFile[] => {
    const files = fileId ? session.files.filter((f) => f.change.fileId === fileId) : session.files;
    if (fileId && files.length === 0) {
      throw new UserFacingError(vscode.l10n.t('That file is not part of this review.'));
    }
    return files.filter((f) => f.place.kind === 'here');
  };

  const applyCommand = async (arg?: unknown): Promise<ApplyOutcome> => {
    const args = applyArgsOf(arg);
    // Applying writes workspace files: outside the test run (trusted automation, as Sign In), a
    // run whose changes were never shown in this window is reviewed instead, and nothing is written.
    const asked = args.runId ?? latest;
    if (!deps.trustedAutomation && asked !== undefined && !shown.has(asked)) {
      deps.log.warn(`Review ${asked}: Apply was asked for changes never shown here; opening the review instead.`);
      await reviewRun(asked);
      return { applied: false, files: [], skipped: [] };
    }
    const session = await sessionFor(args.runId);
    const files = filesOf(session, args.fileId);
    const picks = files.map((file) => ({ file, hunkIds: args.hunkIds }));
    return applyAndReport(session, picks);
  };

  const chooseCommand = async (arg?: unknown): Promise<ApplyOutcome | undefined> => {
    const args = applyArgsOf(arg);
    const session = await sessionFor(args.runId);
    const files = filesOf(session, args.fileId);
    type Item = vscode.QuickPickItem & { file?: ReviewedFile; hunkId?: string };
    const items: Item[] = [];
    for (const file of files) {
      const review = await refreshFile(sources(), file);
      if (review.status !== 'ready' || review.hunks.length === 0) {
        continue;
      }
      items.push({ label: inert(file.change.origin.relativePath), kind: vscode.QuickPickItemKind.Separator });
      for (const hunk of review.hunks) {
        const d = describeHunk(hunk);
        items.push({
          label: `${inert(file.change.origin.relativePath)}: ${d.lines}`,
          description: d.counts,
          detail: inert(d.preview),
          file,
          hunkId: hunk.id,
        });
      }
    }
    if (items.length === 0) {
      void notify.info(vscode.l10n.t('There are no changes left to apply.'));
      return undefined;
    }
    const chosen = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      title: vscode.l10n.t('Apply Chosen Changes'),
      placeHolder: vscode.l10n.t('Choose the changes to write to the workspace files'),
      matchOnDetail: true,
    });
    if (!chosen || chosen.length === 0) {
      return undefined;
    }
    const byFile = new Map<ReviewedFile, string[]>();
    for (const item of chosen) {
      if (!item.file || !item.hunkId) {
        continue;
      }
      byFile.set(item.file, [...(byFile.get(item.file) ?? []), item.hunkId]);
    }
    return applyAndReport(
      session,
      [...byFile].map(([file, hunkIds]) => ({ file, hunkIds })),
    );
  };

  const savePatchCommand = async (arg?: unknown): Promise<vscode.Uri | undefined> => {
    const args = applyArgsOf(arg);
    const session = await sessionFor(args.runId);
    const entries = [];
    for (const file of session.files.filter((f) => f.place.kind === 'here')) {
      const review = await refreshFile(sources(), file);
      if (review.status !== 'ready') {
        continue;
      }
      const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes).replace(/^\ufeff/, '');
      entries.push({
        relativePath: file.change.origin.relativePath,
        before: text(review.workspaceBytes),
        after: text(review.proposedBytes),
      });
    }
    const patch = formatChangeSetPatch(entries);
    if (patch === '') {
      void notify.info(vscode.l10n.t('There are no changes left to save.'));
      return undefined;
    }
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const given =
      deps.trustedAutomation && typeof (arg as { target?: unknown } | undefined)?.target === 'string'
        ? vscode.Uri.file((arg as { target: string }).target)
        : undefined;
    const target =
      given ??
      (await vscode.window.showSaveDialog({
        defaultUri: folder ? vscode.Uri.joinPath(folder, `${safeStem(session.runId)}.patch`) : undefined,
        filters: { [vscode.l10n.t('Patch')]: ['patch', 'diff'] },
        title: vscode.l10n.t('Save Changes as Patch'),
        saveLabel: vscode.l10n.t('Save'),
      }));
    if (!target) {
      return undefined;
    }
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(patch));
    void notify.info(vscode.l10n.t('Saved the changes as {0}.', target.path.split('/').pop() ?? target.toString()));
    return target;
  };

  const reviewCommand = async (arg?: unknown): Promise<ReviewSummary | undefined> => {
    const runId = resolveRun(arg, { selection: deps.selection('tasks'), activePanel: deps.activeRunPanel })?.runId;
    if (!runId) {
      throw new UserFacingError(vscode.l10n.t('Choose a run in the Tasks view first.'));
    }
    return reviewRun(runId);
  };

  const hasReviewableChanges = async (runId: string): Promise<boolean> => {
    await refreshUploads();
    return hasReviewableOutputs(
      deps.service.client,
      runId,
      (id) => deps.localFiles.origin(id),
      (taskId) => deps.localFiles.taskFiles(taskId),
      lifetime.signal,
    );
  };

  const openArtifactOf = async (session: ReviewSession, save: boolean, only?: readonly string[]): Promise<void> => {
    const candidates = session.artifacts.filter((a) => !only || only.includes(a.id));
    const pick =
      candidates.length === 1
        ? candidates[0]
        : (
            await vscode.window.showQuickPick(
              candidates.map((a) => ({
                label: inert(a.name ?? a.id),
                description: inert(a.content_type ?? ''),
                artifact: a,
              })),
              { title: save ? vscode.l10n.t('Save Artifact As') : vscode.l10n.t('Open Artifact') },
            )
          )?.artifact;
    if (pick) {
      await vscode.commands.executeCommand(save ? Commands.saveArtifact : Commands.openArtifact, { artifact: pick });
    }
  };

  const reportUnreviewable = (session: ReviewSession, blocked: ReviewedFile[]): void => {
    const lines: string[] = [];
    const ids: string[] = [];
    for (const file of blocked) {
      ids.push(file.change.source.artifactId);
      const name = file.change.origin.relativePath;
      if (file.place.kind === 'otherWindow') {
        lines.push(vscode.l10n.t('{0} belongs to a workspace folder open in another window.', name));
      } else if (file.place.kind === 'outside') {
        lines.push(vscode.l10n.t('{0} was uploaded from outside the workspace.', name));
      } else if (file.review.status !== 'ready' && file.review.status !== 'identical') {
        lines.push(file.review.message);
      }
    }
    for (const problem of session.problems) {
      if (problem.code === 'duplicate') {
        continue;
      }
      ids.push(problem.artifactId);
      lines.push(problem.message);
    }
    if (lines.length === 0) {
      return;
    }
    for (const line of lines) {
      deps.log.info(`Review ${session.runId}: ${line}`);
    }
    const open = vscode.l10n.t('Open Output...');
    const save = vscode.l10n.t('Save Output As...');
    void notify
      .warn(
        `${vscode.l10n.t('Some outputs cannot be reviewed here; open or save them instead.')} ${lines.join(' ')}`,
        open,
        save,
      )
      .then((choice) => {
        if (choice === open || choice === save) {
          void deps.guard('Open artifact', () => openArtifactOf(session, choice === save, ids))();
        }
      });
  };

  const sinceCommand = async (arg?: unknown): Promise<SinceSummary | undefined> => {
    const session = await sessionFor(applyArgsOf(arg).runId);
    shown.add(session.runId);
    return vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Comparing with the previous revision'),
        cancellable: true,
      },
      async (progress, token) => {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        try {
          return await openChangesSince(sources(), session, marks, controller.signal, (message) =>
            progress.report({ message: inert(message) }),
          );
        } finally {
          sub.dispose();
        }
      },
    );
  };

  const markReviewedCommand = async (arg?: unknown) => {
    const args = applyArgsOf(arg);
    const session = await sessionFor(args.runId);
    const reviewed =
      typeof arg === 'object' && arg !== null && typeof (arg as { reviewed?: unknown }).reviewed === 'boolean'
        ? (arg as { reviewed: boolean }).reviewed
        : undefined;
    return markFilesReviewed(session, marks, { fileId: args.fileId, reviewed });
  };

  const dispose = () => lifetime.abort();

  const applyToNewBranchCommand = (arg?: unknown) => applyToNewBranch(deps, arg);
  const projectRevision = (runId: string, paths: readonly string[], signal: AbortSignal) =>
    projectRevisionTexts(deps.service.client, runId, paths, signal);

  return {
    reviewRun,
    hasReviewableChanges,
    projectRevision,
    reviewCommand,
    applyCommand,
    chooseCommand,
    savePatchCommand,
    sinceCommand,
    markReviewedCommand,
    applyToNewBranchCommand,
    dispose,
  };
}

function summarize(session: ReviewSession, reviewed: (file: ReviewedFile) => boolean): ReviewSummary {
  return {
    runId: session.runId,
    revision: session.revisions.length,
    files: session.files.map((f) => {
      const base = {
        fileId: f.change.fileId,
        uri: f.uri.toString(),
        relativePath: f.change.origin.relativePath,
        reviewed: reviewed(f),
      };
      if (f.place.kind !== 'here') {
        return { ...base, status: f.place.kind };
      }
      const r = f.review;
      if (r.status === 'ready') {
        return {
          ...base,
          status: r.status,
          changedSinceUpload: r.changedSinceUpload,
          hunks: r.hunks
            .map((h) => ({ id: h.id, ...describeHunk(h) }))
            .map(({ id, lines, counts }) => ({ id, lines, counts })),
          conflicts: r.conflicts.length,
        };
      }
      return { ...base, status: r.status, message: 'message' in r ? r.message : undefined };
    }),
    problems: session.problems.map((p) => ({ code: p.code, artifactId: p.artifactId, message: p.message })),
    outputsRead: session.outputsCut ? session.artifacts.length : undefined,
  };
}

function applyArgsOf(arg: unknown): ApplyArgs {
  if (arg instanceof vscode.Uri) {
    const parsed = parseReviewUri(arg);
    return parsed ? { runId: parsed.runId, fileId: parsed.fileId } : {};
  }
  if (typeof arg !== 'object' || arg === null) {
    return {};
  }
  const o = arg as Record<string, unknown>;
  return {
    runId: typeof o.runId === 'string' ? o.runId : undefined,
    fileId: typeof o.fileId === 'string' ? o.fileId : undefined,
    hunkIds: Array.isArray(o.hunkIds) ? o.hunkIds.filter((x): x is string => typeof x === 'string') : undefined,
  };
}

function safeStem(runId: string): string {
  return `changes-${runId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60)}`;
}
