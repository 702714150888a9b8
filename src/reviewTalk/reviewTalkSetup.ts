// Talking back to the agent: the comment controller on Review Changes' documents, its drafts in
// the workspace state, and "Send N Comments to the Agent...". Registered at activation (a thread
// restored after a reload needs its controller before any command); "Ask the Agent to Update
// Its Changes..." (catchUp.ts).
import * as vscode from 'vscode';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { Commands } from '../common/ids';
import type { ReviewContent } from '../reviewUi/reviewContent';
import type { RunStore } from '../runs/runStore';
import { BoundFiles } from './boundFiles';
import { type ClonePositions, registerCatchUp } from './catchUp';
import { CommentDrafts, type StateMemento } from './commentDrafts';
import { CommentFates, type FateDeps } from './commentFates';
import { CommentThreads, DraftComment } from './commentThreads';
import { registerSendComments, SendPreviews } from './sendComments';

export interface ReviewTalk extends vscode.Disposable {
  readonly drafts: CommentDrafts;
  readonly threads: CommentThreads;
  readonly fates: CommentFates;
  readonly bound: BoundFiles;
  /** What the Tasks view shows under a run: its revision and its comments to send. */
  readonly runNotes: RunNotes;
}

/** The Tasks view's RunNotesSource (src/views/tasksProvider.ts), by shape: reviewTalk does not import views. */
export interface RunNotes {
  draftsOn(runId: string): number;
  followUpOf(runId: string): string | undefined;
  readonly onDidChange: vscode.Event<void>;
}

export function setUpReviewTalk(
  deps: CommandDeps,
  runs: RunStore,
  state: StateMemento,
  review: { readonly content: ReviewContent; projectRevision: FateDeps['projectRevision'] },
  clonePositions: ClonePositions,
): ReviewTalk {
  const content = review.content;
  const previews = new SendPreviews();
  const drafts = new CommentDrafts(state);
  const bound = new BoundFiles(state);
  const threads = new CommentThreads(drafts, content, bound);
  const fates = new CommentFates(
    { client: () => deps.service.client, log: deps.log, projectRevision: review.projectRevision },
    drafts,
    threads,
    runs,
  );
  const asComment = (arg: unknown): DraftComment | undefined => (arg instanceof DraftComment ? arg : undefined);
  const disposables: vscode.Disposable[] = [
    content.onDidBindWorkspaceFiles((files) => {
      bound
        .bind(
          files.map((f) => ({
            uri: f.uri.toString(),
            runId: f.runId,
            fileId: f.fileId,
            path: f.commentPath,
            side: f.side,
          })),
        )
        .catch((err: unknown) =>
          deps.log.warn(`Review comments: the files a run changed could not be kept: ${String(err)}`),
        );
    }),
    fates,
    threads,
    vscode.commands.registerCommand(
      Commands.resolveReviewComment,
      deps.guard('Resolve a comment to the agent', (arg: unknown) => threads.setResolved(arg, true)),
    ),
    vscode.commands.registerCommand(
      Commands.reopenReviewComment,
      deps.guard('Reopen a comment to the agent', (arg: unknown) => threads.setResolved(arg, false)),
    ),
    vscode.commands.registerCommand(
      Commands.commentAgain,
      deps.guard('Send a comment to the agent again', (arg: unknown) => threads.again(arg)),
    ),
    vscode.commands.registerCommand(
      Commands.addReviewComment,
      deps.guard('Add a comment to the agent', (reply: vscode.CommentReply) => threads.add(reply)),
    ),
    vscode.commands.registerCommand(Commands.editReviewComment, (arg: unknown) => {
      const comment = asComment(arg);
      if (comment) {
        threads.edit(comment);
      }
    }),
    vscode.commands.registerCommand(
      Commands.saveReviewComment,
      deps.guard('Save a comment to the agent', async (arg: unknown) => {
        const comment = asComment(arg);
        if (comment) {
          await threads.saveEdit(comment);
        }
      }),
    ),
    vscode.commands.registerCommand(Commands.cancelReviewCommentEdit, (arg: unknown) => {
      const comment = asComment(arg);
      if (comment) {
        threads.cancelEdit(comment);
      }
    }),
    vscode.commands.registerCommand(
      Commands.deleteReviewComment,
      deps.guard('Delete a comment to the agent', async (arg: unknown) => {
        if (arg instanceof DraftComment || (arg !== null && typeof arg === 'object' && 'uri' in arg)) {
          await threads.delete(arg as DraftComment | vscode.CommentThread);
        }
      }),
    ),
    ...registerSendComments(deps, runs, drafts, threads, fates, previews),
    ...registerCatchUp(deps, runs, previews, clonePositions),
  ];
  return {
    drafts,
    threads,
    fates,
    bound,
    runNotes: {
      draftsOn: (runId) => drafts.draftsOf(runId).length,
      followUpOf: (runId) => drafts.followUpOf(runId),
      onDidChange: threads.onDidChange,
    },
    dispose: () => {
      for (const d of disposables) {
        d.dispose();
      }
    },
  };
}
