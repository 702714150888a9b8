// Row texts: labels, descriptions, accessibility labels and plain-text tooltips, with every
// server value made inert.
import * as assert from 'node:assert/strict';
import { untranslated as t } from '../../../src/common/translate';
import {
  accessibilityLabel,
  artifactDescriptionParts,
  artifactTooltip,
  fileDescriptionParts,
  fileLabel,
  fileTooltip,
  joinDescription,
  runDescriptionParts,
  runTooltip,
  spendAgainstCap,
  TASK_LABEL_MAX,
  taskDescriptionParts,
  taskLabel,
  taskTooltip,
} from '../../../src/views/format';

// Pinned so the expectations hold on any machine.
const BERLIN = { locale: 'en-GB', timeZone: 'Europe/Berlin', now: new Date('2026-11-21T20:00:00Z') };

describe('views/format', () => {
  it('cuts a long objective to the label length', () => {
    const label = taskLabel({ id: 'task_1', objective: 'x'.repeat(200) });
    assert.equal(Array.from(label).length, TASK_LABEL_MAX);
  });

  it('labels by name and falls back to the id', () => {
    assert.equal(fileLabel({ id: 'file_1', filename: 'report.pdf' }), 'report.pdf');
    assert.equal(fileLabel({ id: 'file_1', filename: '  ' }), 'file_1');
    assert.equal(taskLabel({ id: 'task_1' }), 'task_1');
  });

  it('describes a file as purpose · size · time, skipping what is missing', () => {
    const parts = fileDescriptionParts(
      { id: 'f', purpose: 'dataset', bytes: 2048, created_at: '2026-11-21T09:05:00Z' },
      BERLIN,
    );
    assert.equal(joinDescription(parts), 'dataset · 2.0 KB · 10:05');
    assert.deepEqual(fileDescriptionParts({ id: 'f' }), []);
  });

  it('describes tasks and runs by status (unknown ones verbatim) and time', () => {
    const task = taskDescriptionParts(
      { id: 't', status: 'paused_for_lunch', created_at: '2026-11-21T09:05:00Z' },
      t,
      BERLIN,
    );
    assert.deepEqual(task, ['paused_for_lunch', '10:05']);
    const run = runDescriptionParts(
      { id: 'r', status: 'running', created_at: '2026-11-21T08:00:00Z', started_at: '2026-11-21T09:05:00Z' },
      t,
      BERLIN,
    );
    assert.deepEqual(run, ['running', '10:05']);
    assert.deepEqual(artifactDescriptionParts({ id: 'a', bytes: 10 }, BERLIN), ['10 B']);
  });

  it('builds the accessibility label from kind, label and description', () => {
    assert.equal(accessibilityLabel('File', 'a.txt', ['dataset', '1.0 KB']), 'a.txt, File, dataset, 1.0 KB');
  });

  it('puts id, purpose, bytes and created time (local and UTC) in the file tooltip, as plain text', () => {
    const text = fileTooltip(
      { id: 'file_abc', filename: 'data.csv', purpose: 'dataset', bytes: 4096, created_at: '2026-11-21T23:28:52Z' },
      t,
      BERLIN,
    );
    assert.match(text, /^data\.csv\n/);
    assert.match(text, /ID: file_abc/);
    assert.match(text, /Purpose: dataset/);
    assert.match(text, /Size: 4\.0 KB \(4,096 bytes\)/);
    assert.match(text, /Created: 22 Nov 2026/);
    assert.match(text, /Created \(UTC\): 2026-11-21 23:28:52 UTC/);
  });

  it("names a project task's project and commit in its tooltip", () => {
    const tip = taskTooltip(
      { id: 'task_1', objective: 'x', project_id: 'proj_9', context: { ref: 'main', commit: 'a'.repeat(40) } },
      t,
    );
    assert.match(tip, /Project: proj_9/);
    assert.match(tip, /Commit: aaaaaaaaaaaa \(main\)/);
    const hostile = taskTooltip(
      { id: 'task_1', project_id: 'p\n[x](command:evil)', context: { ref: 'b\u202Ead', commit: 5 } } as never,
      t,
    );
    assert.ok(!/\]\(|[\u202a-\u202e]/.test(hostile), hostile);
    assert.doesNotMatch(taskTooltip({ id: 'task_2' }, t), /Project|Commit/);
  });

  it('makes server text inert in labels, descriptions and tooltips: no links, icons, bidi or extra lines', () => {
    const hostile = '[click](command:evil) $(alert) txt\u202Eexe.txt\nSecond line';
    const tip = taskTooltip({ id: 'task_1', objective: hostile, status: hostile }, t);
    const label = taskLabel({ id: 'task_1', objective: hostile });
    const description = joinDescription(taskDescriptionParts({ id: 'task_1', status: hostile }, t));
    for (const text of [label, description, tip.split('\n')[0]]) {
      assert.ok(!/\]\(/.test(text), `no link syntax: ${text}`);
      assert.ok(!/\$\(/.test(text), `no icon syntax: ${text}`);
      assert.ok(!/[\u202a-\u202e\n]/.test(text), `no bidi or newline: ${text}`);
      assert.match(text, /\\u202e/, 'the override is shown escaped');
    }
    assert.equal(
      tip.split('\n').length,
      tip.split('\n').filter((l) => l === '' || /^[A-Z][\w ()]*: |^\[/.test(l)).length,
      'one line per row',
    );
    assert.equal(fileLabel({ id: 'file_1', filename: 'a\nb' }), 'a\\nb');
  });

  it('names the run, its task, status, error, cost and times in the run tooltip', () => {
    const md = runTooltip(
      {
        id: 'run_1',
        task_id: 'task_1',
        status: 'failed',
        error: { message: 'tool crashed' },
        created_at: '2026-11-21T09:00:00Z',
        completed_at: '2026-11-21T09:05:00Z',
        usage: { cost: { amount: '0.42', currency: 'usd' } },
      },
      t,
      BERLIN,
      'Summarise',
    );
    assert.match(md, /^Summarise\n/);
    assert.match(md, /ID: run_1/);
    assert.match(md, /Cost: 0\.42 USD/);
    assert.match(md, /Task: task_1/);
    assert.match(md, /Status: failed/);
    assert.match(md, /Error: tool crashed/);
    assert.match(md, /Finished: /);
    assert.ok(!/Started:/.test(md), 'a missing time gives no row');
  });

  it('shows an artifact with its run and file ids', () => {
    const md = artifactTooltip({ id: 'art_1', run_id: 'run_1', file_id: 'file_9', name: 'out.md', bytes: 12 }, t);
    assert.match(md, /Run: run_1/);
    assert.match(md, /File: file_9/);
    assert.match(md, /Size: 12 bytes/);
  });

  it('shows a capped run as its cost against the cap, and a junk cap or cost as received with a note', () => {
    const usd = (amount: unknown) => ({ amount, currency: 'USD' });
    const run = (budget: unknown, cost?: unknown) => ({
      id: 'run_1',
      status: 'awaiting_budget',
      budget,
      ...(cost === undefined ? {} : { usage: { cost } }),
    });
    assert.equal(spendAgainstCap(run(usd('0.05'), usd('0.04')), t), '0.04 of 0.05 USD, 80 %');
    assert.equal(spendAgainstCap(run(usd('0.05'), usd('0.05')), t), '0.05 of 0.05 USD, 100 %');
    assert.equal(spendAgainstCap(run(usd('0.05')), t), 'cap 0.05 USD');
    assert.equal(spendAgainstCap(run(usd('lots'), usd('0.04')), t), 'cap lots USD (not a decimal amount, not counted)');
    assert.equal(
      spendAgainstCap(run(usd('0.05'), { amount: '0.10', currency: 'XTS' }), t),
      '0.10 XTS (another currency than the cap, not counted) against a cap of 0.05 USD',
      'other currencies are never compared',
    );
    assert.equal(
      spendAgainstCap(run(usd('0.05'), usd('-1')), t),
      '-1 USD (a negative amount, not counted) against a cap of 0.05 USD',
    );
    const parts = runDescriptionParts(run(usd('0.05'), usd('0.04')), t);
    assert.deepEqual([parts[0], parts.at(-1)], ['waiting at its spending cap', '0.04 of 0.05 USD, 80 %']);
    assert.match(runTooltip(run(usd('0.05'), usd('0.04')), t), /Spending cap: 0\.04 of 0\.05 USD, 80 %/);
  });
});
