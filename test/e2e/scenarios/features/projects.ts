// Working in a repository: a git workspace whose remote the service knows, Create
// Project for This Repository, New Task in Project... with one uncommitted change, the run's
// patch in Review Changes (the README picture), then Apply to a New Branch...: `git diff` on
// that branch shows the agent's change and the uncommitted one.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitIn } from '../../../unit/projects/gitRepoKit';
import { makeServedRepository, serviceCloneOf } from '../../harness/servedRepository';
import { type Scenario } from '../types';
import { UI } from '../ui';
import { getRun, listTasks, refreshView, TERMINAL, until } from './api';
import { docsShot, PICTURE_SETTINGS } from './docsImages';

const REMOTE = 'https://example.com/team/ui-demo.git';
const OBJECTIVE = 'Polish the demo';
const BRANCH = 'agent/ui-demo';

export const workingInRepository: Scenario = {
  id: 'working-in-a-repository',
  title:
    'Projects: Create Project, New Task in Project with an uncommitted change, Review Changes, Apply to a New Branch',
  files: {
    'README.md': '# UI demo\n\nOne.\nTwo.\nThree.\n',
    'app.txt': 'alpha\nbeta\n',
  },
  settings: { ...PICTURE_SETTINGS, 'git.enabled': true, 'git.openRepositoryInParentFolders': 'never' },
  runtime: { eventDelayMs: 0 },
  prepareWorkspace(workspace) {
    makeServedRepository(workspace, REMOTE);
  },
  async run(ctx) {
    const { workbench, page, runtime, workspace, shot } = ctx;
    const git = gitIn(workspace);
    const headers = { authorization: `Bearer ${runtime.apiKey}` };

    // The Git extension has opened the repository once the status bar shows its branch.
    await page.locator('.statusbar-item', { hasText: 'main' }).first().waitFor({ timeout: 60_000 });

    // Signed in (the project commands show only then) once the Tasks view has listed.
    await workbench.openContainer(UI.container);
    await until('the first task listing', async () =>
      ctx.runtimeLog.some((l) => /^GET \/v1\/tasks(\?|\s|$)/.test(l)) ? true : undefined,
    );
    await workbench.runCommand('Agent Runtime: Create Project for This Repository');
    await workbench.answerInput(/project's name/i, 'ui-demo');
    await workbench.waitForNotification(/Project "ui-demo" created/);
    const project = await until('the project on the server', async () => {
      const list = (await (await fetch(`${runtime.baseUrl}/v1/projects?limit=10`, { headers })).json()) as {
        data: { id: string; repository?: { url?: string } }[];
      };
      return list.data[0];
    });
    assert.strictEqual(project.repository?.url, REMOTE);
    runtime.setProjectCheckout(project.id, serviceCloneOf(workspace));

    // One uncommitted change, sent as the task's patch.
    fs.writeFileSync(path.join(workspace, 'app.txt'), 'alpha\nbeta\ngamma\n');
    await workbench.runCommand('Agent Runtime: New Task in Project...');
    await workbench.answerInput(/What should the agent do/, OBJECTIVE);
    await workbench.answerInput(UI.capPrompt, '');
    await workbench.quickInput
      .locator('.quick-input-list .monaco-list-row', { hasText: 'app.txt' })
      .first()
      .waitFor({ timeout: workbench.timeoutMs });
    await shot('uncommitted-files');
    await workbench.quickInput.getByRole('button', { name: 'OK' }).click();
    await workbench.dialogText(/with a patch of this uncommitted file/);
    await workbench.clickDialogButton('Create Task');
    const task = await until('the task on the server', async () =>
      (await listTasks(runtime)).find((t) => t.objective === OBJECTIVE),
    );
    const runId = task.run_id as string;
    await until('the run to end', async () => (TERMINAL.has((await getRun(runtime, runId)).status) ? true : undefined));
    assert.strictEqual((await getRun(runtime, runId)).status, 'completed');

    // Review Changes on the run row: the patch against base_commit in the multi-file diff.
    await workbench.openContainer(UI.container);
    await refreshView(ctx, 'tasks');
    const taskRow = await workbench.treeRow(UI.tasksView, OBJECTIVE);
    if ((await taskRow.getAttribute('aria-expanded')) === 'false') {
      await taskRow.click();
    }
    const runRow = await workbench.treeRow(UI.tasksView, UI.firstRunRow);
    await workbench.contextMenu(runRow, UI.menu.reviewChanges);
    await workbench.waitForEditorTab(UI.reviewEditorTitle(OBJECTIVE));
    await page
      .locator('.monaco-diff-editor .view-line', { hasText: 'Revised for' })
      .first()
      .waitFor({ timeout: workbench.timeoutMs });
    await workbench.waitForNotification(/The run changed 2 files/);
    await docsShot(ctx, 'working-in-a-repository');

    // A new branch starts clean at base_commit: the uncommitted change comes back through the patch.
    git('checkout', '--', 'app.txt');
    await workbench.contextMenu(await workbench.treeRow(UI.tasksView, UI.firstRunRow), 'Apply to a New Branch...');
    await workbench.answerInput(/The new branch/, BRANCH);
    await workbench.dialogText(/Create the branch agent\/ui-demo/);
    await workbench.clickDialogButton('Create Branch and Apply');
    await workbench.waitForNotification(/Branch agent\/ui-demo created/);
    assert.strictEqual(git('rev-parse', '--abbrev-ref', 'HEAD'), BRANCH);
    const diff = git('diff');
    assert.match(diff, /^\+gamma$/m, 'the uncommitted change');
    assert.match(diff, /^\+> Revised for: Polish the demo$/m, "the agent's change");
    await shot('applied-on-branch');
  },
};
