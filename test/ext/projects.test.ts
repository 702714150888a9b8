// Projects against code-server's real Git extension: with git turned off, a clear
// message; with it on, Create Project for This Repository (the remote's token never sent), New
// Task in Project with an uncommitted change and a ticked untracked file, and a commit the
// service cannot see pushed through the Git extension's repository.push() before the retry.
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ProjectRecord, TaskRecord } from '../../src/api/types';
import type { ApplyOutcome } from '../../src/reviewUi/reviewApply';
import type { ReviewSummary } from '../../src/reviewUi/reviewCommands';
import { gitIn } from '../unit/projects/gitRepoKit';
import {
  admin,
  directClient,
  extensionApi,
  openGitRepository,
  runtimeRequestLog,
  setWorkspaceSetting,
  signInForTests,
  waitFor,
} from './support';

type Show = (...args: unknown[]) => Thenable<unknown>;

describe('projects with the real Git extension', () => {
  let root: string;
  let service: string;
  let local: string;
  let git: (...args: string[]) => string;
  const TOKEN = 'ghp_extHostToken42';

  before(async () => {
    await extensionApi();
    await signInForTests();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ext-projects-'));
    // The service's clone (bare) and the user's repository cloned from it.
    service = path.join(root, 'service.git');
    // Inside the workspace folder, where the workspace's git.enabled applies.
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'no workspace folder');
    local = path.join(workspace, `project-repo-${Date.now()}`);
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', service]);
    execFileSync('git', ['clone', '-q', service, local]);
    git = gitIn(local);
    git('checkout', '-q', '-b', 'main');
    fs.writeFileSync(path.join(local, 'README.md'), '# Ext demo\n\nOne.\nTwo.\n');
    fs.writeFileSync(path.join(local, 'app.txt'), 'alpha\nbeta\n');
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    git('push', '-q', '-u', 'origin', 'main');
    // The remote the service knows by URL (with a token in it); pushes still reach the bare clone.
    git('remote', 'set-url', 'origin', `https://someone:${TOKEN}@example.com/team/ext-demo.git`);
    git('remote', 'set-url', '--push', 'origin', service);
  });

  after(async () => {
    await vscode.workspace.getConfiguration('git').update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(local, { recursive: true, force: true });
  });

  it('with git turned off says so clearly, and sends nothing', async () => {
    const windowApi = vscode.window as unknown as { showWarningMessage: Show };
    const original = windowApi.showWarningMessage;
    const warnings: string[] = [];
    windowApi.showWarningMessage = (message, ...rest) => {
      warnings.push(String(message));
      return original(message, ...rest);
    };
    try {
      const task = await vscode.commands.executeCommand('agentRuntime.newTaskInProject', {
        folder: local,
        objective: 'nothing',
      });
      assert.strictEqual(task, undefined);
      await waitFor('the message', () => warnings.some((w) => /repositories cannot be used/.test(w)));
    } finally {
      windowApi.showWarningMessage = original;
    }
  });

  it('creates the project, then a task at HEAD with the uncommitted patch; an unpushed commit is pushed and retried', async function () {
    this.timeout(90_000);
    const repository = await openGitRepository(local);

    const project = await vscode.commands.executeCommand<ProjectRecord>('agentRuntime.createProjectForRepository', {
      folder: local,
      name: 'ext-demo',
    });
    assert.ok(project?.id?.startsWith('proj_'), JSON.stringify(project));
    assert.strictEqual(
      project.repository?.url,
      'https://example.com/team/ext-demo.git',
      'the token stays on this machine',
    );
    await admin(`/projects/${project.id}/checkout`, { path: service });

    // A commit the service cannot see yet, plus uncommitted work: a change and an untracked file.
    fs.writeFileSync(path.join(local, 'app.txt'), 'alpha\nbeta\ngamma\n');
    git('commit', '-q', '-am', 'local only');
    const unpushed = git('rev-parse', 'HEAD');
    fs.writeFileSync(path.join(local, 'README.md'), '# Ext demo\n\nOne.\nTwo.\nThree.\n');
    fs.writeFileSync(path.join(local, 'new.txt'), 'brand new\n');
    fs.writeFileSync(path.join(local, 'left-out.txt'), 'not ticked\n');
    await repository.status();
    await waitFor('HEAD to be the new commit', () => repository.state.HEAD?.commit === unpushed);

    await setWorkspaceSetting('budget.perRun', '4.00');
    let task: TaskRecord | undefined;
    try {
      task = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.newTaskInProject', {
        folder: local,
        objective: 'Polish the demo',
        untracked: ['new.txt'],
        onUnknownCommit: 'push',
      });
    } finally {
      await setWorkspaceSetting('budget.perRun', undefined);
    }
    assert.ok(task?.id?.startsWith('task_'), JSON.stringify(task));
    assert.deepStrictEqual(task.budget, { amount: '4.00', currency: 'USD' }, 'the cap goes with the task');
    assert.strictEqual(task.project_id, project.id);
    assert.deepStrictEqual(task.context, { ref: 'main', commit: unpushed });
    assert.strictEqual(gitIn(service)('rev-parse', 'main'), unpushed, 'pushed through the Git extension');

    const client = directClient();
    try {
      const attachments = task.attachments ?? [];
      assert.strictEqual(attachments.length, 1, 'one patch attachment');
      const patchFile = await client.getFile(attachments[0].fileId);
      assert.strictEqual(patchFile.filename, 'uncommitted.diff');
      const sent = Buffer.from((await client.readFileContent(attachments[0].fileId)).content).toString('utf8');
      assert.match(sent, /^\+\+\+ b\/README\.md$/m);
      assert.match(sent, /^\+\+\+ b\/new\.txt$/m);
      assert.ok(!sent.includes('left-out'), 'an untracked file not ticked is not sent');

      // The run reads the pushed commit plus the patch and gives back a patch against that commit.
      const runId = task.run_id as string;
      await waitFor(
        'the run to end',
        async () => ['completed', 'failed'].includes(String((await client.getRun(runId)).status)),
        30_000,
      );
      assert.strictEqual((await client.getRun(runId)).status, 'completed');
      const artifacts = (await client.listRunArtifacts(runId)).data;
      const patch = artifacts.find((a) => a.name === 'changes.patch');
      assert.ok(patch, JSON.stringify(artifacts.map((a) => a.name)));
      assert.strictEqual(patch.base_commit, unpushed);

      // Review Changes: README.md moved on from base_commit (the uncommitted line), so the
      // agent's patch is merged three ways; the new file is listed, not offered.
      const summary = await vscode.commands.executeCommand<ReviewSummary>('agentRuntime.reviewChanges', { runId });
      const readme = summary?.files.find((f) => f.relativePath === 'README.md');
      assert.ok(readme, JSON.stringify(summary));
      assert.strictEqual(readme.status, 'ready');
      assert.strictEqual(readme.changedSinceUpload, true);
      assert.ok(
        summary?.problems.some((p) => p.code === 'unsupportedPatch' && p.message.includes('new.txt')),
        JSON.stringify(summary?.problems),
      );
      const outcome = await vscode.commands.executeCommand<ApplyOutcome>('agentRuntime.applyReviewChanges', {
        runId,
      });
      assert.ok(outcome?.applied, JSON.stringify(outcome));
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(local, 'README.md')));
      const reviewed = doc.getText();
      assert.match(reviewed, /^Three\.$/m, 'the uncommitted line is kept');
      assert.match(reviewed, /^One\. \(reviewed\)$/m, "the agent's change is there");
      // Both added lines at the end: one conflict, left as the working tree has it.
      assert.strictEqual(readme.conflicts, 1);
      // The edit is saved (by files.refactoring.autoSave, or here) before the tree is cleaned:
      // a save landing after the checkout would leave README.md changed again.
      if (doc.isDirty) {
        await doc.save();
      }
      await waitFor('the applied README on disk', () =>
        fs.readFileSync(path.join(local, 'README.md'), 'utf8') === reviewed ? true : undefined,
      );
      git('checkout', '--', 'README.md');
      await repository.status();
      assert.strictEqual(git('status', '--porcelain', '--untracked-files=no'), '', 'a clean tree to branch from');

      // Apply to a New Branch, with the working tree clean again: the patch from base_commit.
      const branch = await vscode.commands.executeCommand<{ branch: string; written: string[] }>(
        'agentRuntime.applyToNewBranch',
        { runId, folder: local, branch: 'agent/ext-review' },
      );
      assert.deepStrictEqual(branch?.written.includes('README.md'), true, JSON.stringify(branch));
      const onBranch = git('diff', '--', 'README.md');
      assert.match(onBranch, /^\+Three\.$/m, 'the uncommitted change');
      assert.match(onBranch, /^\+One\. \(reviewed\)$/m, "the agent's change");
    } finally {
      await client.dispose();
    }
  });

  it('refuses a patch when more tracked files changed than the list can show, and sends nothing', async function () {
    this.timeout(90_000);
    git('checkout', '-q', '-f', 'main');
    git('clean', '-fdq');
    // 1,006 tracked files, every one then changed: six past the list's bound, a secret among them.
    const many = path.join(local, 'many');
    fs.mkdirSync(many, { recursive: true });
    const names = Array.from({ length: 1005 }, (_, i) => `many/file-${String(i).padStart(4, '0')}.txt`);
    names.push('many/zz/.env');
    fs.mkdirSync(path.join(many, 'zz'), { recursive: true });
    for (const name of names) {
      fs.writeFileSync(path.join(local, name), 'before\n');
    }
    git('add', '.');
    git('commit', '-q', '-m', 'many files');
    for (const name of names) {
      fs.writeFileSync(path.join(local, name), 'after\n');
    }
    const before = (await runtimeRequestLog()).length;
    const windowApi = vscode.window as unknown as { showErrorMessage: Show };
    const original = windowApi.showErrorMessage;
    const errors: string[] = [];
    windowApi.showErrorMessage = (message, ...rest) => {
      errors.push(String(message));
      return original(message, ...rest);
    };
    try {
      const task = await vscode.commands.executeCommand('agentRuntime.newTaskInProject', {
        folder: local,
        objective: 'Too many to list',
      });
      assert.strictEqual(task, undefined);
    } finally {
      windowApi.showErrorMessage = original;
    }
    const sent = (await runtimeRequestLog()).slice(before).filter((l) => /^POST \/v1\/(files|tasks)\b/.test(l));
    assert.deepStrictEqual(sent, [], 'no patch uploaded, no task created');
  });
});
