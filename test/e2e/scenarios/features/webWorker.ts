// The web build (package.json "browser") in code-server's web worker extension host, as in VS Code
// for the Web: sign in through the input box, browse a task the service already has, and see that
// it really ran in the worker: the extension's log says `typeof process` is undefined there, and
// the requests reached the service as a browser sends them (CORS preflights, which Node's client
// never sends). A command the web build leaves out answers with its sentence.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { extensionId } from '../../harness/paths';
import { type Scenario, type ScenarioContext } from '../types';
import { UI } from '../ui';
import { createTask, getRun, listFiles, listTasks, refreshView, runEventsText, TERMINAL, until } from './api';
import { reviewFromRunRow, saveAll } from './review';
import {
  assertSameSequences,
  renderedSequences,
  runPanelFrame,
  waitForRow,
  watchForReconnecting,
  watchFromTasks,
} from './runPanel';

const OBJECTIVE = 'Summarise the quarterly numbers in the browser';
const UPLOAD_OBJECTIVE = 'Count the words of the figures sent from the browser';
const FIGURES = '# Figures\n\nRevenue grew by nine percent in the third quarter.\n';

/** The extension's kind resolves to web: code-server runs its `browser` entry in the web worker. */
export const WEB_SETTINGS = { 'remote.extensionKind': { [extensionId()]: ['web'] } };

/** Signs in as a user of the browser does: no environment there, the key through the input box. */
export async function signInInBrowser({
  workbench,
  runtime,
}: Pick<ScenarioContext, 'workbench' | 'runtime'>): Promise<void> {
  await workbench.openContainer(UI.container);
  const files = await workbench.expandView(UI.filesView);
  const signInButton = files.locator('.welcome-view-content .monaco-button', { hasText: 'Sign In' }).first();
  await signInButton.waitFor({ timeout: workbench.timeoutMs });
  await signInButton.click();
  await workbench.answerInput(UI.apiKeyPrompt, runtime.apiKey);
  await files.locator('.welcome-view-content', { hasText: 'No files yet' }).waitFor({ timeout: workbench.timeoutMs });
}

// The browser-side code is plain JavaScript text (the tests compile without DOM types).
const WATCH_LONGEST_WAIT = `(() => {
  window.__longestWait = 0;
  const look = () => {
    for (const m of document.body.innerText.matchAll(/Reconnecting in (\\d+) s/g)) {
      window.__longestWait = Math.max(window.__longestWait, Number(m[1]));
    }
  };
  look();
  new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

/** Records in the page the longest reconnect wait the panel announces; returns the probe. */
async function watchLongestWait(frame: Frame): Promise<() => Promise<number>> {
  await frame.evaluate(WATCH_LONGEST_WAIT);
  return async () => Number(await frame.evaluate('window.__longestWait'));
}

const FETCHED_BY_WORKER = `((prefix) => ({
  fetched: performance.getEntriesByType('resource').some((entry) => entry.name.startsWith(prefix)),
  process: typeof process,
}))`;

/**
 * `typeof process` in each web worker of the page whose own resource timing lists a request to
 * `prefix`: the extension's requests go out from the worker that runs it (the web worker
 * extension host, inside its iframe). A Node extension host fetches in no worker: none is listed.
 */
export async function workersThatFetched(page: Page, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for (const worker of page.workers()) {
    const seen = await worker
      .evaluate<{ fetched: boolean; process: string }>(`${FETCHED_BY_WORKER}(${JSON.stringify(prefix)})`)
      .catch(() => undefined); // a worker that ended meanwhile
    if (seen?.fetched) {
      found.push(seen.process);
    }
  }
  return found;
}

export const webWorker: Scenario = {
  id: 'web-worker',
  title: 'the web build in the web worker host: sign in, browse tasks, no Node there, CORS preflights',
  auth: 'none',
  settings: WEB_SETTINGS,
  async run({ workbench, page, runtime, runtimeLog, shot }) {
    await createTask(runtime, OBJECTIVE);
    await signInInBrowser({ workbench, runtime });

    await refreshView({ workbench, runtimeLog }, 'tasks');
    await workbench.treeRow(UI.tasksView, OBJECTIVE);
    await shot('tasks-in-the-browser');

    // The negative control: the web build, in a worker without Node (the Node build logs no such line).
    await workbench.runCommand(UI.commands.showLog);
    // The activation line is soon scrolled away by request lines: the Output view's filter keeps it.
    const filter = page.locator('.part.panel input[placeholder^="Filter"]').first();
    await filter.fill('VS Code for the Web');
    // (The line wraps in the Output view: the words may be split across its rows.)
    const log = await workbench.waitForOutput(/activated\s*for\s*VS\s*Code/);
    assert.match(log, /typeof\s*process\s*is\s*undefined/, log);
    // A browser asks before an authorised request to another origin; Node's client never does.
    await until('a CORS preflight from the browser', async () =>
      runtimeLog.some((line) => /^OPTIONS \/v1\/tasks\S* 204 /.test(line)) ? true : undefined,
    );

    await workbench.runCommand(UI.commands.goTo);
    await workbench.waitForNotification(/not available in VS Code for the Web/);
    await shot('left-out-command');
  },
};

/** The run panel in the worker: its log in memory, the stream fetched by the browser. */
export const webWorkerRun: Scenario = {
  id: 'web-worker-run',
  title: 'the web build: watch a run live through cut streams, exactly the server log; approve a waiting call',
  auth: 'none',
  settings: WEB_SETTINGS,
  runtime: { eventDelayMs: 100 },
  async run(ctx) {
    const { workbench, page, runtime, runtimeLog, shot } = ctx;
    await signInInBrowser(ctx);

    // Every event stream connection is cut (EOF inside its chunked body) after 3 events.
    runtime.setFaults({ dropStreamAfterEvents: 3 });
    const objective = 'Watch this run from the browser';
    const runId = await runtime.createSyntheticRun({ events: 2, terminal: null, live: true, taskObjective: objective });
    await watchFromTasks(ctx, objective);
    const frame = await runPanelFrame(workbench);
    await waitForRow(frame, 2);
    // The probe is in place before the run goes on: every cut from here on is seen.
    const sawReconnecting = await watchForReconnecting(frame);
    const longestWait = await watchLongestWait(frame);
    const streams = runtime.countRequests('GET', new RegExp(`^/v1/runs/${runId}/events`));
    // Ten events at once: each connection carries three of them and is cut right after, so a
    // browser gets most batches together with their cut (Chromium drops such bytes) and asks again.
    let last = 0;
    for (let i = 1; i <= 10; i++) {
      last = runtime.appendEvent(runId, 'observation.recorded', { step_id: 'step_1', summary: `observation ${i}` });
    }
    await waitForRow(frame, last);
    await shot('run-live-in-the-browser');
    const appended = runtime.appendEvent(runId, 'observation.recorded', {
      step_id: 'step_1',
      summary: 'appended while the browser watches',
    });
    await waitForRow(frame, appended);
    runtime.endRun(runId, 'completed');
    const log = runtime.eventLog(runId);
    await waitForRow(frame, log[log.length - 1].sequence);
    streams.stop();
    assertSameSequences(await renderedSequences(frame), log);
    assert.strictEqual(await sawReconnecting(), true, 'the panel never showed that it was reconnecting');
    // A cut stream is asked again within 0.8 s (CUT_BACKOFF_STEPS), however often it is cut:
    // the panel never announces a longer wait ("Reconnecting in 1 s" at most).
    const longest = await longestWait();
    assert.ok(longest <= 1, `the panel announced a wait of ${longest} s before reconnecting to a cut stream`);
    // Eleven events after the probe, three a connection: at least four connections, each but the last cut.
    assert.ok(streams.count >= 4, `only ${streams.count} event stream connections while the stream was cut`);
    // The negative control: the stream was fetched by a web worker of the page, one without Node.
    const hosts = await workersThatFetched(page, `${runtime.baseUrl}/v1/runs/${runId}/events`);
    assert.deepStrictEqual(hosts, ['undefined'], 'the workers that fetched the stream, by their typeof process');
    // The stream went out from the browser (a preflight), not from a Node host.
    assert.ok(
      runtimeLog.some((line) => new RegExp(`^OPTIONS /v1/runs/${runId}/events\\S* 204 `).test(line)),
      `no CORS preflight for the event stream:\n${runtimeLog.filter((l) => l.includes(runId)).join('\n')}`,
    );
    runtime.clearFaults();

    // Approve in the browser: the notification, the dialog with the whole call, the run goes on.
    const waiting = 'Approve my write in the browser';
    const waitingRun = await runtime.createSyntheticRun({
      events: 3,
      terminal: 'completed',
      taskObjective: waiting,
      approval: { tool: 'write_file', arguments: { path: 'report.md' } },
    });
    await watchFromTasks(ctx, waiting);
    await workbench.waitForNotification(UI.steering.waitsNotification);
    await workbench.clickNotificationButton(UI.steering.waitsNotification, UI.steering.approve);
    const { detail } = await workbench.dialogText(UI.steering.approveDialog);
    assert.ok(detail.includes('"path": "report.md"'), `the dialog does not show the arguments: ${detail}`);
    await workbench.clickDialogButton(UI.steering.approveWithNote);
    await workbench.answerInput(UI.steering.notePrompt, 'fine from the browser');
    const end = await until('the approved run to complete', async () =>
      runtime.eventLog(waitingRun).find((e) => e.event === 'run.completed'),
    );
    await waitForRow(await runPanelFrame(workbench), end.sequence);
    assert.strictEqual(runtime.listApprovals({ runId: waitingRun })[0]?.status, 'approved');
    await shot('approved-in-the-browser');
  },
};

/**
 * Uploads in the worker: a workspace file (behind workspace.fs there) uploaded and attached to a
 * new task from the Explorer's menu; the run reads exactly that file.
 */
export const webWorkerUpload: Scenario = {
  id: 'web-worker-upload',
  title: 'the web build: Upload and Attach to New Task on a workspace file; the run reads it; Review Changes and Apply',
  auth: 'none',
  files: { 'figures.md': FIGURES },
  // See Workbench.selectExplorerRows: an editor opening must not re-select its file.
  settings: { ...WEB_SETTINGS, 'explorer.autoReveal': false },
  runtime: { eventDelayMs: 20 },
  async run(ctx) {
    const { workbench, page, runtime, runtimeLog, shot } = ctx;
    await signInInBrowser(ctx);
    const [row] = await workbench.selectExplorerRows(['figures.md']);
    await workbench.contextMenu(row, UI.menu.uploadAndAttach);
    await workbench.answerInput(UI.objectivePrompt, UPLOAD_OBJECTIVE);
    await workbench.answerInput(UI.capPrompt, '');

    const task = await until('the task on the server', async () =>
      (await listTasks(runtime)).find((t) => t.objective === UPLOAD_OBJECTIVE),
    );
    const uploaded = (await listFiles(runtime)).filter((f) => f.filename === 'figures.md');
    assert.strictEqual(uploaded.length, 1, 'the file was not uploaded exactly once');
    const fileId = uploaded[0].id;
    const attached = (task.attachments ?? []).map((a) => a.fileId ?? a.file_id);
    assert.deepStrictEqual(attached, [fileId], 'the task does not carry the uploaded file');

    // The run reads that file, all its bytes, and revises it (a copy whose source is that file).
    assert.ok(task.run_id, 'the server gave the task no run');
    const runId = task.run_id;
    const ended = await until('the run to end', async () => {
      const run = await getRun(runtime, runId);
      return TERMINAL.has(run.status) ? run.status : undefined;
    });
    assert.strictEqual(ended, 'completed');
    const events = await runEventsText(runtime, runId);
    assert.ok(
      events.includes(`Read figures.md: ${Buffer.byteLength(FIGURES)} bytes`) &&
        events.includes(`"source_file_id":"${fileId}"`),
      `the run did not read the uploaded file:\n${events.slice(0, 2000)}`,
    );
    await workbench.openContainer(UI.container);
    await workbench.treeRow(UI.tasksView, UPLOAD_OBJECTIVE);
    await shot('uploaded-task-in-the-browser');

    // The negative control: the upload went out from the page's web worker without Node, as a
    // browser sends it (a CORS preflight first); a Node host fetches in no worker of the page.
    const hosts = await workersThatFetched(page, `${runtime.baseUrl}/v1/files`);
    assert.deepStrictEqual(hosts, ['undefined'], 'the workers that sent the upload, by their typeof process');
    assert.ok(
      runtimeLog.some((line) => /^OPTIONS \/v1\/files\S* 204 /.test(line)),
      `no CORS preflight for the upload:\n${runtimeLog.filter((l) => l.includes('/v1/files')).join('\n')}`,
    );

    // Review Changes in the worker: the run's revision of the file uploaded from this window, in the
    // multi-file diff; Apply All writes it to the workspace file through the editor.
    await reviewFromRunRow(ctx, UPLOAD_OBJECTIVE);
    await page
      .locator('.monaco-diff-editor .view-line', { hasText: '(reviewed)' })
      .first()
      .waitFor({ timeout: workbench.timeoutMs });
    await shot('review-in-the-browser');
    await workbench.runCommand(UI.commands.applyReviewChanges);
    await workbench.waitForNotification(/Applied \d+ changes? to figures\.md/);
    await saveAll(ctx);
    const onDisk = await until('Apply to write the revision to figures.md', async () => {
      const text = fs.readFileSync(path.join(ctx.workspace, 'figures.md'), 'utf8');
      return text.includes('(reviewed)') ? text : undefined;
    });
    assert.ok(onDisk.startsWith(`> Revised for: ${UPLOAD_OBJECTIVE}`), `figures.md after Apply:\n${onDisk}`);
    await shot('applied-in-the-browser');
    const reviewHosts = await workersThatFetched(page, `${runtime.baseUrl}/v1/runs/${runId}/artifacts`);
    assert.deepStrictEqual(reviewHosts, ['undefined'], 'the workers that read the outputs, by their typeof process');
  },
};
