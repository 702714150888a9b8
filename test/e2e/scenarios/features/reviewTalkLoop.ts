// Talking back to the agent, the whole loop in the editor: review a run, comment on a line in
// each of two files (the editor's own Comments UI: the gutter's "+", type, Add Comment), send both (the preview names each file, line and quote;
// the dialog names both files), watch the follow-up stream in its panel, see one thread
// "addressed" and one declined with the agent's note, then Changes Since Revision 1 shows only
// the follow-up's edit, and Apply writes it.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { REVISED_MARK } from '../../../runtime/reviewComments';
import { type Scenario, type ScenarioContext } from '../types';
import { UI } from '../ui';
import { getRun, listRuns, TERMINAL, until } from './api';
import { docsShot, PICTURE_SETTINGS } from './docsImages';
import {
  assertShownAsModified,
  EXPLORER_MULTI_SELECT,
  reviewFromRunRow,
  saveAll,
  uploadAttachAndFinish,
} from './review';

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join('\n') + '\n';

/** The agent's version of `name` in the multi-file diff: its modified-side editor. */
function agentSide(ctx: ScenarioContext, name: string): Locator {
  return ctx.page
    .locator('.multiDiffEntry', { has: ctx.page.locator('.header', { hasText: name }) })
    .locator('.editor.modified');
}

/** Puts the cursor on the agent's line holding `text`, then comments there as a person does. */
async function commentOn(ctx: ScenarioContext, name: string, text: string, body: string): Promise<void> {
  const { workbench, page } = ctx;
  const line = agentSide(ctx, name).locator('.view-line', { hasText: text }).first();
  await line.waitFor({ timeout: workbench.timeoutMs });
  // The gutter's "+" shows on the line the pointer is over (VS Code's commenting-range glyph),
  // once the controller has answered for the document's commenting ranges: until then a hover
  // shows nothing, so the pointer moves off and back onto the line until it does.
  const plus = agentSide(ctx, name).locator('.comment-range-glyph.line-hover').first();
  await until(`the gutter's "+" on ${name}`, async () => {
    await page.mouse.move(0, 0);
    await line.hover();
    return (await plus.waitFor({ timeout: 2_000 }).then(
      () => true,
      () => false,
    ))
      ? true
      : undefined;
  });
  await plus.click();
  // The thread's widget: an editor for the text, and the controller's Add Comment button.
  const widget = page
    .locator('.review-widget', { has: page.getByRole('button', { name: UI.comments.add }) })
    .filter({ visible: true })
    .first();
  const input = widget.locator('.monaco-editor').filter({ visible: true }).last();
  await input.waitFor({ timeout: workbench.timeoutMs });
  await input.click();
  await page.keyboard.type(body);
  await widget.getByRole('button', { name: UI.comments.add }).click();
  await page
    .locator('.review-widget', { hasText: body })
    .filter({ visible: true })
    .first()
    .waitFor({ timeout: workbench.timeoutMs });
}

export const reviewTalkLoop: Scenario = {
  id: 'review-talk-loop',
  title:
    'comments on two files of a review are sent as one follow-up; one is addressed, one declined with the note; Changes Since Revision 1; Apply',
  files: { 'talk-a.md': lines(8, 'alpha'), 'talk-b.md': lines(8, 'beta') },
  settings: { ...EXPLORER_MULTI_SELECT, ...PICTURE_SETTINGS },
  runtime: { eventDelayMs: 0 },
  async run(ctx) {
    const { workbench, page, runtime, shot } = ctx;
    const objective = 'Polish the two notes';
    const first = await uploadAttachAndFinish(ctx, ['talk-a.md', 'talk-b.md'], objective);
    await reviewFromRunRow(ctx, objective);
    // Each changed file once, as modified: your file and the agent's version have one path.
    for (const name of ['talk-a.md', 'talk-b.md']) {
      const entry = page.locator('.multiDiffEntry', { has: page.locator('.header', { hasText: name }) }).first();
      await entry.waitFor({ timeout: workbench.timeoutMs });
      await assertShownAsModified(entry, name);
    }

    const plainer = 'Say this more plainly.';
    const keep = 'Leave it: the wording is right.';
    await commentOn(ctx, 'talk-a.md', 'alpha line 3', plainer);
    await commentOn(ctx, 'talk-b.md', 'beta line 5', keep);
    await shot('two-drafts');

    // Send: the optional overall instruction, the whole of what goes out beside the dialog.
    await workbench.runCommand(UI.comments.send);
    await workbench.answerInput(UI.comments.overallPrompt, '');
    const dialog = await workbench.dialogText(/Send 2 comments to the agent\?/);
    assert.match(dialog.detail, /talk-a\.md/);
    assert.match(dialog.detail, /talk-b\.md/);
    const preview = page.locator('.editor-instance .view-lines', { hasText: 'Comments to send to the agent' }).first();
    await preview.waitFor({ timeout: workbench.timeoutMs });
    const previewText = (await preview.innerText()).replace(/\u00a0/g, ' ');
    // The agent's version has two lines of its own on top: alpha line 3 is its line 5.
    assert.match(previewText, /talk-a\.md, line 5 \(the agent's version\)\s+Quoted lines:\s+alpha line 3\s/);
    assert.match(previewText, /talk-b\.md, line 7 \(the agent's version\)\s+Quoted lines:\s+beta line 5 \(reviewed\)/);
    await shot('send-confirmation');
    await workbench.clickDialogButton('Send 2 Comments');
    await workbench.answerInput(UI.capPrompt, '');

    // The follow-up streams in its own panel.
    const followUp = await until('the follow-up on the server', async () =>
      (await listRuns(runtime)).find((r) => r.follow_up_of === first),
    );
    const frame = await workbench.webviewFrame(UI.runPanelRow);
    await frame.locator(UI.runPanelRow).first().waitFor({ timeout: workbench.timeoutMs });
    await until('the follow-up to end', async () =>
      TERMINAL.has((await getRun(runtime, followUp.id)).status) ? true : undefined,
    );

    // What became of each comment, on its thread in the review of revision 1.
    const addressed = page.locator('.review-widget', { hasText: plainer }).filter({ visible: true }).first();
    await addressed.filter({ hasText: /Addressed/ }).waitFor({ timeout: workbench.timeoutMs });
    const declined = page.locator('.review-widget', { hasText: keep }).filter({ visible: true }).first();
    await declined.filter({ hasText: 'Declined by the agent' }).waitFor({ timeout: workbench.timeoutMs });
    assert.match((await declined.innerText()).replace(/\u00a0/g, ' '), /Left as it is, as the comment asked\./);
    await workbench.runCommand('Notifications: Clear All Notifications');
    await docsShot(ctx, 'talking-back');

    // Revision 2 against revision 1: only the file the agent changed for the comments.
    await workbench.runCommand(UI.access.closeAllEditors);
    await reviewFromRunRow(ctx, objective, /(Run|Revision) 2(?!\d)/);
    await workbench.clickNotificationButton(/The run changed 2 files/, UI.review.changesSince(1));
    await workbench.waitForEditorTab(UI.review.sinceEditorTitle(1, objective));
    const entries = page.locator('.multiDiffEntry').filter({ visible: true });
    // The tab and a diff's lines can be on screen before the entry's element is laid out.
    await entries.first().waitFor({ timeout: workbench.timeoutMs });
    await page
      .locator('.monaco-diff-editor .view-line', { hasText: REVISED_MARK.trim() })
      .first()
      .waitFor({ timeout: workbench.timeoutMs });
    assert.strictEqual(await entries.count(), 1, 'only the file the follow-up changed is shown');
    await assertShownAsModified(entries.first(), 'talk-a.md');
    await shot('since-revision-1');

    await workbench.runCommand(UI.commands.applyReviewChanges);
    await workbench.waitForNotification(/Applied \d+ changes? to 2 files/);
    await saveAll(ctx);
    const read = (name: string) => fs.readFileSync(path.join(ctx.workspace, name), 'utf8');
    await until('Apply to write the follow-up’s version', async () =>
      read('talk-a.md').includes(REVISED_MARK) && !read('talk-b.md').includes(REVISED_MARK) ? true : undefined,
    );
    await shot('applied');
  },
};
