// Talking back to the agent inside the extension host, with the real comment controller: comments
// on two files of a reviewed run are added, edited and deleted, kept in the workspace state, and
// sent as one follow-up that forks the finished run after its last step; the runtime's agent
// rewrites exactly the commented lines, and the threads say they were sent.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import type { TaskRecord } from '../../src/api/types';
import { decodeText } from '../../src/review';
import type { StoredComment } from '../../src/reviewTalk/commentDrafts';
import type { SendResult } from '../../src/reviewTalk/sendComments';
import type { ReviewSummary } from '../../src/reviewUi/reviewCommands';
import { reviewUri } from '../../src/reviewUi/reviewContent';
import { isTerminalStatus } from '../../src/runEvents/runStatus';
import { REVISED_MARK } from '../runtime/reviewComments';
import { directClient, extensionApi, signInForTests, waitFor } from './support';

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join('\n') + '\n';

async function revisionOf(client: ApiClient, runId: string, fileId: string): Promise<string> {
  for await (const artifact of client.iterateRunArtifacts(runId)) {
    if (artifact.source_file_id === fileId) {
      const decoded = decodeText((await client.readFileContent(artifact.file_id ?? artifact.id)).content);
      assert.ok(decoded.ok);
      return decoded.value.text;
    }
  }
  throw new Error(`the run made no revision of ${fileId}`);
}

describe('review comments to the agent', () => {
  let client: ApiClient;
  let folder: vscode.Uri;
  before(async () => {
    await extensionApi();
    await signInForTests();
    client = directClient();
    const first = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(first, 'no workspace folder');
    folder = first;
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await client.dispose();
  });

  it('adds, edits and deletes comments on two files, then sends them as one follow-up the agent acts on', async () => {
    const api = await extensionApi();
    const talk = api.reviewTalk;
    const a = vscode.Uri.joinPath(folder, 'talk-a.txt');
    const b = vscode.Uri.joinPath(folder, 'talk-b.md');
    await vscode.workspace.fs.writeFile(a, Buffer.from(lines(12, 'alpha')));
    await vscode.workspace.fs.writeFile(b, Buffer.from(lines(12, 'beta')));
    const task = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.uploadAndCreateTask', a, [a, b], {
      objective: `Talk back ${Date.now()}`,
    });
    const runId = task.run_id!;
    await waitFor('the run to end', async () => isTerminalStatus((await client.getRun(runId)).status), 25_000);
    const summary = await vscode.commands.executeCommand<ReviewSummary>('agentRuntime.reviewChanges', { runId });
    assert.ok(summary);
    const fileA = summary.files.find((f) => f.relativePath === 'talk-a.txt');
    const fileB = summary.files.find((f) => f.relativePath === 'talk-b.md');
    assert.ok(fileA && fileB, JSON.stringify(summary.files));

    /** What a person does: select lines of the agent's version, type, press Add Comment. */
    const comment = async (
      fileId: string,
      relativePath: string,
      line: number,
      text: string,
    ): Promise<StoredComment> => {
      const uri = reviewUri(runId, 'agent', fileId, relativePath);
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
    assert.strictEqual(talk.threads.threadOf(onA.id)?.contextValue, 'sent');

    await waitFor(
      'the follow-up to end',
      async () => isTerminalStatus((await client.getRun(sent.followUpRunId)).status),
      25_000,
    );
    const nextA = (await revisionOf(client, sent.followUpRunId, fileA.fileId)).split('\n');
    assert.strictEqual(nextA[2], `${revisionA.split('\n')[2]}${REVISED_MARK}`);
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
