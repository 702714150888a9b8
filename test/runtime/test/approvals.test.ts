// Approvals: the built-in agent asks before writing, waits, and goes on after a decision or expiry.
import * as assert from 'node:assert';
import { type RuntimeHandle, startRuntime } from '../index';
import {
  call,
  createTask,
  decide,
  errorOf,
  firstApproval,
  pendingApproval,
  readEvents,
  runToEnd,
  untilRunStatus,
  uploadOk,
} from './runtimeTestKit';

const NOTES = '# Notes\n\nOne.\nTwo.\nThree.\n';
const ASKING = 'Tidy the notes, and ask before writing anything';

type Approval = Record<string, unknown> & { id: string; status: string };

describe('runtime: approvals', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime();
  });
  afterEach(() => rt.close());

  const askingRun = async (runtime = rt): Promise<{ id: string; run_id: string; fileId: string }> => {
    const fileId = await uploadOk(runtime, 'notes.md', NOTES);
    return { ...(await createTask(runtime, ASKING, [fileId])), fileId };
  };

  it('puts the run in awaiting_approval with approval.requested, and lists and serves the pending record', async () => {
    const task = await askingRun();
    const approval = (await pendingApproval(rt, task.run_id)) as Approval;
    assert.match(approval.id, /^apr_/);
    assert.strictEqual(approval.object, 'approval');
    assert.strictEqual(approval.run_id, task.run_id);
    assert.strictEqual(approval.task_id, task.id);
    assert.strictEqual(approval.step_id, 'step_2');
    assert.strictEqual(approval.tool, 'edit_files');
    assert.deepStrictEqual(approval.arguments, { files: ['notes.md'], patch: 'changes.patch' });
    assert.strictEqual(typeof approval.reason, 'string');
    assert.strictEqual(approval.status, 'pending');
    assert.ok(Date.parse(approval.expires_at as string) > Date.parse(approval.created_at as string));
    assert.strictEqual(approval.decided_at, undefined);

    assert.strictEqual((await call(rt, 'GET', `/v1/runs/${task.run_id}`)).json.status, 'awaiting_approval');
    assert.strictEqual((await call(rt, 'GET', `/v1/tasks/${task.id}`)).json.status, 'awaiting_approval');
    assert.deepStrictEqual((await call(rt, 'GET', `/v1/approvals/${approval.id}`)).json, approval);
    assert.strictEqual((await call(rt, 'GET', '/v1/approvals/apr_none')).status, 404);

    const reading = await readEvents(rt, task.run_id, {
      stopWhen: (r) => r.events.some((e) => e.event === 'approval.requested'),
    });
    const requested = reading.events.find((e) => e.event === 'approval.requested');
    const { sequence, ...fields } = requested?.data ?? {};
    assert.ok(Number.isInteger(sequence));
    assert.deepStrictEqual(fields, {
      approval_id: approval.id,
      step_id: 'step_2',
      tool: 'edit_files',
      arguments: approval.arguments,
      reason: approval.reason,
      expires_at: approval.expires_at,
    });
    assert.strictEqual(reading.events[reading.events.length - 1].event, 'approval.requested', 'and then it waits');
  });

  it('goes on after an approval: approval.resolved, the tool call, the artifacts, run.completed', async () => {
    const task = await askingRun();
    const first = await pendingApproval(rt, task.run_id);
    const decided = await decide(rt, first.id as string, 'approve', { note: 'looks fine' });
    assert.strictEqual(decided.status, 200);
    assert.strictEqual(decided.json.status, 'approved');
    assert.strictEqual(decided.json.note, 'looks fine');
    assert.ok(decided.json.decided_at);
    const second = await pendingApproval(rt, task.run_id);
    assert.strictEqual(second.tool, 'write_file');
    assert.strictEqual((await decide(rt, second.id as string, 'approve')).status, 200);

    const { events } = await runToEnd(rt, task.run_id);
    const resolved = events
      .filter((e) => e.event === 'approval.resolved')
      .map((e) => ({ ...e.data, sequence: undefined }));
    assert.deepStrictEqual(resolved, [
      { sequence: undefined, approval_id: first.id, status: 'approved', note: 'looks fine' },
      { sequence: undefined, approval_id: second.id, status: 'approved' },
    ]);
    const names = events.map((e) => e.event);
    assert.strictEqual(names[names.indexOf('approval.resolved') + 1], 'tool.called');
    assert.strictEqual(names[names.length - 1], 'run.completed');
    const artifacts = (await call(rt, 'GET', `/v1/runs/${task.run_id}/artifacts`)).json.data as { name: string }[];
    assert.deepStrictEqual(artifacts.map((a) => a.name).sort(), [
      'changes.patch',
      'notes.md',
      'report.md',
      'summary.json',
    ]);
    assert.strictEqual((await call(rt, 'GET', `/v1/runs/${task.run_id}`)).json.status, 'completed');
  });

  it('skips a denied call with an observation saying so, and goes on', async () => {
    const task = await askingRun();
    const first = await pendingApproval(rt, task.run_id);
    const denied = await decide(rt, first.id as string, 'deny', { note: 'not now' });
    assert.strictEqual(denied.json.status, 'denied');
    await decide(rt, (await pendingApproval(rt, task.run_id)).id as string, 'approve');
    const { events } = await runToEnd(rt, task.run_id);
    const skipped = events.find((e) => e.event === 'observation.recorded' && e.data.step_id === 'step_2');
    assert.strictEqual(skipped?.data.summary, 'Skipped edit_files: the approval was denied (note: not now).');
    assert.ok(
      !events.some((e) => e.event === 'tool.called' && e.data.tool === 'edit_files'),
      'the denied call never happened',
    );
    assert.strictEqual(events[events.length - 1].event, 'run.completed');
    const artifacts = (await call(rt, 'GET', `/v1/runs/${task.run_id}/artifacts`)).json.data as { name: string }[];
    assert.deepStrictEqual(artifacts.map((a) => a.name).sort(), ['report.md', 'summary.json']);
  });

  it('answers 409 approval_already_decided with the current record to a second decision', async () => {
    const task = await askingRun();
    const approval = await pendingApproval(rt, task.run_id);
    await decide(rt, approval.id as string, 'deny');
    const again = await decide(rt, approval.id as string, 'approve');
    assert.strictEqual(again.status, 409);
    assert.strictEqual(errorOf(again).code, 'approval_already_decided');
    const current = (again.json.error as { approval: Approval }).approval;
    assert.strictEqual(current.id, approval.id);
    assert.strictEqual(current.status, 'denied');
  });

  it("lets one of two simultaneous decisions win; the other gets 409 with the winner's record", async () => {
    rt.setFaults({ decisionDelayMs: 50 });
    const task = await askingRun();
    const approval = await pendingApproval(rt, task.run_id);
    const answers = await Promise.all([
      decide(rt, approval.id as string, 'approve'),
      decide(rt, approval.id as string, 'deny'),
    ]);
    const won = answers.filter((a) => a.status === 200);
    const lost = answers.filter((a) => a.status === 409);
    assert.strictEqual(won.length, 1);
    assert.strictEqual(lost.length, 1);
    assert.strictEqual(errorOf(lost[0]).code, 'approval_already_decided');
    assert.deepStrictEqual((lost[0].json.error as { approval: Approval }).approval, won[0].json);
    const resolved = rt.eventLog(task.run_id).filter((e) => e.event === 'approval.resolved');
    assert.strictEqual(resolved.length, 1, 'one decision only');
  });

  it('expires an approval nobody decides by expires_at, which counts as a denial', async () => {
    const quick = await startRuntime({ approvalTimeoutMs: 100 });
    try {
      const task = await askingRun(quick);
      const { events } = await runToEnd(quick, task.run_id);
      const resolved = events.filter((e) => e.event === 'approval.resolved');
      assert.deepStrictEqual(
        resolved.map((e) => e.data.status),
        ['expired', 'expired'],
      );
      const skipped = events.filter(
        (e) => e.event === 'observation.recorded' && /^Skipped/.test(e.data.summary as string),
      );
      assert.deepStrictEqual(
        skipped.map((e) => e.data.summary),
        ['Skipped edit_files: the approval was expired.', 'Skipped write_file: the approval was expired.'],
      );
      assert.strictEqual(events[events.length - 1].event, 'run.completed');
      const approvals = (await call(quick, 'GET', `/v1/approvals?run_id=${task.run_id}`)).json.data as Approval[];
      assert.deepStrictEqual(
        approvals.map((a) => a.status),
        ['expired', 'expired'],
      );
      assert.ok(approvals.every((a) => a.decided_at === undefined));
    } finally {
      await quick.close();
    }
  });

  it('answers 409 approval_expired to a decision that arrives after expires_at, and keeps the expiry', async () => {
    const quick = await startRuntime({ approvalTimeoutMs: 100, faults: { decisionDelayMs: 300 } });
    try {
      const task = await askingRun(quick);
      // Its first approval in whatever state: it may expire before a poll sees it pending (a busy
      // machine), and the decision is held 300 ms, past the 100 ms expiry, either way.
      const approval = await firstApproval(quick, task.run_id);
      const late = await decide(quick, approval.id as string, 'approve');
      assert.strictEqual(late.status, 409);
      assert.strictEqual(errorOf(late).code, 'approval_expired');
      assert.strictEqual((late.json.error as { approval: Approval }).approval.status, 'expired');
      await runToEnd(quick, task.run_id);
      const resolved = quick.eventLog(task.run_id).filter((e) => e.event === 'approval.resolved');
      assert.strictEqual(resolved.length, 2, 'one resolution per approval, the late decision added none');
      assert.strictEqual((await call(quick, 'GET', `/v1/approvals/${approval.id}`)).json.status, 'expired');
    } finally {
      await quick.close();
    }
  });

  it('keeps a decision made in time when the expiry comes later', async () => {
    // Five minutes to decide (the default): in time whatever the machine's load; then the clock is
    // moved past both expiries once the second approval is waiting.
    const quick = await startRuntime();
    try {
      const task = await askingRun(quick);
      const approval = await pendingApproval(quick, task.run_id);
      assert.strictEqual((await decide(quick, approval.id as string, 'approve')).json.status, 'approved');
      // The built-in agent asks twice; the clock moves only once the second waits (one opened
      // after the move would get five minutes on the moved clock).
      const second = await pendingApproval(quick, task.run_id);
      assert.notStrictEqual(second.id, approval.id);
      quick.advanceApprovalClock(10 * 60 * 1000);
      const { events } = await runToEnd(quick, task.run_id); // the second approval expired
      assert.ok(
        events.some((e) => e.event === 'approval.resolved' && e.data.status === 'expired'),
        'the clock did run',
      );
      assert.deepStrictEqual(
        events
          .filter((e) => e.data.approval_id === approval.id && e.event === 'approval.resolved')
          .map((e) => e.data.status),
        ['approved'],
      );
      assert.strictEqual((await call(quick, 'GET', `/v1/approvals/${approval.id}`)).json.status, 'approved');
    } finally {
      await quick.close();
    }
  });

  it('makes one decision of a retry with the same Idempotency-Key after a dropped answer', async () => {
    const task = await askingRun();
    const approval = await pendingApproval(rt, task.run_id);
    rt.setFaults({ commitThenDrop: { count: 1, pathPrefix: '/v1/approvals/' } });
    await assert.rejects(
      decide(rt, approval.id as string, 'approve', { key: 'decide-once' }),
      'the first answer never arrives',
    );
    const retry = await decide(rt, approval.id as string, 'approve', { key: 'decide-once' });
    assert.strictEqual(retry.status, 200);
    assert.strictEqual(retry.headers.get('idempotent-replayed'), 'true');
    assert.strictEqual(retry.json.status, 'approved');
    const other = await decide(rt, approval.id as string, 'deny', { key: 'decide-once' });
    assert.strictEqual(other.status, 409);
    assert.strictEqual(errorOf(other).code, 'idempotency_key_reused');
    assert.strictEqual(rt.eventLog(task.run_id).filter((e) => e.event === 'approval.resolved').length, 1);
  });

  it('answers 409 idempotency_key_in_use to a retry while a slow decision is still being made', async () => {
    // Wide margins: the retry must reach the runtime after the slow decision and before it is made,
    // and this process is the runtime too, so a loaded machine delays both.
    rt.setFaults({ decisionDelayMs: 1500 });
    const task = await askingRun();
    const approval = await pendingApproval(rt, task.run_id);
    const slow = decide(rt, approval.id as string, 'approve', { key: 'slow' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const retry = await decide(rt, approval.id as string, 'approve', { key: 'slow' });
    assert.strictEqual(retry.status, 409);
    assert.strictEqual(errorOf(retry).code, 'idempotency_key_in_use');
    assert.strictEqual((await slow).json.status, 'approved');
  });

  it('validates the decision body', async () => {
    const task = await askingRun();
    const approval = await pendingApproval(rt, task.run_id);
    for (const [body, param] of [
      [{}, 'decision'],
      [{ decision: 'maybe' }, 'decision'],
      [{ decision: 'approve', note: 3 }, 'note'],
    ] as const) {
      const res = await call(rt, 'POST', `/v1/approvals/${approval.id}/decision`, { body });
      assert.strictEqual(res.status, 400);
      assert.strictEqual(errorOf(res).param, param);
    }
    assert.strictEqual((await decide(rt, 'apr_none', 'approve')).status, 404);
    assert.strictEqual((await call(rt, 'GET', `/v1/approvals/${approval.id}`)).json.status, 'pending');
  });

  it('lists approvals newest first, filtered by status and run, paged like the other lists', async () => {
    const runIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      runIds.push(await rt.createSyntheticRun({ events: 3, approval: {} }));
    }
    const approvals = () => rt.listApprovals();
    assert.strictEqual(approvals().length, 3);
    rt.decideApproval(approvals()[2].id, 'deny');
    const pending = (await call(rt, 'GET', '/v1/approvals?status=pending')).json;
    assert.deepStrictEqual(
      (pending.data as Approval[]).map((a) => a.run_id),
      [runIds[2], runIds[1]],
    );
    const ofRun = (await call(rt, 'GET', `/v1/approvals?run_id=${runIds[0]}`)).json.data as Approval[];
    assert.deepStrictEqual(
      ofRun.map((a) => a.status),
      ['denied'],
    );

    const seen: string[] = [];
    let url = '/v1/approvals?limit=2';
    for (;;) {
      const page = (await call(rt, 'GET', url)).json as {
        object: string;
        data: Approval[];
        has_more: boolean;
        next_cursor: string | null;
      };
      assert.strictEqual(page.object, 'list');
      seen.push(...page.data.map((a) => a.id));
      if (!page.has_more) {
        assert.strictEqual(page.next_cursor, null);
        break;
      }
      url = `/v1/approvals?limit=2&after=${page.next_cursor}`;
    }
    assert.deepStrictEqual(
      seen,
      approvals().map((a) => a.id),
    );
    assert.strictEqual((await call(rt, 'GET', '/v1/approvals?status=maybe')).status, 400);
    assert.strictEqual((await call(rt, 'GET', '/v1/approvals?run_id=run_none')).status, 404);
    assert.strictEqual((await call(rt, 'GET', '/v1/approvals?limit=101')).status, 400);
    assert.strictEqual((await call(rt, 'GET', '/v1/approvals?after=apr_none')).status, 400);
  });

  it('lets a synthetic run (admin) ask for approval after its events, then go on to its end', async () => {
    const created = await call(rt, 'POST', '/__admin/runs', {
      key: rt.adminKey,
      body: {
        events: 5,
        terminal: 'completed',
        approval: { tool: 'run_command', arguments: { command: 'make test' }, reason: 'Runs the tests.' },
      },
    });
    assert.strictEqual(created.status, 201);
    const runId = created.json.run_id as string;
    const approval = await pendingApproval(rt, runId);
    assert.deepStrictEqual(
      [approval.tool, approval.arguments, approval.reason],
      ['run_command', { command: 'make test' }, 'Runs the tests.'],
    );
    assert.strictEqual((await untilRunStatus(rt, runId, 'awaiting_approval')).status, 'awaiting_approval');
    await decide(rt, approval.id as string, 'approve');
    const { events } = await runToEnd(rt, runId);
    assert.deepStrictEqual(
      events.slice(5).map((e) => e.event),
      ['approval.requested', 'approval.resolved', 'tool.called', 'run.completed'],
    );
    assert.strictEqual(events[6].data.sequence, 7);
    const bad = await call(rt, 'POST', '/__admin/runs', {
      key: rt.adminKey,
      body: { events: 1, approval: { expires_in_ms: -1 } },
    });
    assert.strictEqual(bad.status, 400);
  });

  it('expires the pending approval of a run cancelled while it waits: approval.resolved, then run.cancelled', async () => {
    const task = await askingRun();
    const approval = await pendingApproval(rt, task.run_id);
    const cancelled = await call(rt, 'POST', `/v1/runs/${task.run_id}/cancel`);
    assert.strictEqual(cancelled.status, 200);
    assert.strictEqual(cancelled.json.status, 'cancelled');
    const { events } = await runToEnd(rt, task.run_id);
    assert.deepStrictEqual(
      events.slice(-2).map((e) => [e.event, e.data.status]),
      [
        ['approval.resolved', 'expired'],
        ['run.cancelled', 'cancelled'],
      ],
    );
    assert.strictEqual((await call(rt, 'GET', `/v1/approvals/${approval.id}`)).json.status, 'expired');
    assert.strictEqual((await decide(rt, approval.id as string, 'approve')).status, 409);
  });
});
