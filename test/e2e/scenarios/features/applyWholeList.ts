// Apply to a New Branch... on a patch of 51 files, a git hook the 45th of the new ones (hostile
// mode's wideProjectPatchFiles): the confirmation offers only Show All until the whole list was
// shown; the hook's name is found in that list; then Create Branch and Apply writes what was seen.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WIDE_PATCH_HOOK } from '../../../runtime/hostile';
import { gitIn } from '../../../unit/projects/gitRepoKit';
import { makeServedRepository, serviceCloneOf } from '../../harness/servedRepository';
import { type Scenario } from '../types';
import { UI } from '../ui';
import { getRun, refreshView, TERMINAL, until } from './api';

const REMOTE = 'https://example.com/team/wide-demo.git';
const OBJECTIVE = 'Add the wide docs';
const BRANCH = 'agent/wide';

export const applyShowsEveryFile: Scenario = {
  id: 'apply-shows-every-file',
  title: 'Apply to a New Branch: past the dialog, Show All lists every file (the 45th a hook) before Apply',
  files: { 'README.md': '# Wide demo\n\nOne.\nTwo.\n' },
  settings: { 'git.enabled': true, 'git.openRepositoryInParentFolders': 'never' },
  runtime: { eventDelayMs: 0, hostile: { wideProjectPatchFiles: 50 } },
  prepareWorkspace(workspace) {
    makeServedRepository(workspace, REMOTE);
  },
  async run(ctx) {
    const { workbench, page, runtime, workspace, shot } = ctx;
    const git = gitIn(workspace);
    const headers = { authorization: `Bearer ${runtime.apiKey}`, 'content-type': 'application/json' };
    const post = async (route: string, body: unknown) => {
      const res = await fetch(`${runtime.baseUrl}${route}`, { method: 'POST', headers, body: JSON.stringify(body) });
      assert.ok(res.ok, `${route}: ${res.status}`);
      return (await res.json()) as { id: string; run_id?: string };
    };
    // The project and its task come from the service: this scenario is about the apply.
    const project = await post('/v1/projects', { name: 'wide-demo', repository: { url: REMOTE } });
    runtime.setProjectCheckout(project.id, serviceCloneOf(workspace));
    const commit = git('rev-parse', 'HEAD');
    const task = await post('/v1/tasks', {
      objective: OBJECTIVE,
      project_id: project.id,
      context: { ref: 'main', commit },
    });
    const runId = task.run_id as string;
    await until('the run to end', async () => (TERMINAL.has((await getRun(runtime, runId)).status) ? true : undefined));

    await page.locator('.statusbar-item', { hasText: 'main' }).first().waitFor({ timeout: 60_000 });
    await workbench.openContainer(UI.container);
    await refreshView(ctx, 'tasks');
    const taskRow = await workbench.treeRow(UI.tasksView, OBJECTIVE);
    if ((await taskRow.getAttribute('aria-expanded')) === 'false') {
      await taskRow.click();
    }
    await workbench.contextMenu(await workbench.treeRow(UI.tasksView, UI.firstRunRow), 'Apply to a New Branch...');
    await workbench.answerInput(/The new branch/, BRANCH);

    // The dialog holds the first files; the hook is past them, and Apply is not offered yet.
    const first = await workbench.dialogText(/Create the branch agent\/wide/);
    assert.match(first.detail, /more lines not shown here/);
    assert.ok(!first.detail.includes(WIDE_PATCH_HOOK), `the hook is past the dialog: ${first.detail}`);
    const buttons = await first.dialog.locator('.dialog-buttons .monaco-button').allInnerTexts();
    assert.ok(!buttons.some((b) => b.includes('Create Branch and Apply')), `no Apply before Show All: ${buttons}`);
    await shot('dialog-before-show-all');
    await workbench.clickDialogButton('Show All');

    // The whole list: the hook's name is there.
    const filter = workbench.quickInput.locator('.quick-input-box input');
    await filter.waitFor({ timeout: workbench.timeoutMs });
    await filter.fill('pre-commit');
    await workbench.quickInput
      .locator('.quick-input-list .monaco-list-row', { hasText: WIDE_PATCH_HOOK })
      .first()
      .waitFor({ timeout: workbench.timeoutMs });
    await shot('show-all-finds-the-hook');
    await filter.press('Escape');
    await workbench.quickInput.waitFor({ state: 'hidden', timeout: workbench.timeoutMs });

    await workbench.dialogText(/every one listed in Show All/);
    await workbench.clickDialogButton('Create Branch and Apply');
    await workbench.waitForNotification(/Branch agent\/wide created/);
    assert.strictEqual(git('rev-parse', '--abbrev-ref', 'HEAD'), BRANCH);
    assert.ok(fs.existsSync(path.join(workspace, 'wide', 'file-50.md')), 'the last file, seen in the list, is written');
    await shot('applied');
  },
};
