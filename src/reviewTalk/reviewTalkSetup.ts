// Talking back to the agent: the comment controller on Review Changes' documents, its drafts in
// the workspace state, and "Send N Comments to the Agent...". Registered at activation (a thread
// restored after a reload needs its controller before any command).
import * as vscode from 'vscode';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { Commands } from '../common/ids';
import type { ReviewContent } from '../reviewUi/reviewContent';
import type { RunStore } from '../runs/runStore';
import { CommentDrafts, type StateMemento } from './commentDrafts';
import { CommentThreads, DraftComment } from './commentThreads';
import { registerSendComments } from './sendComments';

export interface ReviewTalk extends vscode.Disposable {
  readonly drafts: CommentDrafts;
  readonly threads: CommentThreads;
}

export function setUpReviewTalk(
  deps: CommandDeps,
  runs: RunStore,
  state: StateMemento,
  content: ReviewContent,
): ReviewTalk {
  const drafts = new CommentDrafts(state);
  const threads = new CommentThreads(drafts, content);
  const asComment = (arg: unknown): DraftComment | undefined => (arg instanceof DraftComment ? arg : undefined);
  const disposables: vscode.Disposable[] = [
    threads,
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
    ...registerSendComments(deps, runs, drafts, threads),
  ];
  return {
    drafts,
    threads,
    dispose: () => {
      for (const d of disposables) {
        d.dispose();
      }
    },
  };
}
