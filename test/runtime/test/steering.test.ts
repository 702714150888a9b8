// Steering runs: cancel, resume after the last completed step, fork from a point of the log.
import * as assert from 'node:assert';
import { type RuntimeHandle, startRuntime } from '../index';
import { call, createTask, errorOf, readEvents, runToEnd, type SseReading, uploadOk } from './runtimeTestKit';

const DOC_A = '# A\n\nalpha\n';
const DOC_B = '# B\n\nbeta\n';

type RunEvent = SseReading['events'][number];

const stepsStarted = (events: RunEvent[]): string[] =>
  events.filter((e) => e.event === 'step.started').map((e) => e.data.step_id as string);
const stepsCompleted = (events: RunEvent[]): string[] =>
  events.filter((e) => e.event === 'step.completed').map((e) => e.data.step_id as string);
const withoutSequence = (events: RunEvent[]): { event: string; data: Record<string, unknown> }[] =>
  events.map(({ event, data }) => {
    const { sequence: _ignored, ...rest } = data;
    return { event, data: rest };
  });

describe('runtime: steering runs', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime();
  });
  afterEach(() => rt.close());

  /** A two-document run cancelled once its first step is complete (paced, so it is mid-way). */
  const cancelledAfterFirstStep = async (
    runtime: RuntimeHandle,
  ): Promise<{ id: string; run_id: string; source: RunEvent[] }> => {
    const a = await uploadOk(runtime, 'a.md', DOC_A);
    const b = await uploadOk(runtime, 'b.md', DOC_B);
    const task = await createTask(runtime, 'Read both', [a, b]);
    await readEvents(runtime, task.run_id, { stopWhen: (r) => r.events.some((e) => e.event === 'step.completed') });
    const cancelled = await call(runtime, 'POST', `/v1/runs/${task.run_id}/cancel`);
    assert.strictEqual(cancelled.status, 200);
    return { ...task, source: (await runToEnd(runtime, task.run_id)).events };
  };

  describe('cancel', () => {
    it('answers 409 run_not_active for a run that has already ended, and 404 for an unknown run', async () => {
      const task = await createTask(rt, 'Quick');
      await runToEnd(rt, task.run_id);
      const late = await call(rt, 'POST', `/v1/runs/${task.run_id}/cancel`);
      assert.strictEqual(late.status, 409);
      assert.strictEqual(errorOf(late).code, 'run_not_active');
      assert.strictEqual(
        (await call(rt, 'GET', `/v1/runs/${task.run_id}`)).json.status,
        'completed',
        'nothing changed',
      );
      assert.strictEqual((await call(rt, 'POST', '/v1/runs/run_none/cancel')).status, 404);
    });

    it('cancels once: a second cancel gets 409, a retry with the same Idempotency-Key gets the first answer', async () => {
      const paced = await startRuntime({ eventDelayMs: 20 });
      try {
        const task = await createTask(paced, 'Stop me');
        const first = await call(paced, 'POST', `/v1/runs/${task.run_id}/cancel`, {
          headers: { 'Idempotency-Key': 'cancel-1' },
        });
        assert.strictEqual(first.json.status, 'cancelled');
        const replay = await call(paced, 'POST', `/v1/runs/${task.run_id}/cancel`, {
          headers: { 'Idempotency-Key': 'cancel-1' },
        });
        assert.strictEqual(replay.status, 200);
        assert.strictEqual(replay.headers.get('idempotent-replayed'), 'true');
        const again = await call(paced, 'POST', `/v1/runs/${task.run_id}/cancel`, {
          headers: { 'Idempotency-Key': 'cancel-2' },
        });
        assert.strictEqual(again.status, 409);
        const { events } = await runToEnd(paced, task.run_id);
        assert.strictEqual(events.filter((e) => e.event === 'run.cancelled').length, 1);
      } finally {
        await paced.close();
      }
    });
  });

  describe('resume', () => {
    it('starts a new run of the task that goes on after the last completed step', async () => {
      const paced = await startRuntime({ eventDelayMs: 15 });
      try {
        const source = await cancelledAfterFirstStep(paced);
        const done = stepsCompleted(source.source);
        assert.ok(done.includes('step_1'));
        const resumed = await call(paced, 'POST', `/v1/runs/${source.run_id}/resume`, { body: {} });
        assert.strictEqual(resumed.status, 201);
        const run = resumed.json;
        assert.match(run.id as string, /^run_/);
        assert.notStrictEqual(run.id, source.run_id);
        assert.strictEqual(run.object, 'run');
        assert.strictEqual(run.task_id, source.id);
        assert.strictEqual(run.resumed_from, source.run_id);
        assert.strictEqual(
          (await call(paced, 'GET', `/v1/tasks/${source.id}`)).json.run_id,
          run.id,
          'the task follows its newest run',
        );

        const { events } = await runToEnd(paced, run.id as string);
        const remaining = ['step_1', 'step_2', 'step_3', 'step_4'].filter((id) => !done.includes(id));
        assert.deepStrictEqual(stepsStarted(events), remaining, 'completed steps are not redone');
        assert.strictEqual(events[0].event, 'plan.created');
        assert.strictEqual(events[0].data.steps, remaining.length);
        assert.strictEqual(events[0].data.resumed_from, source.run_id);
        assert.strictEqual(events[events.length - 1].event, 'run.completed');
        const report = (
          (await call(paced, 'GET', `/v1/runs/${run.id}/artifacts`)).json.data as { name: string; file_id: string }[]
        ).find((a) => a.name === 'report.md');
        const text = (await call(paced, 'GET', `/v1/files/${report?.file_id}/content`)).text;
        assert.match(text, /\| a\.md \|/, 'the report still covers the document read by the first run');
        assert.match(text, /\| b\.md \|/);
        assert.strictEqual(
          (await call(paced, 'GET', `/v1/runs/${source.run_id}`)).json.status,
          'cancelled',
          'the source is left as it was',
        );
      } finally {
        await paced.close();
      }
    });

    it("does the instructions as a follow-up step first, numbered after the task's own steps", async () => {
      const paced = await startRuntime({ eventDelayMs: 20 });
      try {
        const task = await createTask(paced, 'Nothing attached');
        assert.strictEqual((await call(paced, 'POST', `/v1/runs/${task.run_id}/cancel`)).status, 200);
        const resumed = await call(paced, 'POST', `/v1/runs/${task.run_id}/resume`, {
          body: { instructions: 'Also list the risks' },
        });
        assert.strictEqual(resumed.status, 201);
        const { events } = await runToEnd(paced, resumed.json.id as string);
        const started = events.filter((e) => e.event === 'step.started').map((e) => [e.data.step_id, e.data.title]);
        assert.deepStrictEqual(started, [
          ['step_2', 'Follow-up: Also list the risks'],
          ['step_1', 'Write the report'],
        ]);
        assert.match(
          events.find((e) => e.event === 'observation.recorded')?.data.summary as string,
          /Also list the risks/,
        );
        assert.strictEqual(events[events.length - 1].event, 'run.completed');
      } finally {
        await paced.close();
      }
    });

    it('answers 409 run_not_resumable for a completed, running or synthetic run', async () => {
      const task = await createTask(rt, 'Done already');
      await runToEnd(rt, task.run_id);
      const completed = await call(rt, 'POST', `/v1/runs/${task.run_id}/resume`, { body: {} });
      assert.strictEqual(completed.status, 409);
      assert.strictEqual(errorOf(completed).code, 'run_not_resumable');
      const open = await rt.createSyntheticRun({ events: 2, terminal: null });
      assert.strictEqual(
        errorOf(await call(rt, 'POST', `/v1/runs/${open}/resume`, { body: {} })).code,
        'run_not_resumable',
      );
      const failed = await rt.createSyntheticRun({ events: 2, terminal: 'failed' });
      assert.strictEqual(
        errorOf(await call(rt, 'POST', `/v1/runs/${failed}/resume`, { body: {} })).code,
        'run_not_resumable',
      );
      assert.strictEqual((await call(rt, 'POST', '/v1/runs/run_none/resume', { body: {} })).status, 404);
      assert.strictEqual(
        errorOf(await call(rt, 'POST', `/v1/runs/${task.run_id}/resume`, { body: { instructions: 5 } })).param,
        'instructions',
      );
    });
  });

  describe('fork', () => {
    it("starts a new run whose log begins with a copy of the source's events 1..after_sequence, then goes on", async () => {
      const a = await uploadOk(rt, 'a.md', DOC_A);
      const b = await uploadOk(rt, 'b.md', DOC_B);
      const task = await createTask(rt, 'Read both', [a, b]);
      const source = (await runToEnd(rt, task.run_id)).events;
      const cut = source.find((e) => e.event === 'step.completed' && e.data.step_id === 'step_1')?.data
        .sequence as number;

      const forked = await call(rt, 'POST', `/v1/runs/${task.run_id}/fork`, { body: { after_sequence: cut } });
      assert.strictEqual(forked.status, 201);
      assert.deepStrictEqual(forked.json.forked_from, { run_id: task.run_id, sequence: cut });
      assert.strictEqual(forked.json.task_id, task.id);
      const { events } = await runToEnd(rt, forked.json.id as string);
      events.forEach((e, i) => assert.strictEqual(e.data.sequence, i + 1, 'numbered from 1 without gaps'));
      assert.deepStrictEqual(
        withoutSequence(events.slice(0, cut)),
        withoutSequence(source.slice(0, cut)),
        'same kinds and data',
      );
      assert.deepStrictEqual(stepsStarted(events.slice(cut)), ['step_2', 'step_3', 'step_4']);
      assert.strictEqual(events[events.length - 1].event, 'run.completed');
    });

    it('copies a whole finished log without its end, then does the instructions as a follow-up step', async () => {
      const task = await createTask(rt, 'Short');
      const source = (await runToEnd(rt, task.run_id)).events;
      const last = source.length;
      const forked = await call(rt, 'POST', `/v1/runs/${task.run_id}/fork`, {
        body: { after_sequence: last, instructions: 'Now also do X' },
      });
      assert.strictEqual(forked.status, 201);
      const { events } = await runToEnd(rt, forked.json.id as string);
      assert.deepStrictEqual(withoutSequence(events.slice(0, last - 1)), withoutSequence(source.slice(0, last - 1)));
      assert.deepStrictEqual(
        events.slice(last - 1).map((e) => e.event),
        ['step.started', 'observation.recorded', 'step.completed', 'run.completed'],
      );
      assert.strictEqual(events[last - 1].data.title, 'Follow-up: Now also do X');
    });

    it('forks a synthetic run too, copying its generated events', async () => {
      const runId = await rt.createSyntheticRun({ events: 10 });
      const forked = await call(rt, 'POST', `/v1/runs/${runId}/fork`, { body: { after_sequence: 6 } });
      const { events } = await runToEnd(rt, forked.json.id as string);
      const source = (await readEvents(rt, runId)).events;
      assert.deepStrictEqual(withoutSequence(events.slice(0, 6)), withoutSequence(source.slice(0, 6)));
    });

    it('makes one fork of a retry with the same Idempotency-Key, and replays it', async () => {
      const runId = await rt.createSyntheticRun({ events: 4 });
      const request = { body: { after_sequence: 2 }, headers: { 'Idempotency-Key': 'fork-once' } };
      const first = await call(rt, 'POST', `/v1/runs/${runId}/fork`, request);
      const again = await call(rt, 'POST', `/v1/runs/${runId}/fork`, request);
      assert.strictEqual(again.headers.get('idempotent-replayed'), 'true');
      assert.strictEqual(again.json.id, first.json.id);
      const taskRuns = (await call(rt, 'GET', `/v1/runs?task_id=${first.json.task_id}`)).json.data as unknown[];
      assert.strictEqual(taskRuns.length, 2, 'the source and one fork');
    });

    it('answers 400 for an after_sequence past the end, or not a positive integer', async () => {
      const runId = await rt.createSyntheticRun({ events: 4 });
      const past = await call(rt, 'POST', `/v1/runs/${runId}/fork`, { body: { after_sequence: 6 } });
      assert.strictEqual(past.status, 400);
      assert.strictEqual(errorOf(past).param, 'after_sequence');
      for (const after of [0, -1, 1.5, '2', null]) {
        const res = await call(rt, 'POST', `/v1/runs/${runId}/fork`, { body: { after_sequence: after } });
        assert.strictEqual(res.status, 400, `after_sequence ${JSON.stringify(after)}`);
        assert.strictEqual(errorOf(res).param, 'after_sequence');
      }
      assert.strictEqual(
        errorOf(await call(rt, 'POST', `/v1/runs/${runId}/fork`, { body: {} })).code,
        'missing_parameter',
      );
      assert.strictEqual(
        (await call(rt, 'POST', '/v1/runs/run_none/fork', { body: { after_sequence: 1 } })).status,
        404,
      );
      assert.strictEqual(
        (await call(rt, 'POST', `/v1/runs/${runId}/fork`, { body: { after_sequence: 5 } })).status,
        201,
        'the terminal event is still inside the log',
      );
    });
  });
});
