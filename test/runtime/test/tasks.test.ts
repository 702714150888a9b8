// POST /v1/tasks validation, and the built-in agent's run: events over real content, artifacts, statuses.
import * as assert from 'node:assert';
import { type RuntimeHandle, startRuntime } from '../index';
import { call, createTask, errorOf, readEvents, runToEnd, uploadOk } from './runtimeTestKit';

const NOTES = '# Project notes\n\nThe quick brown fox.\n\n## Goals\nShip it soon\n\n## Risks\nNone known\n';

describe('runtime: tasks and the built-in agent', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime();
  });
  afterEach(() => rt.close());

  describe('validation', () => {
    const expect400 = async (body: unknown, param: string | undefined, status = 400): Promise<void> => {
      const res = await call(rt, 'POST', '/v1/tasks', { body });
      assert.strictEqual(res.status, status, JSON.stringify(body));
      assert.strictEqual(errorOf(res).type, 'invalid_request_error');
      assert.strictEqual(errorOf(res).param, param, JSON.stringify(body));
    };

    it('requires objective to be a non-empty string', async () => {
      await expect400({}, 'objective');
      await expect400({ objective: '' }, 'objective');
      await expect400({ objective: '   ' }, 'objective');
      await expect400({ objective: 42 }, 'objective');
    });

    it('requires attachments to be an array of documents naming existing files', async () => {
      const fileId = await uploadOk(rt, 'a.txt', 'x');
      await expect400({ objective: 'x', attachments: 'nope' }, 'attachments');
      await expect400({ objective: 'x', attachments: ['nope'] }, 'attachments[0]');
      await expect400({ objective: 'x', attachments: [{ type: 'image', fileId }] }, 'attachments[0].type');
      await expect400(
        { objective: 'x', attachments: [{ type: 'document', fileId }, { type: 'document' }] },
        'attachments[1].fileId',
      );
      await expect400(
        { objective: 'x', attachments: [{ type: 'document', fileId: 'file_missing' }] },
        'attachments[0].fileId',
        404,
      );
    });

    it('rejects a body that is not a JSON object', async () => {
      const broken = await call(rt, 'POST', '/v1/tasks', { body: '{"objective":' });
      assert.strictEqual(broken.status, 400);
      assert.strictEqual(errorOf(broken).code, 'invalid_json');
      assert.strictEqual((await call(rt, 'POST', '/v1/tasks', { body: '[1]' })).status, 400);
    });

    it('creates nothing for an invalid request', async () => {
      await call(rt, 'POST', '/v1/tasks', { body: { objective: '' } });
      assert.deepStrictEqual((await call(rt, 'GET', '/v1/tasks')).json.data, []);
    });
  });

  it('returns a queued task with its run id, and the task and run records', async () => {
    const fileId = await uploadOk(rt, 'notes.md', NOTES);
    const res = await call(rt, 'POST', '/v1/tasks', {
      body: { objective: 'Summarise', attachments: [{ type: 'document', fileId }] },
    });
    assert.strictEqual(res.status, 201);
    const task = res.json;
    assert.match(task.id as string, /^task_/);
    assert.strictEqual(task.object, 'task');
    assert.strictEqual(task.objective, 'Summarise');
    assert.strictEqual(task.status, 'queued', 'the agent starts asynchronously');
    assert.deepStrictEqual(task.attachments, [{ type: 'document', fileId }]);
    assert.match(task.run_id as string, /^run_/);
    const run = (await call(rt, 'GET', `/v1/runs/${task.run_id}`)).json;
    assert.strictEqual(run.object, 'run');
    assert.strictEqual(run.task_id, task.id);
    assert.strictEqual((await call(rt, 'GET', `/v1/tasks/${task.id}`)).json.id, task.id);
    assert.strictEqual((await call(rt, 'GET', '/v1/tasks/task_none')).status, 404);
    assert.strictEqual((await call(rt, 'GET', '/v1/runs/run_none')).status, 404);
  });

  it('runs over the real content: plan, steps, tools, observations, measured durations, run.completed', async () => {
    const fileId = await uploadOk(rt, 'notes.md', NOTES);
    const task = await createTask(rt, 'Summarise', [fileId]);
    const { events } = await runToEnd(rt, task.run_id);
    const names = events.map((e) => e.event);
    assert.deepStrictEqual(names.slice(0, 9), [
      'plan.created',
      'step.started',
      'tool.called',
      'observation.recorded',
      'tool.called',
      'observation.recorded',
      'tool.called',
      'observation.recorded',
      'step.completed',
    ]);
    assert.strictEqual(names[names.length - 1], 'run.completed');
    events.forEach((e, i) => assert.strictEqual(e.data.sequence, i + 1, 'sequences 1..n without gaps'));

    assert.strictEqual(events[0].data.steps, 3, 'read, revise, report');
    assert.strictEqual(typeof events[0].data.strategy, 'string');
    assert.deepStrictEqual(events[1].data, { sequence: 2, step_id: 'step_1', title: 'Read notes.md' });
    assert.deepStrictEqual(
      events.filter((e) => e.event === 'tool.called').map((e) => e.data.tool),
      ['read_file', 'count_words', 'extract_headings', 'edit_files', 'write_file'],
    );
    const summaries = events.filter((e) => e.event === 'observation.recorded').map((e) => e.data.summary as string);
    assert.strictEqual(summaries[0], `Read notes.md: ${Buffer.byteLength(NOTES)} bytes in 9 line(s).`);
    assert.strictEqual(summaries[1], 'notes.md has 16 word(s).');
    assert.strictEqual(summaries[2], 'notes.md has 3 heading(s): Project notes; Goals; Risks.');
    for (const done of events.filter((e) => e.event === 'step.completed')) {
      assert.ok(Number.isInteger(done.data.duration_ms) && (done.data.duration_ms as number) >= 0);
    }
    assert.deepStrictEqual(events[events.length - 1].data, { sequence: events.length, status: 'completed' });

    const run = (await call(rt, 'GET', `/v1/runs/${task.run_id}`)).json;
    assert.strictEqual(run.status, 'completed');
    assert.ok(run.started_at && run.completed_at);
    assert.ok((run.started_at as string) <= (run.completed_at as string));
    assert.strictEqual((await call(rt, 'GET', `/v1/tasks/${task.id}`)).json.status, 'completed');
  });

  it('writes a Markdown report and a JSON summary as artifacts whose content is downloadable', async () => {
    const fileId = await uploadOk(rt, 'notes.md', NOTES);
    const task = await createTask(rt, 'Summarise the notes', [fileId]);
    await runToEnd(rt, task.run_id);
    const list = await call(rt, 'GET', `/v1/runs/${task.run_id}/artifacts`);
    const artifacts = list.json.data as Record<string, unknown>[];
    assert.deepStrictEqual(artifacts.map((a) => a.name).sort(), [
      'changes.patch',
      'notes.md',
      'report.md',
      'summary.json',
    ]);
    for (const artifact of artifacts.filter((a) => a.name === 'report.md' || a.name === 'summary.json')) {
      assert.match(artifact.id as string, /^art_/);
      assert.strictEqual(artifact.object, 'artifact');
      assert.strictEqual(artifact.run_id, task.run_id);
      const content = await call(rt, 'GET', `/v1/files/${artifact.file_id}/content`);
      assert.strictEqual(content.status, 200);
      assert.strictEqual(Buffer.byteLength(content.text), artifact.bytes);
      assert.strictEqual(content.headers.get('content-type'), artifact.content_type);
      if (artifact.name === 'report.md') {
        assert.match(content.text, /^# Report: Summarise the notes/);
        assert.match(content.text, /\| notes\.md \| 82 \| 9 \| 16 \| 3 \|/);
        assert.match(content.text, /- Goals/);
      } else {
        const summary = JSON.parse(content.text) as {
          documents: { headings: string[]; words: number }[];
          run_id: string;
        };
        assert.strictEqual(summary.run_id, task.run_id);
        assert.deepStrictEqual(summary.documents[0].headings, ['Project notes', 'Goals', 'Risks']);
        assert.strictEqual(summary.documents[0].words, 16);
      }
    }
    const uploads = (await call(rt, 'GET', '/v1/files')).json.data as { id: string }[];
    assert.deepStrictEqual(
      uploads.map((f) => f.id),
      [fileId],
      'artifact files stay out of the plain file list',
    );
    assert.strictEqual(((await call(rt, 'GET', '/v1/files?purpose=artifact')).json.data as unknown[]).length, 4);
  });

  it('answers 400 too_many_attachments with the limit past 100 attachments (maxAttachments)', async () => {
    const fileId = await uploadOk(rt, 'a.md', '# A\n');
    const attachments = (n: number) => Array.from({ length: n }, () => ({ type: 'document', fileId }));
    const res = await call(rt, 'POST', '/v1/tasks', { body: { objective: 'Too many', attachments: attachments(101) } });
    assert.strictEqual(res.status, 400);
    const error = res.json.error as Record<string, unknown>;
    assert.deepStrictEqual(
      [error.type, error.code, error.param, error.limit],
      ['invalid_request_error', 'too_many_attachments', 'attachments', 100],
    );
    assert.strictEqual(typeof error.message, 'string');
    assert.strictEqual(
      (await call(rt, 'POST', '/v1/tasks', { body: { objective: 'Just enough', attachments: attachments(100) } }))
        .status,
      201,
    );

    const small = await startRuntime({ maxAttachments: 2 });
    try {
      const other = await uploadOk(small, 'a.md', '# A\n');
      const three = Array.from({ length: 3 }, () => ({ type: 'document', fileId: other }));
      const refused = await call(small, 'POST', '/v1/tasks', { body: { objective: 'Three', attachments: three } });
      assert.strictEqual((refused.json.error as Record<string, unknown>).limit, 2);
    } finally {
      await small.close();
    }
  });

  it('runs a short plan for a task without attachments', async () => {
    const task = await createTask(rt, 'Think about nothing');
    const { events } = await runToEnd(rt, task.run_id);
    assert.strictEqual(events[0].event, 'plan.created');
    assert.strictEqual(events[0].data.steps, 1);
    assert.strictEqual(events[events.length - 1].event, 'run.completed');
    const artifacts = (await call(rt, 'GET', `/v1/runs/${task.run_id}/artifacts`)).json.data as unknown[];
    assert.strictEqual(artifacts.length, 2);
  });

  for (const [label, content, reason] of [
    ['NUL bytes', Buffer.from([0x68, 0x69, 0x00, 0x21]), 'NUL bytes'],
    ['invalid UTF-8', Buffer.from([0x68, 0xc3, 0x28, 0x69]), 'not valid UTF-8'],
  ] as const) {
    it(`fails the run with run.failed for an attachment with ${label}`, async () => {
      const good = await uploadOk(rt, 'good.md', NOTES);
      const bad = await uploadOk(rt, 'data.bin', content);
      const task = await createTask(rt, 'Read both', [good, bad]);
      const { events } = await runToEnd(rt, task.run_id);
      const last = events[events.length - 1];
      assert.strictEqual(last.event, 'run.failed');
      assert.strictEqual(last.data.status, 'failed');
      assert.match(last.data.error as string, new RegExp(reason));
      const observation = events.filter((e) => e.event === 'observation.recorded').pop();
      assert.match(observation?.data.summary as string, /data\.bin cannot be read as text/);
      const run = (await call(rt, 'GET', `/v1/runs/${task.run_id}`)).json;
      assert.strictEqual(run.status, 'failed');
      assert.strictEqual((await call(rt, 'GET', `/v1/tasks/${task.id}`)).json.status, 'failed');
    });
  }

  it('starts queued, then emits its events at the configured pace and completes', async () => {
    const paced = await startRuntime({ eventDelayMs: 30 });
    try {
      // The clock starts before the task: its agent starts pacing at creation, not when we look.
      const started = Date.now();
      const task = await createTask(paced, 'Pace me');
      // Queued as created; by the time a second request is answered the agent may have started
      // (its first pace is 30 ms, and a loaded machine takes longer than that between requests).
      assert.strictEqual(task.status, 'queued');
      assert.ok(
        ['queued', 'running'].includes((await call(paced, 'GET', `/v1/runs/${task.run_id}`)).json.status as string),
      );
      const { events } = await runToEnd(paced, task.run_id);
      assert.strictEqual((await call(paced, 'GET', `/v1/runs/${task.run_id}`)).json.status, 'completed');
      const elapsed = Date.now() - started;
      assert.ok(
        elapsed >= 30 * (events.length - 1) * 0.8,
        `events are paced (took ${elapsed} ms for ${events.length})`,
      );
      const stepDone = events.find((e) => e.event === 'step.completed');
      assert.ok((stepDone?.data.duration_ms as number) >= 30 * 3 * 0.8, 'duration_ms is measured, pace included');
    } finally {
      await paced.close();
    }
  });

  it('lets a client watch the run live: status running while events arrive', async () => {
    const paced = await startRuntime({ eventDelayMs: 20 });
    try {
      const task = await createTask(paced, 'Watch me');
      const { events } = await readEvents(paced, task.run_id, {
        stopWhen: (r) => r.events.length >= 2,
      });
      const statusWhileRunning = (await call(paced, 'GET', `/v1/runs/${task.run_id}`)).json.status as string;
      assert.ok(events.length >= 2);
      assert.strictEqual(statusWhileRunning, 'running');
    } finally {
      await paced.close();
    }
  });

  it('cancels a running run: run.cancelled ends the stream and the status says cancelled', async () => {
    const paced = await startRuntime({ eventDelayMs: 20 });
    try {
      const task = await createTask(paced, 'Cancel me');
      const cancelled = await call(paced, 'POST', `/v1/runs/${task.run_id}/cancel`);
      assert.strictEqual(cancelled.status, 200);
      assert.strictEqual(cancelled.json.status, 'cancelled');
      const { events } = await runToEnd(paced, task.run_id);
      assert.strictEqual(events[events.length - 1].event, 'run.cancelled');
      assert.strictEqual((await call(paced, 'GET', `/v1/tasks/${task.id}`)).json.status, 'cancelled');
    } finally {
      await paced.close();
    }
  });
});
