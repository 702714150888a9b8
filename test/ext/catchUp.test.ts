// "Ask the Agent to Update Its Changes..." inside the extension host against the reference
// runtime: a project run whose base commit is behind a real later commit (pushed) forks with the
// new HEAD as its context and the uncommitted work as a diff, retried after lost answers into one
// run; a run on an uploaded file that was edited after sending forks with the file uploaded again.
// Where nothing moved, the command says so and sends nothing.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import { RunEventSubscription } from '../../src/api/events';
import type { ProjectRecord, TaskRecord } from '../../src/api/types';
import type { CatchUpResult } from '../../src/reviewTalk/catchUp';
import type { ReviewSummary } from '../../src/reviewUi/reviewCommands';
import { suiteRepository, untilRunEnds, workspaceFolder } from './reviewKit';
import { admin, openGitRepository, runtimeRequestLog, suiteWithService, testEnv, waitFor } from './support';

async function untilEnded(client: ApiClient, runId: string): Promise<void> {
  await untilRunEnds(client, runId);
  assert.strictEqual((await client.getRun(runId)).status, 'completed');
}

async function observations(client: ApiClient, runId: string): Promise<string[]> {
  const out: string[] = [];
  const sub = new RunEventSubscription(client, runId);
  try {
    for await (const event of sub) {
      const summary = (event.data as { summary?: unknown }).summary;
      if (typeof summary === 'string') {
        out.push(summary);
      }
    }
  } finally {
    sub.close();
  }
  return out;
}

type Show = (...args: unknown[]) => Thenable<unknown>;

/** The offer of Review Changes' notice for a file changed since it was sent (its English label). */
const CATCH_UP = 'Ask the Agent to Update...';

async function clearFaults(): Promise<void> {
  const { baseUrl, adminKey } = testEnv();
  await fetch(`${baseUrl}/__admin/faults`, { method: 'DELETE', headers: { authorization: `Bearer ${adminKey}` } });
}

describe('asking the agent to update its changes', () => {
  const client = suiteWithService();
  let folder: vscode.Uri;
  before(() => {
    folder = workspaceFolder();
  });
  after(clearFaults);

  it('an uploaded file edited after sending: says nothing moved before the edit, then forks with it uploaded again', async function () {
    this.timeout(90_000);
    const file = vscode.Uri.joinPath(folder, `catch-up-${Date.now()}.txt`);
    await vscode.workspace.fs.writeFile(file, Buffer.from('first\nsecond\nthird\n'));
    const task = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.uploadAndCreateTask', file, [file], {
      objective: `Catch up ${Date.now()}`,
    });
    const runId = task.run_id as string;
    const oldFileId = task.attachments?.[0]?.fileId;
    assert.ok(oldFileId);
    await untilEnded(client, runId);

    const still = await vscode.commands.executeCommand<CatchUpResult>('agentRuntime.askAgentToCatchUp', {
      runId,
      confirm: false,
    });
    assert.strictEqual(still?.moved, false, JSON.stringify(still));
    assert.match(still.sentence ?? '', /has not moved on: none of the 1 files/);

    fs.writeFileSync(file.fsPath, 'first\nsecond\nthird\nfourth, added here\n');
    const result = await vscode.commands.executeCommand<CatchUpResult>('agentRuntime.askAgentToCatchUp', {
      runId,
      confirm: false,
    });
    assert.strictEqual(result?.moved, true, JSON.stringify(result));
    assert.deepStrictEqual(result.files, [path.basename(file.fsPath)]);
    const followUp = await client.getRun(result.followUpRunId as string);
    assert.strictEqual(followUp.forked_from?.run_id, runId);
    await untilEnded(client, followUp.id);
    const revised = (await client.listRunArtifacts(followUp.id)).data.filter((a) => a.source_file_id);
    assert.strictEqual(revised.length, 1, JSON.stringify(revised));
    assert.notStrictEqual(revised[0].source_file_id, oldFileId, 'the edited file was uploaded again');
    const text = Buffer.from((await client.readFileContent(revised[0].file_id as string)).content).toString('utf8');
    assert.match(text, /fourth, added here/, 'the agent worked on the edited file');
    const said = await observations(client, followUp.id);
    assert.ok(
      said.some((s) => s.includes('were edited in the workspace') && s.includes(revised[0].source_file_id as string)),
      said.join('\n'),
    );

    // The follow-up's review compares with the file as sent again: no three-way merge.
    const summary = await vscode.commands.executeCommand<ReviewSummary>('agentRuntime.reviewChanges', {
      runId: followUp.id,
    });
    const reviewed = summary?.files.find((f) => f.relativePath === path.basename(file.fsPath));
    assert.ok(reviewed, JSON.stringify(summary));
    assert.notStrictEqual(reviewed.changedSinceUpload, true);
  });

  it("Review Changes' notice for a file edited since sending offers the catch-up, and its button starts it", async function () {
    this.timeout(90_000);
    const file = vscode.Uri.joinPath(folder, `catch-up-offer-${Date.now()}.txt`);
    await vscode.workspace.fs.writeFile(file, Buffer.from('one\ntwo\nthree\n'));
    const objective = `Catch-up offer ${Date.now()}`;
    const task = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.uploadAndCreateTask', file, [file], {
      objective,
    });
    const runId = task.run_id as string;
    await untilEnded(client, runId);
    await vscode.workspace.fs.writeFile(file, Buffer.from('one\ntwo\nthree\nfour, edited after sending\n'));

    const windowApi = vscode.window as unknown as { showInformationMessage: Show };
    const original = windowApi.showInformationMessage;
    const notices: { message: string; buttons: string[] }[] = [];
    const modals: { message: string; detail: string }[] = [];
    windowApi.showInformationMessage = (message, ...rest) => {
      const options = rest[0] as vscode.MessageOptions | undefined;
      const buttons = rest.filter((r): r is string => typeof r === 'string');
      if (options?.modal === true) {
        // The catch-up's confirmation: seen, and answered Cancel (nothing is sent).
        modals.push({ message: String(message), detail: String(options.detail) });
        return Promise.resolve(undefined);
      }
      notices.push({ message: String(message), buttons });
      // The person presses the notice's offer.
      return buttons.includes(CATCH_UP) ? Promise.resolve(CATCH_UP) : original(message, ...rest);
    };
    try {
      const summary = await vscode.commands.executeCommand<ReviewSummary>('agentRuntime.reviewChanges', { runId });
      const reviewed = summary?.files.find((f) => f.relativePath === path.basename(file.fsPath));
      assert.strictEqual(reviewed?.changedSinceUpload, true, JSON.stringify(summary));
      const notice = notices.find((n) => n.message.startsWith('The run changed'));
      assert.ok(notice, JSON.stringify(notices));
      assert.ok(notice.buttons.includes('Apply All') && notice.buttons.includes(CATCH_UP), notice.buttons.join(', '));
      await waitFor('the catch-up to ask before sending', () => modals.length > 0, 60_000);
    } finally {
      windowApi.showInformationMessage = original;
    }
    assert.match(modals[0].message, /^Ask the agent to update .* to the 1 files edited since they were sent\?$/);
    // The run by its task, as people know it, never by its id.
    assert.ok(modals[0].message.includes(`“${objective}”`), modals[0].message);
    assert.ok(!`${modals[0].message}${modals[0].detail}`.includes(runId), `${modals[0].message}\n${modals[0].detail}`);
    assert.ok(modals[0].detail.includes(path.basename(file.fsPath)), modals[0].detail);
  });

  describe('a project run', () => {
    const repo = suiteRepository('catch-up', '# Catch up\n\nOne.\nTwo.\n');

    it('a real commit after the base: forks at the new HEAD with the uncommitted diff, one run across lost answers', async function () {
      this.timeout(120_000);
      const repository = await openGitRepository(repo.local);
      await waitFor('the remote to be read', () =>
        repository.state.remotes.some((r) => (r.fetchUrl ?? '').includes('catch-up')),
      );
      const project = await vscode.commands.executeCommand<ProjectRecord>('agentRuntime.createProjectForRepository', {
        folder: repo.local,
        name: 'catch-up',
      });
      assert.ok(project?.id, JSON.stringify(project));
      await admin(`/projects/${project.id}/checkout`, { path: repo.service });
      const base = repo.git('rev-parse', 'HEAD');
      const task = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.newTaskInProject', {
        folder: repo.local,
        objective: 'Polish the catch-up demo',
      });
      const runId = task.run_id as string;
      await untilEnded(client, runId);

      const still = await vscode.commands.executeCommand<CatchUpResult>('agentRuntime.askAgentToCatchUp', {
        runId,
        confirm: false,
      });
      assert.strictEqual(still?.moved, false, JSON.stringify(still));
      assert.match(still.sentence ?? '', new RegExp(`HEAD is still commit ${base.slice(0, 7)}`));

      // The workspace moves on: a real commit, pushed, then uncommitted work on top.
      fs.writeFileSync(path.join(repo.local, 'NEWS.md'), 'News.\n');
      repo.git('add', 'NEWS.md');
      repo.git('commit', '-q', '-m', 'Add the news');
      repo.git('push', '-q', 'origin', 'main');
      const head = repo.git('rev-parse', 'HEAD');
      fs.writeFileSync(path.join(repo.local, 'README.md'), '# Catch up\n\nOne.\nTwo.\nThree, uncommitted.\n');
      await repository.status();

      // Every answer to the fork is lost (the first attempt and both retries): the command fails.
      await admin('/faults', { commitThenDrop: { count: 3, method: 'POST', pathPrefix: `/v1/runs/${runId}/fork` } });
      const args = { runId, confirm: false, tracked: ['README.md'] };
      const lost = await vscode.commands.executeCommand<CatchUpResult>('agentRuntime.askAgentToCatchUp', args);
      assert.strictEqual(lost, undefined);
      await clearFaults();
      const before = (await runtimeRequestLog()).length;
      const result = await vscode.commands.executeCommand<CatchUpResult>('agentRuntime.askAgentToCatchUp', args);
      assert.strictEqual(result?.moved, true, JSON.stringify(result));
      assert.deepStrictEqual(result.commits, [head]);
      const sent = (await runtimeRequestLog()).slice(before);
      assert.deepStrictEqual(
        sent.filter((l) => /^POST \/v1\/files\b/.test(l)),
        [],
        'the retry sends the patch uploaded before by id',
      );

      const forks = [];
      for await (const run of client.iterateRuns({ task_id: task.id })) {
        if (run.forked_from?.run_id === runId) {
          forks.push(run.id);
        }
      }
      assert.deepStrictEqual(forks, [result.followUpRunId], 'one run, never two');
      const followUp = await client.getRun(result.followUpRunId as string);
      assert.deepStrictEqual(followUp.context, { ref: 'main', commit: head });
      await untilEnded(client, followUp.id);
      const patch = (await client.listRunArtifacts(followUp.id)).data.find((a) => a.name === 'changes.patch');
      assert.strictEqual(patch?.base_commit, head, 'the new run starts from the new HEAD');
      const text = Buffer.from((await client.readFileContent(patch.file_id as string)).content).toString('utf8');
      assert.match(text, /^\+Three, uncommitted\.$/m, 'the uncommitted work went with it');
    });
  });
});
