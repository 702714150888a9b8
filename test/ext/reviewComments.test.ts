// Talking back to the agent inside the extension host, with the real comment controller: comments
// on two files of a reviewed run are added, edited and deleted, kept in the workspace state, and
// sent as one follow-up that forks the finished run after its last step; the runtime's agent
// rewrites exactly the commented lines, and the threads say they were sent. Then comments on
// workspace files an apply wrote: counted on the run's Tasks row, sent, and each thread says what
// became of it (the agent's verdict and note, escaped), the follow-up shown as revision 2.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { StoredComment } from '../../src/reviewTalk/commentDrafts';
import type { SendResult } from '../../src/reviewTalk/sendComments';
import type { ReviewSummary } from '../../src/reviewUi/reviewCommands';
import { reviewUri } from '../../src/reviewUi/reviewContent';
import type { RunNode, TaskNode, TreeNode } from '../../src/views/nodes';
import { REVISED_MARK } from '../runtime/reviewComments';
import { lines, revisionOf, sendAndJudge, untilRunEnds, uploadAndRun, workspaceFolder } from './reviewKit';
import { extensionApi, suiteWithService, waitFor } from './support';

describe('review comments to the agent', () => {
  const client = suiteWithService();
  let folder: vscode.Uri;
  before(() => {
    folder = workspaceFolder();
  });

  it('adds, edits and deletes comments on two files, then sends them as one follow-up the agent acts on', async () => {
    const api = await extensionApi();
    const talk = api.reviewTalk;
    const a = vscode.Uri.joinPath(folder, 'talk-a.txt');
    const b = vscode.Uri.joinPath(folder, 'talk-b.md');
    await vscode.workspace.fs.writeFile(a, Buffer.from(lines(12, 'alpha')));
    await vscode.workspace.fs.writeFile(b, Buffer.from(lines(12, 'beta')));
    const { runId } = await uploadAndRun([a, b], `Talk back ${Date.now()}`, client);
    const summary = await vscode.commands.executeCommand<ReviewSummary>('agentRuntime.reviewChanges', { runId });
    assert.ok(summary);
    const fileA = summary.files.find((f) => f.relativePath === 'talk-a.txt');
    const fileB = summary.files.find((f) => f.relativePath === 'talk-b.md');
    assert.ok(fileA && fileB, JSON.stringify(summary.files));
    // The multi-file diff compares the workspace file with the agent's version at the same path:
    // VS Code shows a pair whose paths differ as a rename ("R", the other name struck through).
    const agentDoc = await waitFor("the multi-file diff to open talk-a.txt's agent version", () =>
      vscode.workspace.textDocuments
        .map((d) => d.uri)
        .find(
          (u) =>
            u.scheme === 'agent-runtime-review' && u.query.includes(fileA.fileId) && u.query.includes('kind=agent'),
        ),
    );
    assert.strictEqual(agentDoc.path, vscode.Uri.parse(fileA.uri).path);

    /** What a person does: select lines of the agent's version, type, press Add Comment. */
    const comment = async (
      fileId: string,
      relativePath: string,
      line: number,
      text: string,
    ): Promise<StoredComment> => {
      const uri = reviewUri(runId, 'agent', fileId, {
        uri: summary.files.find((f) => f.fileId === fileId)?.uri,
        relativePath,
      });
      const thread = talk.threads.controller.createCommentThread(uri, new vscode.Range(line - 1, 0, line - 1, 0), []);
      const stored = await vscode.commands.executeCommand<StoredComment>('agentRuntime.addReviewComment', {
        thread,
        text,
      });
      assert.ok(stored, 'Add Comment made no draft');
      return stored;
    };
    const revisionA = await revisionOf(client, runId, fileA.fileId);
    const onA = await comment(fileA.fileId, 'talk-a.txt', 3, 'Say this more plainly.');
    assert.strictEqual(onA.path, 'talk-a.txt');
    assert.strictEqual(onA.quote, revisionA.split('\n')[2]);
    const onB = await comment(fileB.fileId, 'talk-b.md', 4, 'first wording');
    const extra = await comment(fileB.fileId, 'talk-b.md', 6, 'never mind');
    assert.deepStrictEqual(
      talk.drafts.draftsOf(runId).map((c) => c.id),
      [onA.id, onB.id, extra.id],
    );

    // Edit: the comment's body changes in place and in the store.
    const shown = talk.threads.threadOf(onB.id)?.comments[0];
    assert.ok(shown);
    await vscode.commands.executeCommand('agentRuntime.editReviewComment', shown);
    assert.strictEqual(shown.mode, vscode.CommentMode.Editing);
    (shown as { body: string }).body = 'Number this line.';
    await vscode.commands.executeCommand('agentRuntime.saveReviewComment', shown);
    assert.strictEqual(talk.drafts.get(onB.id)?.body, 'Number this line.');
    // Delete: the thread and the draft go.
    await vscode.commands.executeCommand(
      'agentRuntime.deleteReviewComment',
      talk.threads.threadOf(extra.id)?.comments[0],
    );
    assert.strictEqual(talk.drafts.get(extra.id), undefined);
    assert.strictEqual(talk.threads.threadOf(extra.id), undefined);

    const sent = await vscode.commands.executeCommand<SendResult>('agentRuntime.sendReviewComments', {
      runId,
      instructions: 'Keep the tone.',
      confirm: false,
    });
    assert.ok(sent, 'nothing was sent');
    assert.strictEqual(sent.way, 'fork');
    assert.strictEqual(sent.comments, 2);
    const followUp = await client.getRun(sent.followUpRunId);
    assert.strictEqual(followUp.follow_up_of, runId);
    assert.strictEqual(talk.drafts.draftsOf(runId).length, 0, 'no drafts left');
    assert.strictEqual(talk.drafts.get(onA.id)?.state, 'sent');
    // No longer a draft: "sent", or already "judged" when the follow-up ended before this line
    // (the reference runtime runs it at once; the fate is read as soon as it ends).
    assert.match(String(talk.threads.threadOf(onA.id)?.contextValue), /^(sent|judged)$/);

    await untilRunEnds(client, sent.followUpRunId, 'the follow-up', 25_000);
    const nextA = (await revisionOf(client, sent.followUpRunId, fileA.fileId)).split('\n');
    assert.strictEqual(nextA[2], `${revisionA.split('\n')[2]}${REVISED_MARK}`);
  });

  it('comments on workspace files after an apply, counts them on the run row, and shows each fate', async () => {
    const api = await extensionApi();
    const talk = api.reviewTalk;
    const c = vscode.Uri.joinPath(folder, 'fate-c.txt');
    const d = vscode.Uri.joinPath(folder, 'fate-d.txt');
    await vscode.workspace.fs.writeFile(c, Buffer.from(lines(10, 'gamma')));
    await vscode.workspace.fs.writeFile(d, Buffer.from(lines(10, 'delta')));
    const objective = `Fates ${Date.now()}`;
    const { runId } = await uploadAndRun([c, d], objective, client);
    const summary = await vscode.commands.executeCommand<ReviewSummary>('agentRuntime.reviewChanges', { runId });
    assert.ok(summary?.files.some((f) => f.relativePath === 'fate-c.txt'));
    await vscode.commands.executeCommand('agentRuntime.applyReviewChanges', { runId });
    await waitFor('the applied files to take comments', () => talk.bound.get(d.toString()) !== undefined);

    // The gutter's + on a workspace file the run changed: the controller offers its lines.
    const doc = await vscode.workspace.openTextDocument(c);
    const ranges = await talk.threads.controller.commentingRangeProvider?.provideCommentingRanges(
      doc,
      new vscode.CancellationTokenSource().token,
    );
    assert.ok(Array.isArray(ranges) && ranges.length === 1, 'no commenting range on the applied file');
    const comment = async (uri: vscode.Uri, line: number, text: string): Promise<StoredComment> => {
      const thread = talk.threads.controller.createCommentThread(uri, new vscode.Range(line - 1, 0, line - 1, 0), []);
      const stored = await vscode.commands.executeCommand<StoredComment>('agentRuntime.addReviewComment', {
        thread,
        text,
      });
      assert.ok(stored, 'Add Comment made no draft');
      return stored;
    };
    const onC = await comment(c, 3, 'Say this more plainly.');
    assert.deepStrictEqual([onC.runId, onC.path, onC.side], [runId, 'fate-c.txt', 'agent']);
    assert.strictEqual(onC.quote, doc.lineAt(2).text);
    const onD = await comment(d, 2, 'Leave it as it is, this line is right.');

    // The run's row in the Tasks view counts them and offers Send.
    const tasks = api.sidebar.tasks;
    const rowOf = (id: string) =>
      waitFor(`the row of ${id}`, async () => {
        tasks.refresh();
        const taskRow = (await tasks.getChildren()).find(
          (n: TreeNode) => n.contextValue === 'task' && (n as TaskNode).task.objective === objective,
        );
        const rows = taskRow ? await tasks.getChildren(taskRow) : [];
        return rows.find((n: TreeNode) => (n as RunNode).runId === id) as RunNode | undefined;
      });
    const row = await rowOf(runId);
    await waitFor('the count on the run row', () => String(row.description).includes('2 comments to send'));
    assert.match(String(row.contextValue), / comments$/);

    const sent = await sendAndJudge(talk, runId, [onC, onD], 40_000);
    assert.deepStrictEqual(talk.drafts.get(onC.id)?.fate, {
      fate: 'addressed',
      by: 'agent',
      note: 'Rewrote line 3 of fate-c.txt.',
    });
    assert.deepStrictEqual(talk.drafts.get(onD.id)?.fate, {
      fate: 'declined',
      note: 'Left as it is, as the comment asked.',
    });
    const declined = talk.threads.threadOf(onD.id);
    assert.ok(declined);
    assert.strictEqual(declined.label, 'Declined by the agent');
    assert.strictEqual(declined.contextValue, 'judged');
    const note = declined.comments[1]?.body;
    assert.ok(note instanceof vscode.MarkdownString, 'the note is no Markdown comment');
    assert.strictEqual(note.isTrusted, false);
    assert.strictEqual(note.supportHtml, false);
    // appendText: the server's text as text (spaces kept as &nbsp;, Markdown escaped).
    assert.strictEqual(note.value.replace(/&nbsp;/g, ' ').replace(/\\/g, ''), 'Left as it is, as the comment asked.');

    // Resolve collapses the thread and marks it resolved.
    await vscode.commands.executeCommand('agentRuntime.resolveReviewComment', declined);
    assert.strictEqual(declined.state, vscode.CommentThreadState.Resolved);
    assert.strictEqual(talk.drafts.get(onD.id)?.resolved, true);

    // The run and its follow-up are revisions 1 and 2 of one piece of work.
    const followRow = await rowOf(sent.followUpRunId);
    await waitFor('the follow-up to say its revision', () => String(followRow.description).startsWith('revision 2'));
    assert.ok(String((await rowOf(runId)).description).startsWith('revision 1'));
  });

  it('refuses to send when a run has no comments, saying where to add them', async () => {
    const api = await extensionApi();
    assert.strictEqual(api.reviewTalk.drafts.draftsOf('run_nocomments').length, 0);
    const result = await vscode.commands.executeCommand('agentRuntime.sendReviewComments', {
      runId: 'run_nocomments',
      confirm: false,
    });
    assert.strictEqual(result, undefined);
  });
});
