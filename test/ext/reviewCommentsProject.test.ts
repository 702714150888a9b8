// Talking back to the agent on a project run, inside the extension host against the reference
// runtime: comments on the agent's version of a repository file are sent as one follow-up, whose
// agent rewrites the lines of one and leaves the other's (it logs no verdict for a project run),
// and each thread says what became of it, judged from the follow-up's patch planned in the clone.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { ProjectRecord, TaskRecord } from '../../src/api/types';
import type { StoredComment } from '../../src/reviewTalk/commentDrafts';
import type { ReviewSummary } from '../../src/reviewUi/reviewCommands';
import { reviewUri } from '../../src/reviewUi/reviewContent';
import { sendAndJudge, suiteRepository, untilRunEnds } from './reviewKit';
import { admin, extensionApi, openGitRepository, suiteWithService, waitFor } from './support';

describe('review comments to the agent on a project run', () => {
  const client = suiteWithService();
  const repo = suiteRepository('talk-project', '# Talk back\n\nOne.\nTwo.\nThree.\nFour.\n');

  it('judges each comment from the follow-up’s patch: one addressed, one not changed', async function () {
    this.timeout(120_000);
    const talk = (await extensionApi()).reviewTalk;
    const repository = await openGitRepository(repo.local);
    await waitFor('the remote to be read', () =>
      repository.state.remotes.some((r) => (r.fetchUrl ?? '').includes('talk-project')),
    );
    const project = await vscode.commands.executeCommand<ProjectRecord>('agentRuntime.createProjectForRepository', {
      folder: repo.local,
      name: `talk-project-${Date.now()}`,
    });
    assert.ok(project?.id, JSON.stringify(project));
    await admin(`/projects/${project.id}/checkout`, { path: repo.service });
    const task = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.newTaskInProject', {
      folder: repo.local,
      objective: 'Polish the talk-back readme',
    });
    const runId = task.run_id as string;
    await untilRunEnds(client, runId);

    const summary = await vscode.commands.executeCommand<ReviewSummary>('agentRuntime.reviewChanges', { runId });
    const readme = summary?.files.find((f) => f.relativePath === 'README.md');
    assert.ok(readme, JSON.stringify(summary?.files));
    const agentUri = reviewUri(runId, 'agent', readme.fileId, readme);
    const agentLines = (await vscode.workspace.openTextDocument(agentUri)).getText().split('\n');
    const comment = async (text: string, body: string): Promise<StoredComment> => {
      const line = agentLines.indexOf(text);
      assert.ok(line >= 0, `no line "${text}" in ${JSON.stringify(agentLines)}`);
      const thread = talk.threads.controller.createCommentThread(agentUri, new vscode.Range(line, 0, line, 0), []);
      const stored = await vscode.commands.executeCommand<StoredComment>('agentRuntime.addReviewComment', {
        thread,
        text: body,
      });
      assert.ok(stored, 'Add Comment made no draft');
      return stored;
    };
    const plainer = await comment('One.', 'Say this more plainly.');
    const keep = await comment('Three.', 'Leave it: the wording is right.');
    assert.deepStrictEqual([plainer.path, plainer.side, plainer.quote], ['README.md', 'agent', 'One.']);

    await sendAndJudge(talk, runId, [plainer, keep], 60_000);
    assert.deepStrictEqual(talk.drafts.get(plainer.id)?.fate, { fate: 'addressed', by: 'change' });
    assert.deepStrictEqual(talk.drafts.get(keep.id)?.fate, { fate: 'notChanged' });
    assert.strictEqual(talk.threads.threadOf(plainer.id)?.label, 'Addressed: the lines it quoted changed');
    assert.strictEqual(talk.threads.threadOf(keep.id)?.label, 'Not changed: the lines it quoted are still there');
  });
});
