// Row texts: sizes, local and UTC times, labels, descriptions and escaped Markdown tooltips.
import * as assert from 'node:assert/strict';
import {
  accessibilityLabel,
  artifactDescriptionParts,
  artifactTooltip,
  escapeMarkdown,
  fileDescriptionParts,
  fileLabel,
  fileTooltip,
  formatBytes,
  formatLocalTime,
  formatShortLocalTime,
  formatUtcTime,
  joinDescription,
  runDescriptionParts,
  runTooltip,
  shortenText,
  taskDescriptionParts,
  taskLabel,
  taskTooltip,
  TASK_LABEL_MAX,
} from '../../../src/views/format';
import { untranslated as t } from '../../../src/views/translate';

// Pinned so the expectations hold on any machine.
const BERLIN = { locale: 'en-GB', timeZone: 'Europe/Berlin', now: new Date('2026-11-21T20:00:00Z') };

describe('views/format', () => {
  it('formats sizes 1024-based with one decimal below 100 and none in bytes', () => {
    assert.equal(formatBytes(0, 'en'), '0 B');
    assert.equal(formatBytes(1023, 'en'), '1,023 B');
    assert.equal(formatBytes(1024, 'en'), '1.0 KB');
    assert.equal(formatBytes(1536, 'en'), '1.5 KB');
    assert.equal(formatBytes(200 * 1024, 'en'), '200 KB');
    assert.equal(formatBytes(512 * 1024 * 1024, 'en'), '512 MB');
    assert.equal(formatBytes(3 * 1024 ** 4, 'en'), '3.0 TB');
  });

  it('gives no size for missing, negative or non-numeric bytes', () => {
    assert.equal(formatBytes(undefined), undefined);
    assert.equal(formatBytes(-1), undefined);
    assert.equal(formatBytes(Number.NaN), undefined);
  });

  it('shows times in the given zone, and UTC with an explicit suffix', () => {
    const iso = '2026-11-21T23:28:52Z';
    assert.equal(formatUtcTime(iso), '2026-11-21 23:28:52 UTC');
    const local = formatLocalTime(iso, BERLIN) ?? '';
    assert.match(local, /22 Nov 2026/); // already the next day in Berlin
    assert.match(local, /00:28:52/);
  });

  it('shortens to the time only for today, else date and time', () => {
    const today = formatShortLocalTime('2026-11-21T09:05:00Z', BERLIN);
    assert.equal(today, '10:05');
    const earlier = formatShortLocalTime('2026-11-01T09:05:00Z', BERLIN) ?? '';
    assert.match(earlier, /1 Nov 2026/);
    assert.match(earlier, /10:05/);
  });

  it('keeps an unreadable timestamp verbatim instead of "Invalid Date"', () => {
    assert.equal(formatLocalTime('yesterday-ish'), 'yesterday-ish');
    assert.equal(formatShortLocalTime('yesterday-ish'), 'yesterday-ish');
    assert.equal(formatUtcTime('yesterday-ish'), 'yesterday-ish');
    assert.equal(formatLocalTime(undefined), undefined);
  });

  it('cuts long text on one line with an ellipsis, never splitting an emoji', () => {
    assert.equal(shortenText('  fix\n the   build ', 60), 'fix the build');
    assert.equal(shortenText('abcdefghij', 5), 'abcd…');
    assert.equal(shortenText('😀😀😀😀😀😀', 4), '😀😀😀…');
    const label = taskLabel({ id: 'task_1', objective: 'x'.repeat(200) });
    assert.equal(Array.from(label).length, TASK_LABEL_MAX);
  });

  it('labels by name and falls back to the id', () => {
    assert.equal(fileLabel({ id: 'file_1', filename: 'report.pdf' }), 'report.pdf');
    assert.equal(fileLabel({ id: 'file_1', filename: '  ' }), 'file_1');
    assert.equal(taskLabel({ id: 'task_1' }), 'task_1');
  });

  it('describes a file as purpose · size · time, skipping what is missing', () => {
    const parts = fileDescriptionParts({ id: 'f', purpose: 'dataset', bytes: 2048, created_at: '2026-11-21T09:05:00Z' }, BERLIN);
    assert.equal(joinDescription(parts), 'dataset · 2.0 KB · 10:05');
    assert.deepEqual(fileDescriptionParts({ id: 'f' }), []);
  });

  it('describes tasks and runs by status (unknown ones verbatim) and time', () => {
    const task = taskDescriptionParts({ id: 't', status: 'awaiting_approval', created_at: '2026-11-21T09:05:00Z' }, t, BERLIN);
    assert.deepEqual(task, ['awaiting_approval', '10:05']);
    const run = runDescriptionParts({ id: 'r', status: 'running', created_at: '2026-11-21T08:00:00Z', started_at: '2026-11-21T09:05:00Z' }, t, BERLIN);
    assert.deepEqual(run, ['running', '10:05']);
    assert.deepEqual(artifactDescriptionParts({ id: 'a', bytes: 10 }, BERLIN), ['10 B']);
  });

  it('builds the accessibility label from kind, label and description', () => {
    assert.equal(accessibilityLabel('File', 'a.txt', ['dataset', '1.0 KB']), 'File, a.txt, dataset, 1.0 KB');
  });

  it('puts id, purpose, bytes and created time (local and UTC) in the file tooltip', () => {
    const md = fileTooltip({ id: 'file_abc', filename: 'data.csv', purpose: 'dataset', bytes: 4096, created_at: '2026-11-21T23:28:52Z' }, t, BERLIN);
    assert.match(md, /^\*\*data\\\.csv\*\*/);
    assert.match(md, /ID: `file_abc`/);
    assert.match(md, /Purpose: dataset/);
    assert.match(md, /Size: 4\\\.0 KB \\\(4,096 bytes\\\)/);
    assert.match(md, /Created: 22 Nov 2026/);
    assert.match(md, /Created \\\(UTC\\\): 2026\\-11\\-21 23\\:28\\:52 UTC/);
  });

  it('escapes server text so it cannot inject links, images or HTML into a tooltip', () => {
    const md = taskTooltip({ id: 'task_1', objective: '[click](command:evil) <img src=x> **bold**\nnext' }, t);
    assert.ok(!/(?<!\\)\[click(?<!\\)\]/.test(md), md);
    assert.ok(!/(?<!\\)<img/.test(md), md);
    assert.ok(md.startsWith('**\\[click\\]\\(command\\:evil\\) \\<img src=x\\> \\*\\*bold\\*\\* next**'), md);
    assert.equal(escapeMarkdown('a_b*c'), 'a\\_b\\*c');
  });

  it('shows an id holding a backtick as escaped text, not broken inline code', () => {
    const md = fileTooltip({ id: 'file_`x' }, t);
    assert.match(md, /ID: file\\_\\`x/);
  });

  it('names the run, its task, status, error and times in the run tooltip', () => {
    const md = runTooltip({ id: 'run_1', task_id: 'task_1', status: 'failed', error: { message: 'tool crashed' }, created_at: '2026-11-21T09:00:00Z', completed_at: '2026-11-21T09:05:00Z' }, t, BERLIN, 'Summarise');
    assert.match(md, /^\*\*Summarise\*\*/);
    assert.match(md, /Task: `task_1`/);
    assert.match(md, /Status: failed/);
    assert.match(md, /Error: tool crashed/);
    assert.match(md, /Finished: /);
    assert.ok(!/Started:/.test(md), 'a missing time gives no row');
  });

  it('shows an artifact with its run and file ids', () => {
    const md = artifactTooltip({ id: 'art_1', run_id: 'run_1', file_id: 'file_9', name: 'out.md', bytes: 12 }, t);
    assert.match(md, /Run: `run_1`/);
    assert.match(md, /File: `file_9`/);
    assert.match(md, /Size: 12 bytes/);
  });
});
