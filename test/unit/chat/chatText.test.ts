// What @agent-runtime writes: a run in short, a followed run's lines, the recent tasks. Hostile
// service strings render as text (markdown-it, linkify and HTML on): only our own list, bold and
// paragraph elements appear.
import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { chatErrorMessage, digestMarkdown, RunProgressLines, tasksMarkdown } from '../../../src/chat/chatText';
import { untranslated } from '../../../src/common/translate';
import { RunDigestBuilder } from '../../../src/runs/runDigest';
import { MARKDOWN_LURE } from '../../runtime/hostile';
import { startRuntimeWithClient } from '../api/fixtures';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (o: { linkify: boolean; html: boolean }) => {
  render(md: string): string;
};
const md = new MarkdownIt({ linkify: true, html: true });
const OURS = new Set(['<p', '<ul', '<li', '<strong']);
const foreignTags = (markdown: string): string[] =>
  (md.render(markdown).match(/<[a-z][a-z0-9]*/gi) ?? []).filter((tag) => !OURS.has(tag));

const HOSTILE =
  '[click](command:agentRuntime.approveToolCall) ![i](https://evil.example/p.png) <img src=x onerror=alert(1)> `code` $(alert) https://evil.example \u202egnp.exe\n# forged heading';
const ev = (sequence: number, event: string, data: Record<string, unknown> = {}) => ({
  event,
  data: { sequence, ...data },
});

describe('chat/chatText', () => {
  it("the error line carries the service's message as text: no link, no tracking image", () => {
    const err = new ApiError({
      kind: 'authentication',
      status: 401,
      message: 'Key expired. [Renew it here](https://evil.example/renew) ![t](https://evil.example/track.png)',
    });
    const line = chatErrorMessage(err, untranslated);
    assert.match(line, /^The Agent Runtime service could not answer: /);
    assert.deepEqual(foreignTags(line), [], md.render(line));
    assert.ok(md.render(line).includes('Renew it here'), 'the words are still there');
    assert.deepEqual(foreignTags(chatErrorMessage(new Error(HOSTILE), untranslated)), []);
  });

  it("a hostile runtime's error message (link, tracking image, command link, HTML) is text in the error line", async () => {
    const rt = await startRuntimeWithClient({ hostile: { errorMessages: true } });
    try {
      const err = await rt.client.getRun('run_missing').then(
        () => assert.fail('the run does not exist'),
        (e: unknown) => e,
      );
      const line = chatErrorMessage(err, untranslated);
      assert.ok(line.includes('Renew it here'), line);
      assert.deepEqual(foreignTags(line), [], md.render(line));
    } finally {
      await rt.close();
    }
    assert.ok(MARKDOWN_LURE.includes('](https://'));
  });

  it('resumed_from and forked_from: only run ids are kept, and the chat writes them as text', () => {
    const hostile = new RunDigestBuilder({
      id: 'run_1',
      status: 'completed',
      resumed_from: HOSTILE,
      forked_from: { run_id: HOSTILE, sequence: 3 },
    }).digest();
    assert.equal(hostile.resumedFrom, undefined);
    assert.equal(hostile.forkedFrom?.runId, undefined);
    assert.ok(!digestMarkdown(hostile, untranslated).includes('evil.example'));
    const lineage = new RunDigestBuilder({
      id: 'run_2',
      resumed_from: 'run_old',
      forked_from: { run_id: 'run_base', sequence: 3 },
    }).digest();
    const text = digestMarkdown(lineage, untranslated);
    assert.ok(md.render(text).includes('Resumed from run_old'), md.render(text));
    assert.ok(md.render(text).includes('Forked from run_base after event 3'));
    // The chat escapes whatever a digest carries, wherever it came from.
    const forged = digestMarkdown({ ...lineage, resumedFrom: HOSTILE, forkedFrom: { runId: HOSTILE } }, untranslated);
    assert.deepEqual(foreignTags(forged), [], md.render(forged));
  });

  it('writes a hostile run in short as text only', () => {
    const b = new RunDigestBuilder({
      id: 'run_1',
      status: HOSTILE,
      usage: { cost: { amount: HOSTILE, currency: 'USD' } },
      error: { message: HOSTILE },
    });
    b.add(ev(1, 'plan.created', { steps: 2, strategy: HOSTILE }));
    b.add(ev(2, 'step.started', { step_id: HOSTILE, title: HOSTILE }));
    b.add(ev(3, HOSTILE, { summary: HOSTILE }));
    b.add(ev(4, 'approval.requested', { approval_id: 'apr_1', tool: HOSTILE }));
    const text = digestMarkdown(b.digest(), untranslated);
    assert.deepEqual(foreignTags(text), [], md.render(text));
    assert.ok(!md.render(text).includes('$('));
    assert.ok(!text.includes('\u202e'));
    assert.match(text, /Waits for your decision/);
    assert.match(text, /Steps done: 0 of 2/);
  });

  it('writes hostile tasks as text only', () => {
    const text = tasksMarkdown([{ id: 'task_1', objective: HOSTILE, status: HOSTILE, run_id: HOSTILE }], untranslated);
    assert.deepEqual(foreignTags(text), [], md.render(text));
  });

  it('follows a run: a line per step done (named by its title), progress for the rest', () => {
    const lines = new RunProgressLines(untranslated);
    assert.deepEqual(lines.next(ev(1, 'plan.created', { steps: 3 })), { line: 'Planned 3 steps.' });
    assert.deepEqual(new RunProgressLines(untranslated).next(ev(1, 'plan.created', { steps: 1 })), {
      line: 'Planned 1 step.',
    });
    assert.deepEqual(lines.next(ev(2, 'step.started', { step_id: 's1', title: 'Read the notes' })), {
      progress: 'Working on: Read the notes',
    });
    assert.deepEqual(lines.next(ev(3, 'tool.called', { step_id: 's1', tool: 'read_file' })), {
      progress: 'Calling the tool read\\_file',
    });
    assert.deepEqual(
      lines.next(ev(4, 'step.completed', { step_id: 's1', duration_ms: 1500 })).line?.startsWith('✓ Read the notes'),
      true,
    );
    assert.match(
      lines.next(ev(5, 'approval.requested', { approval_id: 'a', tool: 'write_file' })).line ?? '',
      /Waits for your decision on the tool write\\_file/,
    );
    assert.deepEqual(lines.next(ev(6, 'something.else')), {});
  });

  it('follows a hostile run as text only', () => {
    const lines = new RunProgressLines(untranslated);
    const out = [
      lines.next(ev(1, 'step.started', { step_id: 'x', title: HOSTILE })),
      lines.next(ev(2, 'observation.recorded', { summary: HOSTILE })),
      lines.next(ev(3, 'step.completed', { step_id: 'x' })),
      lines.next(ev(4, 'approval.requested', { tool: HOSTILE })),
    ]
      .flatMap((o) => [o.line ?? '', o.progress ?? ''])
      .join('\n\n');
    assert.deepEqual(foreignTags(out), [], md.render(out));
  });
});
