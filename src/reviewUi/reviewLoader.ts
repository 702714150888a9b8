// Review Changes' commands and its read-only documents are registered at activation, but the
// review itself (src/review with jsdiff, and reviewCommands.ts with what only it uses: review.js,
// about 30 KB, and diff.js) loads at its first use: a command, or the check when a run finishes. In the bundle,
// esbuild.js (LAZY_FILES) resolves the require below to a guard that loads dist/review.js, a
// bundle that takes every module it shares with extension.js from extension.js's `__shared`
// (one class, one singleton); under tsc it is the plain module.
import * as vscode from 'vscode';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { Commands } from '../common/ids';
import type * as ReviewCommands from './reviewCommands';
import type { ReviewHandlers, RunReview } from './reviewCommands';
import { REVIEW_SCHEME, ReviewContent } from './reviewContent';
import type { MarksMemento } from './reviewedMarks';

let loaded: typeof ReviewCommands | undefined;

function loadReviewCommands(): typeof ReviewCommands {
  // Synchronous on purpose: the file is local, and the command then runs as it did before.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./reviewCommands') as typeof ReviewCommands;
  return loaded;
}

export function registerReview(
  deps: CommandDeps,
  subscriptions: vscode.Disposable[],
  state: MarksMemento,
): RunReview & { readonly content: ReviewContent } {
  // Here, not in the lazy file: a review document restored in an editor is read before any command.
  const content = new ReviewContent();
  let handlers: ReviewHandlers | undefined;
  const review = (): ReviewHandlers => (handlers ??= loadReviewCommands().createReview(deps, content, state));
  subscriptions.push(
    content,
    vscode.workspace.registerFileSystemProvider(REVIEW_SCHEME, content, { isReadonly: true, isCaseSensitive: true }),
    vscode.commands.registerCommand(
      Commands.reviewChanges,
      deps.guard('Review changes', (arg?: unknown) => review().reviewCommand(arg)),
    ),
    vscode.commands.registerCommand(
      Commands.applyReviewChanges,
      deps.guard('Apply changes', (arg?: unknown) => review().applyCommand(arg)),
    ),
    vscode.commands.registerCommand(
      Commands.chooseReviewChanges,
      deps.guard('Apply chosen changes', (arg?: unknown) => review().chooseCommand(arg)),
    ),
    vscode.commands.registerCommand(
      Commands.saveReviewPatch,
      deps.guard('Save changes as patch', (arg?: unknown) => review().savePatchCommand(arg)),
    ),
    vscode.commands.registerCommand(
      Commands.reviewChangesSinceRevision,
      deps.guard('Changes since revision', (arg?: unknown) => review().sinceCommand(arg)),
    ),
    vscode.commands.registerCommand(
      Commands.markReviewFileReviewed,
      deps.guard('Mark file as reviewed', (arg?: unknown) => review().markReviewedCommand(arg)),
    ),
    vscode.commands.registerCommand(
      Commands.applyToNewBranch,
      deps.guard('Apply to a new branch', (arg?: unknown) => review().applyToNewBranchCommand(arg)),
    ),
  );
  return {
    content,
    // async: a broken review.js then rejects (callers catch) instead of throwing in their listener.
    reviewRun: async (runId) => review().reviewRun(runId),
    hasReviewableChanges: async (runId) => review().hasReviewableChanges(runId),
    projectRevision: async (runId, paths, signal) => review().projectRevision(runId, paths, signal),
    dispose: () => {
      handlers?.dispose();
      content.dispose();
    },
  };
}
