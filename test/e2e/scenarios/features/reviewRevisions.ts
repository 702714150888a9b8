// Changes Since Revision 1: two files uploaded and revised, a follow-up run started with one
// review comment (over HTTP, as a person's Send would), then in the editor: Review Changes on the
// follow-up, Changes Since Revision 1 shows only the follow-up's edit, the file as modified and
// the sides named in words in the title, Mark File as Reviewed ticks the file, and Apply writes the follow-up's version.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RuntimeHandle } from '../../../runtime';
import { REVISED_MARK } from '../../../runtime/reviewComments';
import { type Scenario } from '../types';
import { UI } from '../ui';
import { getRun, TERMINAL, until } from './api';
import { PICTURE_SETTINGS } from './docsImages';
import {
  assertShownAsModified,
  EXPLORER_MULTI_SELECT,
  reviewFromRunRow,
  saveAll,
  uploadAttachAndFinish,
} from './review';

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join('\n') + '\n';

/** The agent's revision of one attachment in a run, read over HTTP. */
async function revisionText(runtime: RuntimeHandle, runId: string, name: string): Promise<string> {
  const headers = { authorization: `Bearer ${runtime.apiKey}` };
  const list = (await (await fetch(`${runtime.baseUrl}/v1/runs/${runId}/artifacts?limit=100`, { headers })).json()) as {
    data: { id: string; name: string; file_id?: string; source_file_id?: string }[];
  };
  const artifact = list.data.find((a) => a.name === name && typeof a.source_file_id === 'string');
  assert.ok(artifact, `the run made no revision of ${name}`);
  return (await fetch(`${runtime.baseUrl}/v1/files/${artifact.file_id ?? artifact.id}/content`, { headers })).text();
}

/** A fork after the run's last step with one comment on a line of the agent's version of `name`. */
async function followUpWithComment(runtime: RuntimeHandle, runId: string, name: string, line: number, quote: string) {
  const last = Math.max(...runtime.eventLog(runId).map((e) => e.sequence));
  const res = await fetch(`${runtime.baseUrl}/v1/runs/${runId}/fork`, {
    method: 'POST',
    headers: { authorization: `Bearer ${runtime.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      after_sequence: last - 1,
      review_comments: [
        { id: 'rc_since-1', path: name, start_line: line, end_line: line, side: 'agent', quote, body: 'Plainer.' },
      ],
    }),
  });
  assert.strictEqual(res.status, 201, await res.clone().text());
  const run = (await res.json()) as { id: string };
  await until('the follow-up to end', async () =>
    TERMINAL.has((await getRun(runtime, run.id)).status) ? true : undefined,
  );
  return run.id;
}

export const reviewChangesSinceRevision: Scenario = {
  id: 'review-since-revision',
  title: 'Changes Since Revision 1 on a follow-up: only its edit, sides named in words, Mark File as Reviewed, Apply',
  files: { 'since-a.md': lines(8, 'alpha'), 'since-b.md': lines(8, 'beta') },
  settings: { ...EXPLORER_MULTI_SELECT, ...PICTURE_SETTINGS },
  runtime: { eventDelayMs: 0 },
  async run(ctx) {
    const { workbench, page, runtime, shot } = ctx;
    const objective = 'Tidy both notes';
    const first = await uploadAttachAndFinish(ctx, ['since-a.md', 'since-b.md'], objective);
    const revision1A = await revisionText(runtime, first, 'since-a.md');
    const quoted = revision1A.split('\n')[2];
    const second = await followUpWithComment(runtime, first, 'since-a.md', 3, quoted);
    const revision2A = await revisionText(runtime, second, 'since-a.md');
    const revision2B = await revisionText(runtime, second, 'since-b.md');
    assert.ok(revision2A.includes(`${quoted}${REVISED_MARK}`), 'the follow-up acts on the comment');

    await reviewFromRunRow(ctx, objective, /(Run|Revision) 2(?!\d)/);
    await workbench.clickNotificationButton(/The run changed 2 files/, UI.review.changesSince(1));
    await workbench.waitForEditorTab(UI.review.sinceEditorTitle(1, objective));
    const toast = await workbench.waitForNotification(/Revision 2 changed 1 file since revision 1/);
    assert.match(await toast.innerText(), /1 file the same in both revisions is left out/);

    // One file in the multi-file diff: since-a.md, revision 1 against revision 2, in words.
    const entries = page.locator('.multiDiffEntry').filter({ visible: true });
    await entries.first().waitFor({ timeout: workbench.timeoutMs });
    await page
      .locator('.monaco-diff-editor .view-line', { hasText: REVISED_MARK.trim() })
      .first()
      .waitFor({ timeout: workbench.timeoutMs });
    assert.strictEqual(await entries.count(), 1, 'only the file the follow-up changed is shown');
    // The file by its name, modified; the editor's title says the sides.
    await assertShownAsModified(entries.first(), 'since-a.md');
    await workbench.waitForEditorTab(/revision 1 ↔ revision 2/);
    await shot('since-revision-1');

    // Mark File as Reviewed: the review's files, since-a.md ticked.
    await workbench.runCommand(UI.commands.markFileReviewed);
    const row = workbench.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'since-a.md' }).first();
    await row.waitFor({ timeout: workbench.timeoutMs });
    await row.locator('.label-name').first().click();
    await workbench.quickInput.locator('.quick-input-count', { hasText: /1 Selected/ }).waitFor({ timeout: 10_000 });
    await shot('mark-reviewed');
    await workbench.quickInput.getByRole('button', { name: 'OK' }).click();
    await workbench.waitForNotification(/1 of 2 files marked as reviewed/);

    await workbench.runCommand(UI.commands.applyReviewChanges);
    await workbench.waitForNotification(/Applied \d+ changes? to 2 files/);
    await saveAll(ctx);
    const read = (name: string) => fs.readFileSync(path.join(ctx.workspace, name), 'utf8');
    await until('Apply to write the follow-up’s version', async () =>
      read('since-a.md') === revision2A && read('since-b.md') === revision2B ? true : undefined,
    );
    await shot('applied');
  },
};
