// What the agent knows and may use, in code-server: Search Memory finds an entry, it is
// edited and saved; changed through the API meanwhile, the next save shows the compare editor and
// loses nothing (Overwrite saves the user's text); a run's tool call opens its invocation record
// from the run panel, and its memory.written row the entry; a webhook is created (https only, the
// secret shown once in the modal, copied), a test delivery is sent and reported, and the secret
// is nowhere in the page afterwards.
import * as assert from 'node:assert';
import type { RuntimeHandle } from '../../../runtime';
import { type Scenario, type ScenarioContext } from '../types';
import { UI } from '../ui';
import { getRun, TERMINAL, until } from './api';
import { runPanelFrame, waitForRow, watchFromTasks } from './runPanel';

interface Memory {
  id: string;
  content: string;
  version: number;
}

async function api<T>(runtime: RuntimeHandle, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${runtime.apiKey}` };
  if (body !== undefined) {
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  if (method === 'POST') {
    headers['idempotency-key'] = crypto.randomUUID();
  }
  const res = await fetch(`${runtime.baseUrl}/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) {
    throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  }
  return JSON.parse(text) as T;
}

const memoryOf = (runtime: RuntimeHandle, id: string) => api<Memory>(runtime, 'GET', `/memory/${id}`);

/** The visible text of the editors on screen (a compare editor shows both sides). */
async function editorText(ctx: ScenarioContext): Promise<string> {
  const lines = await ctx.page.locator('.part.editor .monaco-editor .view-lines').allInnerTexts();
  return lines.join('\n').replace(/\u00a0/g, ' ');
}

async function typeAtEnd(ctx: ScenarioContext, text: string): Promise<void> {
  await ctx.page.locator('.part.editor .monaco-editor .view-lines').first().click();
  await ctx.page.keyboard.press('Control+End');
  await ctx.page.keyboard.type(text);
}

const BASE = 'Quarterly revenue figures live in the finance folder.\n';
const MINE = 'Mine: the totals are in the Q3 deck.';
const THEIRS = 'Theirs: the folder moved to the archive.';
const MINE_AGAIN = 'Mine again: check the totals twice.';

export const agentAccess: Scenario = {
  id: 'agent-access',
  title:
    'Memory, tools, webhooks: search and edit a memory through a conflict, open a tool call record from the run panel, create and test a webhook',
  runtime: { eventDelayMs: 20 },
  async run(ctx) {
    const { workbench, page, runtime } = ctx;
    const memory = await api<Memory>(runtime, 'POST', '/memory', { content: BASE, tags: ['notes'] });
    await workbench.openContainer(UI.container);

    // Search Memory: results as you type; the entry opens as a document.
    await workbench.runCommand(UI.access.searchMemory);
    const search = workbench.quickInput.locator('.quick-input-box input');
    await search.waitFor({ state: 'visible', timeout: 30_000 });
    await search.fill('revenue');
    await workbench.pickQuickItem(/Quarterly revenue figures/);
    await workbench.waitForEditorTab(memory.id);
    await until('the entry in the editor', async () =>
      (await editorText(ctx)).includes('Quarterly revenue') ? true : undefined,
    );

    // Edit and save: PATCH {content, version}.
    await typeAtEnd(ctx, `${MINE}\n`);
    await page.keyboard.press('Control+S');
    const saved = await until('the saved entry', async () => {
      const now = await memoryOf(runtime, memory.id);
      return now.version === 2 ? now : undefined;
    });
    assert.strictEqual(saved.content, `${BASE}${MINE}\n`);
    await ctx.shot('memory-saved');

    // Someone else changes it meanwhile; the next save meets the conflict.
    await api(runtime, 'PATCH', `/memory/${memory.id}`, { content: `${BASE}${MINE}\n${THEIRS}\n`, version: 2 });
    await typeAtEnd(ctx, MINE_AGAIN);
    await page.keyboard.press('Control+S');
    await workbench.waitForNotification(UI.access.conflictNotice);
    await workbench.waitForEditorTab(/↔/);
    await until('both sides in the compare editor', async () => {
      const text = await editorText(ctx);
      return text.includes(THEIRS) && text.includes(MINE_AGAIN) ? true : undefined;
    });
    assert.strictEqual((await memoryOf(runtime, memory.id)).version, 3, 'nothing was saved over theirs');
    await ctx.shot('memory-conflict');
    await workbench.clickNotificationButton(UI.access.conflictNotice, UI.access.overwrite);
    const overwritten = await until('the user text saved over theirs', async () => {
      const now = await memoryOf(runtime, memory.id);
      return now.version === 4 ? now : undefined;
    });
    assert.strictEqual(overwritten.content, `${BASE}${MINE}\n${MINE_AGAIN}`, 'no text of the user was lost');
    await page.keyboard.press('Escape');
    await workbench.runCommand(UI.access.closeAllEditors);

    // A run of the built-in agent: it recalls that entry, calls write_file, writes a memory.
    const objective = 'Remember the quarterly revenue report';
    const task = await api<{ id: string; run_id: string }>(runtime, 'POST', '/tasks', { objective, attachments: [] });
    await until('the run to end', async () =>
      TERMINAL.has((await getRun(runtime, task.run_id)).status) ? true : undefined,
    );
    const log = runtime.eventLog(task.run_id);
    const called = log.find((e) => e.event === 'tool.called');
    const written = log.find((e) => e.event === 'memory.written');
    assert.ok(called && written, `the run logged no tool call or memory write: ${log.map((e) => e.event).join(', ')}`);
    const invocations = await api<{ data: { id: string; sequence: number }[] }>(
      runtime,
      'GET',
      `/tools/invocations?run_id=${task.run_id}&limit=100`,
    );
    const invocation = invocations.data.find((i) => i.sequence === called.sequence);
    assert.ok(invocation, 'the tool call has an invocation record');

    await watchFromTasks(ctx, objective);
    const frame = await runPanelFrame(workbench);
    await waitForRow(frame, called.sequence);
    await frame.locator(`${UI.runPanelRow}[data-sequence="${called.sequence}"]`).click();
    const link = frame.locator(`#raw-detail[data-for-sequence="${called.sequence}"] #record-links .record-link`);
    await link.waitFor({ timeout: 30_000 });
    await ctx.shot('tool-call-link');
    await link.click();
    await workbench.waitForEditorTab(invocation.id);
    await until('the invocation record', async () => {
      const text = await editorText(ctx);
      return text.includes('write_file') && text.includes(invocation.id) ? true : undefined;
    });
    await ctx.shot('invocation-record');

    // The memory.written row opens the entry the run wrote (the panel's tab first: the record covers it).
    await (await workbench.waitForEditorTab(/Run: Remember/)).click();
    const frameAgain = await runPanelFrame(workbench);
    await frameAgain.locator(`${UI.runPanelRow}[data-sequence="${written.sequence}"]`).click();
    const memoryLink = frameAgain.locator(
      `#raw-detail[data-for-sequence="${written.sequence}"] #record-links .record-link`,
    );
    await memoryLink.waitFor({ timeout: 30_000 });
    const writtenId = await memoryLink.getAttribute('data-id');
    assert.match(writtenId ?? '', /^mem_/);
    await memoryLink.click();
    await workbench.waitForEditorTab(writtenId ?? '');
    await until('the written entry', async () => ((await editorText(ctx)).includes('Report on') ? true : undefined));
    await workbench.runCommand(UI.access.closeAllEditors);

    // Create a webhook: https only; the secret shown once, copied.
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    const url = 'https://receiver.invalid/hooks/agent';
    await workbench.runCommand(UI.access.createWebhook);
    await workbench.answerInput(UI.access.webhookUrlPrompt, 'http://receiver.invalid/hooks/agent');
    // Not https: the box says so and takes nothing.
    await workbench.quickInput
      .locator('.quick-input-message', { hasText: /https:\/\// })
      .first()
      .waitFor({ timeout: 30_000 });
    const urlBox = workbench.quickInput.locator('.quick-input-box input');
    await urlBox.fill(url);
    await urlBox.press('Enter');
    await workbench.quickInput.filter({ hasText: UI.access.webhookEventsTitle }).waitFor({ timeout: 30_000 });
    await page.keyboard.press('Enter');
    const { detail: secret } = await workbench.dialogText(UI.access.secretDialog);
    assert.match(secret, /^whsec_[0-9a-f]+$/, `the dialog shows the secret: ${secret}`);
    await ctx.shot('webhook-secret');
    await workbench.clickDialogButton(UI.access.copySecret);
    const copied = await until(
      'the secret on the clipboard',
      async () => {
        const text = (await page.evaluate('navigator.clipboard.readText()').catch(() => '')) as string;
        return text === secret ? text : undefined;
      },
      15_000,
    );
    assert.strictEqual(copied, secret);
    const hooks = await api<{ data: { id: string; url: string }[] }>(runtime, 'GET', '/webhooks?limit=100');
    assert.deepStrictEqual(
      hooks.data.map((h) => h.url),
      [url],
      'one webhook, with the https URL',
    );

    // Send Test Delivery from the row; the result is reported; the secret is shown nowhere again.
    const row = await workbench.treeRow(UI.access.webhooksView, url);
    await row.hover();
    await row.locator(`.action-label[aria-label="${UI.access.sendTestDelivery}"]`).first().click();
    await workbench.waitForNotification(UI.access.testDelivery);
    await ctx.shot('test-delivery');
    assert.ok(!(await page.content()).includes(secret), 'the secret is not in the page any more');
    for (const frame of page.frames()) {
      const html = await frame.content().catch(() => '');
      assert.ok(!html.includes(secret), 'the secret is in no webview');
    }
    assert.ok(!ctx.runtimeLog.some((line) => line.includes(secret)), 'the secret is in no request line');
  },
};
