// The run panel's page in headless Chromium: renders a recorded stream, treats every server
// string as text, follows the newest event until the user scrolls up, filters, and talks to
// the host only through messages.
import * as assert from 'node:assert';
import { RunModel } from '../../../src/runEvents/runModel';
import type { WireEvent } from '../../../src/runEvents/wire';
import { DEFAULT_UI_STRINGS, type HostMessage, type PersistedState } from '../../../src/runPanel/protocol';
import { emptySnapshot, ev, recordedRun } from './fixtures';
import { launchBrowser, openPanelPage, type PanelPage } from './pageHarness';

const RUN = 'run_page';

function reset(over: Partial<Extract<HostMessage, { type: 'reset' }>> = {}): HostMessage {
  return {
    type: 'reset',
    snapshot: emptySnapshot(RUN),
    info: { runId: RUN, objective: 'Summarise the quarterly report', status: 'running' },
    connection: { state: 'live' },
    artifacts: { state: 'none' },
    strings: { ...DEFAULT_UI_STRINGS },
    ...over,
  };
}

async function waitForSequence(p: PanelPage, sequence: number): Promise<void> {
  await p.until(`document.getElementById('last-sequence')?.dataset.value === '${sequence}'`);
}

async function renderedSequences(p: PanelPage): Promise<number[]> {
  return p.js(`[...document.querySelectorAll('#timeline .row[data-sequence]')].map((r) => Number(r.dataset.sequence))`);
}

const AT_BOTTOM = `(() => { const t = document.getElementById('timeline'); return t.scrollTop + t.clientHeight >= t.scrollHeight - 12; })()`;
/** Two animation frames: whatever the page scheduled has been drawn. */
const FRAMES = `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`;

describe('run panel page (headless Chromium)', function () {
  this.timeout(60_000);
  let p: PanelPage;
  let chromium: Awaited<ReturnType<typeof launchBrowser>> | undefined;

  before(async () => {
    chromium = await launchBrowser();
  });

  after(async () => {
    await chromium?.close();
  });

  beforeEach(async () => {
    p = await openPanelPage({ browser: chromium?.browser });
  });

  afterEach(async () => {
    await p?.close();
  });

  it('renders a recorded stream: header, plan, progress, steps with their events nested in order', async () => {
    const run = recordedRun({ steps: 2, toolsPerStep: 1, terminal: null });
    await p.send(reset(), { type: 'events', events: run.slice(0, 4) }, { type: 'events', events: run.slice(4) });
    await waitForSequence(p, run.length);
    assert.deepStrictEqual(
      await renderedSequences(p),
      run.map((e) => e.data.sequence),
    );
    const depth = await p.js<number[]>(
      `[...document.querySelectorAll('#timeline .row[data-sequence]')].map((r) => (r.classList.contains('depth-1') ? 1 : 0))`,
    );
    assert.deepStrictEqual(depth, [0, 0, 1, 1, 1, 0, 1, 1, 1]);
    const text = (sel: string) => p.page.$eval(sel, (e) => e.textContent ?? '');
    assert.strictEqual(await text('#run-id'), RUN);
    assert.strictEqual(await text('#objective'), 'Summarise the quarterly report');
    assert.strictEqual(await text('#plan'), '2 planned steps · sequential');
    assert.strictEqual(await text('#progress-text'), '2 of 2 steps completed');
    assert.strictEqual(await p.page.getAttribute('#connection-state', 'data-state'), 'live');
    assert.ok((await text('#timeline .row[data-sequence="2"] .label')).includes('Step 1'));
    assert.strictEqual(await text('#timeline .row[data-sequence="5"] .meta'), '1.2 s');
    assert.deepStrictEqual(p.requests(), []);
  });

  it('shows the summary and artifacts when the run ends, and Open/Save ask the host', async () => {
    const run = recordedRun({ steps: 1, terminal: 'completed' });
    await p.send(
      reset(),
      { type: 'events', events: run },
      { type: 'connection', connection: { state: 'ended', status: 'completed' } },
    );
    await p.send({
      type: 'artifacts',
      artifacts: {
        state: 'loaded',
        truncated: false,
        artifacts: [{ id: 'art_1', name: 'report.md', bytes: 2048, contentType: 'text/markdown' }],
      },
    });
    await p.page.waitForSelector('#summary:not([hidden]) #artifacts li');
    assert.strictEqual(await p.page.$eval('#summary-status', (e) => e.textContent), 'completed');
    assert.strictEqual(await p.page.$eval('#summary-steps', (e) => e.textContent), '1 of 1 completed');
    await p.page.click('#artifacts li .artifact-open');
    await p.page.click('#artifacts li .artifact-save');
    await p.send({ type: 'artifacts', artifacts: { state: 'failed', message: 'The service had a problem.' } });
    await p.page.click('#artifacts-retry');
    const posted = await p.posted();
    assert.deepStrictEqual(
      posted.filter((m) => m.type === 'openArtifact' || m.type === 'saveArtifact' || m.type === 'retry'),
      [{ type: 'openArtifact', artifactId: 'art_1' }, { type: 'saveArtifact', artifactId: 'art_1' }, { type: 'retry' }],
    );
    assert.strictEqual(
      await p.page.textContent('#artifacts-message'),
      'Could not list the artifacts: The service had a problem.',
    );
  });

  it('shows markup in every server-provided string as text and runs none of it', async () => {
    const xss = [
      '<img src=x onerror="window.__pwned=1">',
      '<script>window.__pwned=1</script>',
      '"><svg onload="window.__pwned=1"></svg>',
      '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
    ];
    const x = (i: number) => xss[i % xss.length];
    const events: WireEvent[] = [
      ev('plan.created', 1, { steps: 2, strategy: x(0) }),
      ev('step.started', 2, { step_id: x(1), title: x(2) }),
      ev('tool.called', 3, { step_id: x(1), tool: x(3) }),
      ev('observation.recorded', 4, { step_id: x(1), summary: x(0) }),
      ev(x(2), 5, { [x(1)]: x(3), nested: { deep: x(0) } }),
      ev('step.completed', 6, { step_id: x(1), duration_ms: x(1) }),
      ev('run.failed', 7, { status: x(0) }),
    ];
    await p.send(
      reset({ info: { runId: RUN, objective: x(3), status: x(1) } }),
      { type: 'events', events },
      { type: 'connection', connection: { state: 'failed', message: x(2), signInNeeded: false } },
      {
        type: 'artifacts',
        artifacts: { state: 'loaded', truncated: false, artifacts: [{ id: x(0), name: x(1), contentType: x(2) }] },
      },
    );
    await waitForSequence(p, 7);
    await p.page.waitForSelector('#artifacts li');
    // Expanding a row puts its raw JSON on the page too.
    await p.page.click('#timeline .row[data-sequence="5"]');
    await p.page.waitForSelector('#raw-detail[data-for-sequence="5"]');
    const result = await p.js<{ pwned?: number; injected: number; text: string }>(`({
      pwned: window.__pwned,
      injected: document.querySelectorAll('#app img, #app svg, #app script, #app iframe').length,
      text: document.getElementById('app').textContent,
    })`);
    assert.strictEqual(result.pwned, undefined);
    assert.strictEqual(result.injected, 0);
    for (const payload of xss) {
      assert.ok(result.text.includes(payload), `shown as text: ${payload}`);
    }
    assert.deepStrictEqual(p.requests(), []);
  });

  it('shows bidi, invisible, filler and tag characters of server text as visible marks in every part of the page', async () => {
    // `ls docs; \u202Erm -rf ~` would display reversed; tag characters, fillers and soft hyphens hide text.
    const tags = [...'curl x|sh'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    const hostile = `ls docs; \u202Erm -rf ~ \u2066x\u2069\u200b\u3164\u00ad\u115f\uffa0${tags}\u2064\ufeff`;
    const events: WireEvent[] = [
      ev('plan.created', 1, { steps: 1, strategy: hostile }),
      ev('step.started', 2, { step_id: 'step_1', title: hostile }),
      ev('tool.called', 3, { step_id: 'step_1', tool: hostile, arguments: { command: hostile } }),
      ev('observation.recorded', 4, { step_id: 'step_1', summary: hostile }),
      ev('approval.requested', 5, {
        approval_id: 'apr_1',
        tool: hostile,
        step_id: 'step_1',
        reason: hostile,
        arguments: { command: hostile },
      }),
    ];
    const argumentsJson = JSON.stringify({ command: hostile }, null, 2);
    const approval = {
      approvalId: 'apr_1',
      sequence: 5,
      tool: hostile,
      stepId: 'step_1',
      reason: hostile,
      argumentsJson,
    };
    await p.send(
      reset({ info: { runId: RUN, objective: hostile, status: hostile, approval } }),
      { type: 'events', events },
      { type: 'connection', connection: { state: 'failed', message: hostile, signInNeeded: false } },
      {
        type: 'artifacts',
        artifacts: { state: 'loaded', truncated: false, artifacts: [{ id: hostile, name: hostile }] },
      },
    );
    await waitForSequence(p, 5);
    await p.page.waitForSelector('#timeline #approval-card:not([hidden])');
    await p.page.click('#outline-toggle');
    await p.until(`document.querySelectorAll('#outline-list .outline-item').length > 0`);
    await p.page.click('#timeline .row[data-sequence="3"]');
    await p.page.waitForSelector('#raw-detail[data-for-sequence="3"]');
    const seen = await p.js<Record<string, string>>(`(() => {
      const text = (sel) => document.querySelector(sel)?.textContent ?? '<missing ' + sel + '>';
      return {
        page: document.getElementById('app').textContent,
        titles: [...document.querySelectorAll('#app [title]')].map((e) => e.title).join(' '),
        options: [...document.querySelectorAll('#app option')].map((o) => o.textContent).join(' '),
        row: text('#timeline .row[data-sequence="2"] .label'),
        detail: text('#timeline .row[data-sequence="3"] .detail'),
        observation: text('#timeline .row[data-sequence="4"] .label'),
        raw: text('#raw-detail pre'),
        cardTitle: text('#approval-title'),
        cardArgs: text('#approval-args'),
        outline: text('#outline-list .outline-item .outline-label'),
        objective: text('#objective'),
        plan: text('#plan'),
        connection: text('#connection-state'),
      };
    })()`);
    const raw = /[\u00ad\u115f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0]|[\u{e0000}-\u{e007f}]/u;
    for (const [part, text] of Object.entries(seen)) {
      assert.ok(!raw.test(text), `${part} shows a hidden character raw: ${JSON.stringify(text.slice(0, 300))}`);
    }
    for (const part of [
      'row',
      'detail',
      'observation',
      'cardTitle',
      'cardArgs',
      'outline',
      'objective',
      'plan',
      'connection',
      'raw',
      'titles',
      'options',
    ]) {
      assert.ok(
        seen[part].includes('ls docs; \\u202erm -rf ~'),
        `${part} reads in order with the mark: ${seen[part].slice(0, 200)}`,
      );
      assert.ok(
        seen[part].includes('\\u{e0063}\\u{e0075}'),
        `${part} spells out the tag characters: ${seen[part].slice(0, 300)}`,
      );
    }
    assert.ok(seen.cardArgs.split('\n').length >= 3, 'the arguments stay a block of lines');
  });

  it("says when the run's log stopped at its size limit, in the header and in the find bar", async () => {
    const run = recordedRun({ steps: 2, terminal: null });
    await p.send(reset(), { type: 'events', events: run });
    await waitForSequence(p, run.length);
    assert.strictEqual(
      await p.js<boolean>(`document.getElementById('log-capped').hidden`),
      true,
      'nothing to say while the log has room',
    );
    await p.send({ type: 'info', info: { runId: RUN, status: 'running', logCappedAfter: 4 } });
    await p.until(`!document.getElementById('log-capped').hidden`);
    const said = await p.js<string>(`document.getElementById('log-capped').textContent`);
    assert.ok(said.includes('after event #4') && said.includes('size limit'), said);
    await p.page.fill('#search', 'read_file');
    await p.until(`window.__posted.some((m) => m.type === 'find')`);
    const ask = (await p.posted()).filter((m) => m.type === 'find').pop();
    assert.ok(ask?.type === 'find');
    await p.send({ type: 'found', requestId: ask.requestId, count: 0, scanned: 4, total: 4, done: true });
    await p.until(`document.getElementById('find-status').textContent.includes('#4')`);
    assert.strictEqual(
      await p.js<string>(`document.getElementById('find-status').textContent`),
      'No results · searched up to #4',
    );
  });

  it('follows the newest event, pauses when the user scrolls up, and Jump to latest resumes', async () => {
    const run = recordedRun({ steps: 100, toolsPerStep: 2, terminal: null });
    await p.send(reset(), { type: 'events', events: run.slice(0, 300) });
    await waitForSequence(p, 300);
    const atBottom = () => p.js<boolean>(AT_BOTTOM);
    await p.until(`document.getElementById('timeline').scrollTop > 0 && ${AT_BOTTOM}`);
    assert.ok((await renderedSequences(p)).includes(300), 'the newest row is drawn');
    assert.strictEqual(await p.js(`document.getElementById('jump-to-latest').hidden`), true);

    await p.js(`document.getElementById('timeline').scrollTop = 0`);
    await p.page.waitForSelector('#jump-to-latest:not([hidden])');
    await p.send({ type: 'events', events: run.slice(300, 400) });
    await waitForSequence(p, 400);
    await p.js(FRAMES);
    assert.strictEqual(await p.js(`document.getElementById('timeline').scrollTop`), 0, 'stays where the user put it');

    await p.page.click('#jump-to-latest');
    await p.page.waitForSelector('#jump-to-latest[hidden]', { state: 'attached' });
    assert.ok(await atBottom());
    await p.send({ type: 'events', events: run.slice(400) });
    await waitForSequence(p, run.length);
    await p.until(AT_BOTTOM);
    await p.js(FRAMES);
    assert.ok((await renderedSequences(p)).includes(run.length));
  });

  it('keeps the rows still in view when a row streams in or the list scrolls a little: only the rows that came into view are filled', async () => {
    const run = recordedRun({ steps: 100, toolsPerStep: 2, terminal: null });
    await p.send(reset(), { type: 'events', events: run.slice(0, 300) });
    await waitForSequence(p, 300);
    await p.until(`document.querySelector('#timeline .row[data-sequence="300"]') && ${AT_BOTTOM}`);
    // Each row element is marked with the sequence it showed; a row filled again with another event shows the mismatch.
    const mark = `[...document.querySelectorAll('#timeline .row[data-sequence]')].forEach((r) => { r.__was = r.dataset.sequence; })`;
    // A row that shows an event that was in view before, in another element, was filled again for nothing.
    const refilled = `(() => { const rows = [...document.querySelectorAll('#timeline .row[data-sequence]')]; const was = new Set(rows.map((r) => r.__was)); return rows.filter((r) => was.has(r.dataset.sequence) && r.__was !== r.dataset.sequence).length; })()`;
    const kept = `[...document.querySelectorAll('#timeline .row[data-sequence]')].filter((r) => r.__was === r.dataset.sequence).length`;
    // The DOM order of the rows is their order on screen (assistive technology reads the DOM), and
    // the rows come before the detail blocks (the expanded raw JSON), as they did before rows moved.
    const inOrder = `(() => { const ix = [...document.querySelectorAll('#timeline .row')].map((r) => Number(r.dataset.index)); const kids = [...document.querySelector('#timeline .virtual-canvas').children].filter((k) => !k.hidden); const firstDetail = kids.findIndex((k) => !k.classList.contains('row')); return ix.every((v, i) => i === 0 || v > ix[i - 1]) && (firstDetail < 0 || kids.slice(firstDetail).every((k) => !k.classList.contains('row'))); })()`;
    await p.page.click('#timeline .row[data-sequence="295"]');
    await p.page.waitForSelector('#raw-detail[data-for-sequence="295"]');
    if (await p.js<boolean>(`!document.getElementById('jump-to-latest').hidden`)) {
      await p.page.click('#jump-to-latest');
    }
    await p.until(AT_BOTTOM);
    await p.js(mark);
    const before = await p.js<number>(kept);
    await p.send({ type: 'events', events: run.slice(300, 301) });
    await waitForSequence(p, 301);
    await p.until(`document.querySelector('#timeline .row[data-sequence="301"]') && ${AT_BOTTOM}`);
    await p.js(FRAMES);
    assert.strictEqual(await p.js(refilled), 0, 'no row element was filled with another event');
    assert.ok((await p.js<number>(kept)) >= before - 2, `${await p.js<number>(kept)} of ${before} rows kept`);
    assert.strictEqual(await p.js(inOrder), true, 'DOM order is screen order after streaming');

    await p.js(mark);
    await p.js(`document.getElementById('timeline').scrollTop -= 3 * 24`);
    await p.js(FRAMES);
    await p.js(FRAMES);
    assert.strictEqual(await p.js(refilled), 0, 'no row element was filled with another event when scrolling up');
    assert.strictEqual(await p.js(inOrder), true, 'DOM order is screen order after scrolling up');
  });

  it("shows a step's row done as soon as its step.completed arrives while the list follows (a kept row is filled again)", async () => {
    const run = recordedRun({ steps: 40, toolsPerStep: 2, terminal: null });
    // Up to the last step's observation: its row is running; its step.completed is the next event.
    const last = run.findIndex((e) => e.event === 'step.completed' && e.data.step_id === 'step_40');
    await p.send(reset(), { type: 'events', events: run.slice(0, last) });
    await waitForSequence(p, last);
    const stepRow = `#timeline .row.kind-step[data-sequence="${run.findIndex((e) => e.event === 'step.started' && e.data.step_id === 'step_40') + 1}"]`;
    await p.until(`document.querySelector('${stepRow} .icon.codicon-sync') !== null`);
    // Looked at in the frames right after the event's draw, not polled: the panel's 1 s tick
    // refills every row anyway, so only a look before it shows whether the draw itself did.
    await p.send({ type: 'events', events: run.slice(last, last + 1) });
    await waitForSequence(p, last + 1);
    await p.js(FRAMES);
    assert.ok(
      await p.js<boolean>(`document.querySelector('${stepRow} .icon.codicon-pass') !== null`),
      "the step's row still shows it running after the draw of its step.completed",
    );
  });

  it('runs no animation while a run streams: the running run, its running step and the outline show it still', async () => {
    const run = recordedRun({ steps: 6, toolsPerStep: 1, terminal: null });
    // Up to the last step's tool call: the run and that step are running.
    const last = run.findIndex((e) => e.event === 'step.completed' && e.data.step_id === 'step_6');
    await p.send(reset(), { type: 'events', events: run.slice(0, last) });
    await waitForSequence(p, last);
    await p.js(FRAMES);
    const shown = await p.js<{ header: boolean; row: boolean; outline: boolean }>(`({
      header: document.getElementById('status-icon').classList.contains('codicon-sync'),
      row: document.querySelector('#timeline .row.kind-step .icon.codicon-sync') !== null,
      outline: document.querySelector('#outline-list .outline-item .codicon-sync') !== null,
    })`);
    assert.deepStrictEqual(shown, { header: true, row: true, outline: true }, 'running is shown in all three');
    // A running animation keeps the compositor drawing every frame for as long as the run lasts.
    assert.deepStrictEqual(
      await p.js(
        `document.getAnimations().map((a) => (a.animationName ?? a.id) + ' on ' + (a.effect?.target?.className ?? '?'))`,
      ),
      [],
    );
  });

  it('keeps the keyboard focus on a timeline row while events stream in and the focused row scrolls away', async () => {
    const run = recordedRun({ steps: 100, toolsPerStep: 2, terminal: null });
    await p.send(reset(), { type: 'events', events: run.slice(0, 300) });
    await waitForSequence(p, 300);
    await p.page.focus('#timeline');
    await p.page.keyboard.press('End');
    assert.strictEqual(await p.js(`document.activeElement.dataset.sequence`), '300');
    // One event a frame, more than a view and its overscan: the focused row's element leaves the window.
    for (let i = 300; i < 360; i++) {
      await p.send({ type: 'events', events: run.slice(i, i + 1) });
      await p.js(FRAMES);
    }
    await waitForSequence(p, 360);
    await p.js(FRAMES);
    assert.strictEqual(
      await p.js(
        `document.activeElement?.closest('#timeline') !== null && document.activeElement.classList.contains('row')`,
      ),
      true,
      'a timeline row still has the focus',
    );
    await p.page.keyboard.press('Home');
    assert.strictEqual(await p.js(`document.activeElement.classList.contains('row')`), true, 'the keys still move it');
  });

  it('a streamed step adds its one filter choice and writes nothing else of the header: the other choices and the buttons stay untouched', async () => {
    const run = recordedRun({ steps: 20, toolsPerStep: 1, terminal: null });
    // Up to step 10's step.completed (sequence 41); the next event is step 11's step.started.
    await p.send(reset(), { type: 'events', events: run.slice(0, 41) });
    await waitForSequence(p, 41);
    await p.js(FRAMES);
    await p.js(`(() => {
      window.__mutations = [];
      const observer = new MutationObserver((records) => { for (const r of records) window.__mutations.push(r.type + ' ' + (r.target.id || r.target.tagName) + ' ' + (r.attributeName || '') + ' -' + r.removedNodes.length); });
      for (const id of ['step-filter', 'kind-filter', 'tool-filter', 'retry-button', 'sign-in-button', 'progress', 'cancel-run', 'resume-run', 'review-changes', 'run-cost']) {
        const node = document.getElementById(id);
        if (!node) throw new Error('no #' + id);
        observer.observe(node, { attributes: true, childList: true });
      }
      window.__observer = observer;
    })()`);
    const choicesBefore = await p.js<number>(`document.getElementById('step-filter').options.length`);
    // The next step starts: one new step choice (a childList record adding one node, removing none).
    await p.send({ type: 'events', events: run.slice(41, 42) });
    await waitForSequence(p, 42);
    await p.js(FRAMES);
    // Records not yet delivered to the callback count too.
    const mutations = await p.js<string[]>(
      `(() => { for (const r of window.__observer.takeRecords()) window.__mutations.push(r.type + ' ' + (r.target.id || r.target.tagName) + ' ' + (r.attributeName || '') + ' -' + r.removedNodes.length); return window.__mutations; })()`,
    );
    assert.strictEqual(await p.js(`document.getElementById('step-filter').options.length`), choicesBefore + 1);
    assert.deepStrictEqual(
      mutations.filter((m) => !m.startsWith('childList step-filter  -0')),
      [],
      'only the new step choice was added',
    );
  });

  it('keeps the DOM small however many events arrive (only visible rows exist) and keeps following while the window drops rows above', async () => {
    const run = recordedRun({ steps: 2000, toolsPerStep: 2 });
    await p.send(reset());
    for (let i = 0; i < run.length; i += 2000) {
      await p.send({ type: 'events', events: run.slice(i, i + 2000) });
    }
    await waitForSequence(p, run.length);
    // Still following at a live pace (a batch a frame): the window drops rows above, the view stays at the end.
    const more = recordedRun({ steps: 4000, toolsPerStep: 2 })
      .slice(run.length, run.length + 8000)
      .map((e, i) => ({ ...e, data: { ...e.data, sequence: run.length + 1 + i } }));
    for (let i = 0; i < more.length; i += 200) {
      await p.send({ type: 'events', events: more.slice(i, i + 200) });
      await p.js(`new Promise((r) => setTimeout(r, 20))`);
    }
    const last = run.length + more.length;
    await waitForSequence(p, last);
    await p.until(`document.querySelector('#timeline .row[data-sequence="${last}"]') && ${AT_BOTTOM}`);
    const nodes = await p.js<number>(`document.getElementsByTagName('*').length`);
    assert.ok(nodes < 2000, `${nodes} DOM nodes`);
    assert.strictEqual(await p.page.getAttribute('#event-count', 'data-count'), String(last));
  });

  it('filters by event kind and tool combined; the search marks matches without hiding rows', async () => {
    const run = recordedRun({ steps: 3, toolsPerStep: 2, terminal: null });
    await p.send(reset(), { type: 'events', events: run });
    await waitForSequence(p, run.length);
    await p.page.selectOption('#kind-filter', 'tool.called');
    await p.until(`[...document.querySelectorAll('#timeline .row')].every((r) => r.dataset.kind === 'tool.called')`);
    assert.strictEqual((await renderedSequences(p)).length, 6);
    await p.page.selectOption('#tool-filter', 'read_file');
    await p.until(`document.querySelectorAll('#timeline .row').length === 3`);
    const tools = await p.js<string[]>(
      `[...document.querySelectorAll('#timeline .row .label')].map((r) => r.textContent)`,
    );
    assert.deepStrictEqual(tools, ['read_file', 'read_file', 'read_file']);
    await p.page.selectOption('#kind-filter', '');
    await p.page.selectOption('#tool-filter', '');
    await p.page.fill('#search', 'read_FILE');
    await p.until(`document.querySelectorAll('#timeline .row.match mark.find-match').length === 3`);
    assert.strictEqual((await renderedSequences(p)).length, run.length, 'find does not hide rows');
    await p.page.selectOption('#status-filter', 'problems');
    await p.until(`document.getElementById('timeline-empty').textContent === 'No events match the filter.'`);
  });

  it('expands a row to its raw JSON and copies it through the host', async () => {
    const run = recordedRun({ steps: 1, terminal: null });
    await p.send(reset(), { type: 'events', events: run });
    await waitForSequence(p, run.length);
    await p.page.click('#timeline .row[data-sequence="3"]');
    await p.page.waitForSelector('#raw-detail[data-for-sequence="3"]');
    const json = await p.page.$eval('#raw-detail .raw-json', (e) => e.textContent ?? '');
    assert.deepStrictEqual(JSON.parse(json).data, run[2].data);
    await p.page.click('#copy-json');
    const copy = (await p.posted()).find((m) => m.type === 'copy');
    assert.ok(copy?.type === 'copy' && copy.what === 'json');
    assert.deepStrictEqual(JSON.parse(copy.text), run[2].data);
  });

  it('asks the host for a cut event whole (copyEvent with its sequence) instead of copying the cut JSON', async () => {
    const run = recordedRun({ steps: 1, terminal: null });
    const cut: WireEvent = { ...run[2], truncatedBytes: 2_000_000 };
    await p.send(reset(), { type: 'events', events: [...run.slice(0, 2), cut, ...run.slice(3)] });
    await waitForSequence(p, run.length);
    await p.page.click('#timeline .row[data-sequence="3"]');
    await p.page.waitForSelector('#raw-detail[data-for-sequence="3"]');
    await p.page.click('#copy-json');
    const posted = await p.posted();
    assert.deepStrictEqual(
      posted.filter((m) => m.type === 'copyEvent'),
      [{ type: 'copyEvent', sequence: 3 }],
    );
    assert.deepStrictEqual(
      posted.filter((m) => m.type === 'copy'),
      [],
      'the cut JSON is not copied',
    );
  });

  it('shows a field the host cut to its budget with the "truncated, N bytes" mark, as text', async () => {
    const run = recordedRun({ steps: 1, terminal: null });
    const hostModel = new RunModel(RUN);
    const huge = `<img src=x onerror="window.__injected=1">${'y'.repeat(1_000_000)}`;
    const sent = hostModel.apply([
      ...run.slice(0, 2),
      ev('observation.recorded', 3, { step_id: 'step_1', summary: huge }),
      ...run.slice(3),
    ]);
    await p.send(reset(), { type: 'events', events: sent });
    await waitForSequence(p, run.length);
    const label = await p.page.$eval('#timeline .row[data-sequence="3"] .label', (e) => e.textContent ?? '');
    assert.ok(label.length < 20_000, `the row shows ${label.length} characters`);
    assert.ok(label.startsWith('<img src=x onerror='), 'the start of the field is shown as text');
    assert.ok(label.endsWith(`… (truncated, ${huge.length} bytes)`), `the row ends with ${label.slice(-40)}`);
    await p.page.click('#timeline .row[data-sequence="3"]');
    await p.page.waitForSelector('#raw-detail[data-for-sequence="3"]');
    const json = await p.page.$eval('#raw-detail .raw-json', (e) => e.textContent ?? '');
    assert.ok(json.includes(`(truncated, ${huge.length} bytes)`), 'the raw JSON carries the mark');
    assert.strictEqual(await p.page.$$eval('#app img', (imgs) => imgs.length), 0, 'no markup was made from the field');
    assert.strictEqual(await p.js<unknown>('window.__injected'), undefined);
  });

  it('offers the counted kinds and one "Other kinds" choice past the cap, which shows the rest', async () => {
    const events: WireEvent[] = [];
    for (let i = 0; i < 100; i++) {
      events.push(ev(`custom.${i}`, i + 1));
    }
    await p.send(reset(), { type: 'events', events });
    await waitForSequence(p, 100);
    const options = await p.js<string[]>(
      `[...document.querySelectorAll('#kind-filter option')].map((o) => o.textContent)`,
    );
    assert.strictEqual(options.length, 1 + 64 + 1);
    assert.strictEqual(options[options.length - 1], 'Other kinds');
    await p.page.selectOption('#kind-filter', { label: 'Other kinds' });
    // The rows in view (the list follows the newest): only kinds past the first 64.
    await p.until(
      `(() => { const rows = [...document.querySelectorAll('#timeline .row[data-sequence]')]; return rows.length > 0 && rows.every((r) => Number(r.dataset.sequence) > 64); })()`,
    );
    const kinds = await p.js<string[]>(
      `[...document.querySelectorAll('#timeline .row[data-sequence]')].map((r) => r.dataset.kind)`,
    );
    assert.ok(kinds.length > 0 && kinds.every((k) => Number(k.slice('custom.'.length)) >= 64), kinds.join(', '));
  });

  it('moves between rows with the arrow keys and expands one with Enter', async () => {
    const run = recordedRun({ steps: 1, terminal: null });
    await p.send(reset(), { type: 'events', events: run });
    await waitForSequence(p, run.length);
    await p.page.focus('#timeline');
    await p.page.keyboard.press('Home');
    await p.page.keyboard.press('ArrowDown');
    await p.page.keyboard.press('ArrowDown');
    assert.strictEqual(await p.js(`document.activeElement.dataset.sequence`), '3');
    await p.page.keyboard.press('Enter');
    await p.page.waitForSelector('#raw-detail[data-for-sequence="3"]');
  });

  it('shows the connection state: reconnecting with a countdown, errors with Retry or Sign in', async () => {
    await p.send(reset(), {
      type: 'connection',
      connection: { state: 'reconnecting', attempt: 3, delayMs: 9000, reason: 'reset' },
    });
    await p.until(
      `/Reconnecting in \\d s \\(attempt 3\\)/.test(document.getElementById('connection-state').textContent)`,
    );
    await p.send({
      type: 'connection',
      connection: { state: 'failed', message: 'The service had a problem.', signInNeeded: false },
    });
    await p.page.waitForSelector('#retry-button:not([hidden])');
    await p.page.click('#retry-button');
    await p.send({
      type: 'connection',
      connection: { state: 'failed', message: 'The API key was rejected.', signInNeeded: true },
    });
    await p.page.waitForSelector('#sign-in-button:not([hidden])');
    assert.strictEqual(await p.js(`document.getElementById('retry-button').hidden`), true);
    await p.page.click('#sign-in-button');
    await p.page.click('#copy-run-id');
    const posted = (await p.posted()).map((m) => m.type);
    assert.deepStrictEqual(posted, ['ready', 'retry', 'signIn', 'copy']);
  });

  it('saves {runId, lastSequence} and a bounded snapshot for the serializer', async () => {
    const run = recordedRun({ steps: 60, toolsPerStep: 2 });
    await p.send(reset(), { type: 'events', events: run });
    await p.until(`window.__state?.lastSequence === ${run.length}`);
    const saved = await p.js<PersistedState>('window.__state');
    assert.strictEqual(saved.runId, RUN);
    assert.strictEqual(saved.snapshot?.lastSequence, run.length);
    assert.ok((saved.snapshot?.recent.length ?? 0) <= 200);
    assert.strictEqual(saved.snapshot?.terminal?.status, 'completed');
  });

  it('a reset from a compacted snapshot shows the summarised steps and continues without duplicates', async () => {
    const { RunModel } = await import('../../../src/runEvents/runModel');
    const run = recordedRun({ steps: 30, toolsPerStep: 2 });
    const model = new RunModel(RUN, { recent: 10, steps: 100 });
    model.apply(run.slice(0, 100));
    await p.send(reset({ snapshot: model.snapshot() }));
    await waitForSequence(p, 100);
    await p.js(`document.getElementById('timeline').scrollTop = 0`);
    await p.page.waitForSelector('#timeline .row.kind-omitted:not([hidden])');
    await p.send({ type: 'events', events: run.slice(90) });
    await waitForSequence(p, run.length);
    const count = await p.page.getAttribute('#event-count', 'data-count');
    assert.strictEqual(count, String(run.length));
  });

  it('Cancel, Deny, Fork from here, Open, Resume and Review tell the host, with the event or approval they act on', async () => {
    const run = recordedRun({ steps: 1, terminal: null });
    const asked = ev('approval.requested', run.length + 1, {
      approval_id: 'ap_4',
      tool: 'write_file',
      step_id: 'step_1',
      arguments: {},
    });
    const approval = {
      approvalId: 'ap_4',
      sequence: asked.data.sequence,
      tool: 'write_file',
      stepId: 'step_1',
      argumentsJson: '{}',
    };
    await p.send(reset({ info: { runId: RUN, status: 'running', approval } }), {
      type: 'events',
      events: [...run, asked],
    });
    await p.page.waitForSelector('#timeline #approval-card:not([hidden])');
    await p.page.click('#cancel-run');
    await p.page.click('#deny-tool-call');
    await p.page.click('#timeline .row[data-sequence="3"]');
    await p.page.waitForSelector('#raw-detail[data-for-sequence="3"]');
    await p.page.click('#fork-from-here');
    await p.page.click('#open-json');
    await p.send(
      { type: 'info', info: { runId: RUN, status: 'failed', approval: null } },
      { type: 'events', events: [ev('run.failed', asked.data.sequence + 1, { status: 'failed' })] },
    );
    await p.page.waitForSelector('#resume-run:not([hidden])');
    await p.page.click('#resume-run');
    await p.page.click('#review-changes');
    const told = (await p.posted()).filter((m) => ['runAction', 'decide', 'openEvent'].includes(m.type));
    assert.deepStrictEqual(told, [
      { type: 'runAction', action: 'cancel' },
      { type: 'decide', approvalId: 'ap_4', decision: 'deny' },
      { type: 'runAction', action: 'fork', sequence: 3 },
      { type: 'openEvent', sequence: 3 },
      { type: 'runAction', action: 'resume' },
      { type: 'runAction', action: 'review' },
    ]);
  });
  it('links a tool call to its invocation record and memory events to their entries with real buttons; ids only', async () => {
    const events = [
      ev('plan.created', 1, { steps: 1, strategy: 'sequential' }),
      ev('step.started', 2, { step_id: 'step_1', title: 'Recall' }),
      ev('tool.called', 3, { step_id: 'step_1', tool: 'search', invocation_id: 'inv_3' }),
      ev('memory.recalled', 4, { step_id: 'step_1', memory_ids: ['mem_a', '../x', 'mem_\u202eb', 'mem_a', 'mem_c'] }),
      ev('memory.written', 5, { step_id: 'step_1', memory_id: 'mem_w' }),
      ev('tool.called', 6, { step_id: 'step_1', tool: 'read_file', invocation_id: '<img src=x onerror=alert(1)>' }),
    ];
    await p.send(reset(), { type: 'events', events });
    await waitForSequence(p, 6);
    const links = () =>
      p.js<{ tag: string; text: string; record: string; id: string }[]>(
        `[...document.querySelectorAll('#raw-detail #record-links .record-link')].map((b) => ({ tag: b.tagName, text: b.textContent, record: b.dataset.record, id: b.dataset.id }))`,
      );
    const expand = async (sequence: number) => {
      await p.page.click(`#timeline .row[data-sequence="${sequence}"]`);
      await p.page.waitForSelector(`#raw-detail[data-for-sequence="${sequence}"]`);
    };

    await expand(3);
    assert.deepEqual(await links(), [
      { tag: 'BUTTON', text: 'Open tool call record', record: 'invocation', id: 'inv_3' },
    ]);
    await p.page.click('#record-links .record-link');

    await expand(4);
    assert.deepEqual(
      (await links()).map((l) => [l.tag, l.text, l.id]),
      [
        ['BUTTON', 'Open memory mem_a', 'mem_a'],
        ['BUTTON', 'Open memory mem_c', 'mem_c'],
      ],
    );
    // By keyboard: Tab from the detail's buttons reaches the links; the focus shows; Enter opens.
    await p.page.focus('#open-json');
    for (let i = 0; i < 5 && !(await p.js<boolean>(`document.activeElement?.dataset?.id === 'mem_a'`)); i++) {
      await p.page.keyboard.press('Tab');
    }
    assert.equal(await p.js<string>(`document.activeElement.dataset.id`), 'mem_a');
    assert.equal(await p.js<string>(`getComputedStyle(document.activeElement).outlineStyle`), 'solid');
    await p.page.keyboard.press('Tab');
    await p.page.keyboard.press('Enter');

    await expand(5);
    assert.deepEqual(
      (await links()).map((l) => l.id),
      ['mem_w'],
    );
    await p.page.click('#record-links .record-link');

    // Not an id: no link, the id stays text in the JSON.
    await expand(6);
    assert.deepEqual(await links(), []);
    assert.equal(await p.js<boolean>(`document.getElementById('record-links').hidden`), true);
    assert.equal(await p.js<number>(`document.querySelectorAll('img').length`), 0);

    const told = (await p.posted()).filter((m) => m.type === 'openRecord');
    assert.deepEqual(told, [
      { type: 'openRecord', sequence: 3, record: 'invocation', id: 'inv_3' },
      { type: 'openRecord', sequence: 4, record: 'memory', id: 'mem_c' },
      { type: 'openRecord', sequence: 5, record: 'memory', id: 'mem_w' },
    ]);
  });

  it('offers "Send N Comments to the Agent..." while the run has drafts, its count kept current, by click and by keyboard', async () => {
    const run = recordedRun({ steps: 1 });
    await p.send(reset({ info: { runId: RUN, status: 'completed' } }), { type: 'events', events: run });
    await waitForSequence(p, run.length);
    await p.page.waitForSelector('#send-comments[hidden]', { state: 'attached' });
    await p.send({ type: 'info', info: { runId: RUN, status: 'completed', draftComments: 1 } });
    await p.page.waitForSelector('#send-comments:not([hidden])');
    assert.equal(
      await p.js<string>(`document.getElementById('send-comments').textContent`),
      'Send 1 Comment to the Agent...',
    );
    await p.send({ type: 'info', info: { runId: RUN, status: 'completed', draftComments: 3 } });
    await p.until(`document.getElementById('send-comments').dataset.count === '3'`);
    assert.equal(await p.js<string>(`document.getElementById('send-comments').tagName`), 'BUTTON');
    assert.equal(
      await p.js<string>(`document.getElementById('send-comments').textContent`),
      'Send 3 Comments to the Agent...',
    );
    assert.equal(await p.page.getAttribute('#send-comments', 'aria-label'), 'Send 3 Comments to the Agent...');
    await p.page.click('#send-comments');
    await p.page.focus('#send-comments');
    await p.page.keyboard.press('Enter');
    // The drafts were sent or deleted elsewhere: the button goes.
    await p.send({ type: 'info', info: { runId: RUN, status: 'completed', draftComments: 0 } });
    await p.page.waitForSelector('#send-comments[hidden]', { state: 'attached' });
    const told = (await p.posted()).filter((m) => m.type === 'sendComments');
    assert.deepEqual(told, [
      { type: 'sendComments', count: 3 },
      { type: 'sendComments', count: 3 },
    ]);
  });

  it("links the approval card to its tool's description, by click and by keyboard", async () => {
    const run = recordedRun({ steps: 1, terminal: null });
    const asked = ev('approval.requested', run.length + 1, {
      approval_id: 'ap_9',
      tool: 'write_file',
      step_id: 'step_1',
    });
    const approval = {
      approvalId: 'ap_9',
      sequence: asked.data.sequence,
      tool: 'write_file',
      stepId: 'step_1',
      argumentsJson: '{}',
    };
    await p.send(reset({ info: { runId: RUN, status: 'running', approval } }), {
      type: 'events',
      events: [...run, asked],
    });
    await p.page.waitForSelector('#timeline #approval-card:not([hidden]) #open-approval-tool');
    assert.equal(await p.js<string>(`document.getElementById('open-approval-tool').tagName`), 'BUTTON');
    assert.equal(await p.js<string>(`document.getElementById('open-approval-tool').textContent`), 'Tool description');
    await p.page.click('#open-approval-tool');
    await p.page.focus('#deny-tool-call');
    await p.page.keyboard.press('Tab');
    assert.equal(await p.js<string>(`document.activeElement.id`), 'open-approval-tool');
    await p.page.keyboard.press('Enter');
    const told = (await p.posted()).filter((m) => m.type === 'openTool' || m.type === 'decide');
    assert.deepEqual(told, [
      { type: 'openTool', approvalId: 'ap_9' },
      { type: 'openTool', approvalId: 'ap_9' },
    ]);

    // An approval that names no tool offers no description to open.
    await p.send(reset({ info: { runId: RUN, status: 'running', approval: { ...approval, tool: '' } } }), {
      type: 'events',
      events: [...run, asked],
    });
    await p.page.waitForSelector('#timeline #approval-card:not([hidden]) #open-approval-tool[hidden]', {
      state: 'attached',
    });
  });
});
