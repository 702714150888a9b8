// Talking back to the agent on a project run, inside the extension host against the reference
// runtime: comments on the agent's version of a repository file are sent as one follow-up, whose
// agent rewrites the lines of one and leaves the other's (it logs no verdict for a project run),
// and each thread says what became of it, judged from the follow-up's patch planned in the clone.
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import type { ProjectRecord, TaskRecord } from '../../src/api/types';
import type { StoredComment } from '../../src/reviewTalk/commentDrafts';
import type { SendResult } from '../../src/reviewTalk/sendComments';
import type { ReviewSummary } from '../../src/reviewUi/reviewCommands';
import { reviewUri } from '../../src/reviewUi/reviewContent';
import { isTerminalStatus } from '../../src/runEvents/runStatus';
import { gitIn } from '../unit/projects/gitRepoKit';
import { admin, directClient, extensionApi, openGitRepository, signInForTests, waitFor } from './support';

describe('review comments to the agent on a project run', () => {
  let client: ApiClient;
  let root: string;
  let service: string;
  let local: string;
  before(async () => {
    await extensionApi();
    await signInForTests();
    client = directClient();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'no workspace folder');
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ext-talk-project-'));
    service = path.join(root, 'service.git');
    local = path.join(folder.fsPath, `talk-project-${Date.now()}`);
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', service]);
    execFileSync('git', ['clone', '-q', service, local]);
    const git = gitIn(local);
    git('checkout', '-q', '-b', 'main');
    fs.writeFileSync(path.join(local, 'README.md'), '# Talk back\n\nOne.\nTwo.\nThree.\nFour.\n');
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    git('push', '-q', '-u', 'origin', 'main');
    git('remote', 'set-url', 'origin', 'https://example.com/team/talk-project.git');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('git').update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
    await client.dispose();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(local, { recursive: true, force: true });
  });

  it('judges each comment from the follow-up’s patch: one addressed, one not changed', async function () {
    this.timeout(120_000);
    const talk = (await extensionApi()).reviewTalk;
    const repository = await openGitRepository(local);
    await waitFor('the remote to be read', () =>
      repository.state.remotes.some((r) => (r.fetchUrl ?? '').includes('talk-project')),
    );
    const project = await vscode.commands.executeCommand<ProjectRecord>('agentRuntime.createProjectForRepository', {
      folder: local,
      name: `talk-project-${Date.now()}`,
    });
    assert.ok(project?.id, JSON.stringify(project));
    await admin(`/projects/${project.id}/checkout`, { path: service });
    const task = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.newTaskInProject', {
      folder: local,
      objective: 'Polish the talk-back readme',
    });
    const runId = task.run_id as string;
    await waitFor('the run to end', async () => isTerminalStatus((await client.getRun(runId)).status), 30_000);

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

    const sent = await vscode.commands.executeCommand<SendResult>('agentRuntime.sendReviewComments', {
      runId,
      instructions: '',
      confirm: false,
    });
    assert.ok(sent, 'nothing was sent');
    await waitFor(
      'each thread to say what became of it',
      () =>
        talk.threads.threadOf(plainer.id)?.contextValue === 'judged' &&
        talk.threads.threadOf(keep.id)?.contextValue === 'judged',
      60_000,
    );
    assert.deepStrictEqual(talk.drafts.get(plainer.id)?.fate, { fate: 'addressed', by: 'change' });
    assert.deepStrictEqual(talk.drafts.get(keep.id)?.fate, { fate: 'notChanged' });
    assert.strictEqual(talk.threads.threadOf(plainer.id)?.label, 'Addressed: the lines it quoted changed');
    assert.strictEqual(talk.threads.threadOf(keep.id)?.label, 'Not changed: the lines it quoted are still there');
  });
});
