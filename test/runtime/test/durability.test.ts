// A runtime restarted on the same data directory keeps records, blobs, event logs and idempotency keys.
import * as assert from 'node:assert';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startRuntime } from '../index';
import {
  call,
  createTask,
  decide,
  pendingApproval,
  readEvents,
  runToEnd,
  tempDir,
  untilRunStatus,
  upload,
  uploadOk,
} from './runtimeTestKit';

describe('runtime: durability', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = tempDir();
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('keeps files, tasks, runs, artifacts, events and idempotency keys across a restart', async () => {
    const first = await startRuntime({ dataDir });
    const fileId = await uploadOk(first, 'notes.md', '# Kept\nacross restarts\n');
    const created = await call(first, 'POST', '/v1/tasks', {
      body: { objective: 'Survive', attachments: [{ type: 'document', fileId }] },
      headers: { 'Idempotency-Key': 'restart-key' },
    });
    const task = created.json as { id: string; run_id: string };
    const before = await runToEnd(first, task.run_id);
    const artifactsBefore = (await call(first, 'GET', `/v1/runs/${task.run_id}/artifacts`)).json;
    const syntheticId = await first.createSyntheticRun({ events: 1000, terminal: null });
    first.appendEvent(syntheticId, 'extra.kind', { n: 1 });
    await first.close();
    assert.ok(fs.existsSync(dataDir), 'a given data dir is not removed by close()');

    const second = await startRuntime({ dataDir });
    try {
      assert.strictEqual((await call(second, 'GET', `/v1/files/${fileId}`)).json.filename, 'notes.md');
      assert.strictEqual((await call(second, 'GET', `/v1/files/${fileId}/content`)).text, '# Kept\nacross restarts\n');
      assert.strictEqual((await call(second, 'GET', `/v1/tasks/${task.id}`)).json.status, 'completed');
      assert.strictEqual((await call(second, 'GET', `/v1/runs/${task.run_id}`)).json.status, 'completed');
      assert.deepStrictEqual((await call(second, 'GET', `/v1/runs/${task.run_id}/artifacts`)).json, artifactsBefore);
      const after = await runToEnd(second, task.run_id);
      assert.deepStrictEqual(after.events, before.events, 'the same event log, byte for byte');

      const replay = await call(second, 'POST', '/v1/tasks', {
        body: { objective: 'Survive', attachments: [{ type: 'document', fileId }] },
        headers: { 'Idempotency-Key': 'restart-key' },
      });
      assert.strictEqual(replay.headers.get('idempotent-replayed'), 'true');
      assert.strictEqual(replay.json.id, task.id);

      // The open synthetic run kept its generated prefix and its appended event, and still takes more.
      assert.strictEqual(second.appendEvent(syntheticId, 'later', {}), 1002);
      second.endRun(syntheticId, 'completed');
      const tail = await readEvents(second, syntheticId, { after: 999 });
      assert.deepStrictEqual(
        tail.events.map((e) => e.event),
        ['observation.recorded', 'extra.kind', 'later', 'run.completed'],
      );

      const next = await uploadOk(second, 'new.txt', 'after restart');
      const list = (await call(second, 'GET', '/v1/files')).json.data as { id: string }[];
      assert.deepStrictEqual(
        list.map((f) => f.id),
        [next, fileId],
        'new records still go in front',
      );
    } finally {
      await second.close();
    }
  });

  it('fails a built-in agent run that a restart interrupted', async () => {
    const first = await startRuntime({ dataDir, eventDelayMs: 50 });
    const task = await createTask(first, 'Interrupted');
    await readEvents(first, task.run_id, { stopWhen: (r) => r.events.length >= 1 });
    await first.close();
    const second = await startRuntime({ dataDir });
    try {
      const { events } = await runToEnd(second, task.run_id);
      assert.strictEqual(events[events.length - 1].event, 'run.failed');
      assert.strictEqual((await call(second, 'GET', `/v1/runs/${task.run_id}`)).json.status, 'failed');
    } finally {
      await second.close();
    }
  });

  it('keeps a decision and a cancel across a restart, and replays them on their Idempotency-Keys', async () => {
    const first = await startRuntime({ dataDir });
    const fileId = await uploadOk(first, 'notes.md', '# Notes\n');
    const task = await createTask(first, 'Ask before writing', [fileId]);
    const approval = await pendingApproval(first, task.run_id);
    const decided = await decide(first, approval.id as string, 'deny', { key: 'decision-key', note: 'no' });
    const open = await first.createSyntheticRun({ events: 3, terminal: null });
    const cancelled = await call(first, 'POST', `/v1/runs/${open}/cancel`, {
      headers: { 'Idempotency-Key': 'cancel-key' },
    });
    await first.close();

    const second = await startRuntime({ dataDir });
    try {
      const kept = (await call(second, 'GET', `/v1/approvals/${approval.id}`)).json;
      assert.deepStrictEqual(kept, decided.json);
      assert.strictEqual(kept.status, 'denied');
      const replay = await decide(second, approval.id as string, 'deny', { key: 'decision-key', note: 'no' });
      assert.strictEqual(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepStrictEqual(replay.json, decided.json);
      assert.strictEqual((await decide(second, approval.id as string, 'approve')).status, 409);

      assert.strictEqual((await call(second, 'GET', `/v1/runs/${open}`)).json.status, 'cancelled');
      const { events } = await runToEnd(second, open);
      assert.strictEqual(events[events.length - 1].event, 'run.cancelled');
      const again = await call(second, 'POST', `/v1/runs/${open}/cancel`, {
        headers: { 'Idempotency-Key': 'cancel-key' },
      });
      assert.strictEqual(again.headers.get('idempotent-replayed'), 'true');
      assert.deepStrictEqual(again.json, cancelled.json);
      assert.strictEqual((await call(second, 'POST', `/v1/runs/${open}/cancel`)).status, 409);
    } finally {
      await second.close();
    }
  });

  it('keeps a run waiting for approval across a restart; approved afterwards, it finishes', async () => {
    const first = await startRuntime({ dataDir });
    const fileId = await uploadOk(first, 'notes.md', '# Notes\n');
    const task = await createTask(first, 'Ask before writing', [fileId]);
    const approval = await pendingApproval(first, task.run_id);
    const logBefore = first.eventLog(task.run_id);
    await first.close();

    const second = await startRuntime({ dataDir });
    try {
      assert.strictEqual((await call(second, 'GET', `/v1/runs/${task.run_id}`)).json.status, 'awaiting_approval');
      assert.deepStrictEqual(second.eventLog(task.run_id), logBefore, 'nothing added by the restart');
      await decide(second, approval.id as string, 'approve');
      const next = await pendingApproval(second, task.run_id);
      await decide(second, next.id as string, 'approve');
      const { events } = await runToEnd(second, task.run_id);
      assert.deepStrictEqual(
        events.filter((e) => e.event === 'step.started').map((e) => e.data.step_id),
        ['step_1', 'step_2', 'step_3'],
        'no step started twice',
      );
      assert.strictEqual(events.filter((e) => e.event === 'approval.requested').length, 2);
      assert.strictEqual(events[events.length - 1].event, 'run.completed');
      const artifacts = (await call(second, 'GET', `/v1/runs/${task.run_id}/artifacts`)).json.data as unknown[];
      assert.strictEqual(artifacts.length, 4);
    } finally {
      await second.close();
    }
  });

  it('expires at the restart an approval whose time ran out while the runtime was down: the run goes on', async () => {
    // The approval waits the default five minutes, so it is surely still pending when the first
    // runtime stops (a 50 ms expiry raced this test's own polling on a busy machine and was
    // sometimes over before it was seen); the second starts ten minutes "later" on the approvals' clock.
    const first = await startRuntime({ dataDir });
    const task = await createTask(first, 'Ask before writing');
    const approval = await pendingApproval(first, task.run_id);
    await first.close();

    const second = await startRuntime({ dataDir, approvalClockOffsetMs: 10 * 60 * 1000 });
    try {
      const { events } = await runToEnd(second, task.run_id);
      const resolved = events.find((e) => e.event === 'approval.resolved');
      assert.deepStrictEqual([resolved?.data.approval_id, resolved?.data.status], [approval.id, 'expired']);
      assert.strictEqual(events[events.length - 1].event, 'run.completed');
    } finally {
      await second.close();
    }
  });

  it('keeps a synthetic run waiting for approval across a restart', async () => {
    const first = await startRuntime({ dataDir });
    const runId = await first.createSyntheticRun({ events: 4, approval: { tool: 'deploy' } });
    await untilRunStatus(first, runId, 'awaiting_approval');
    await first.close();
    const second = await startRuntime({ dataDir });
    try {
      const [approval] = second.listApprovals({ runId, status: 'pending' });
      second.decideApproval(approval.id, 'approve');
      const { events } = await runToEnd(second, runId);
      assert.deepStrictEqual(
        events.slice(4).map((e) => e.event),
        ['approval.requested', 'approval.resolved', 'tool.called', 'run.completed'],
      );
    } finally {
      await second.close();
    }
  });

  it('writes records as whole JSON files and leaves no temporary files behind', async () => {
    const rt = await startRuntime({ dataDir });
    try {
      await upload(rt, 'a.txt', 'x');
      const files = fs.readdirSync(path.join(dataDir, 'records', 'files'));
      assert.strictEqual(files.length, 1);
      assert.ok(!files.some((f) => f.endsWith('.tmp')));
      JSON.parse(fs.readFileSync(path.join(dataDir, 'records', 'files', files[0]), 'utf8'));
    } finally {
      await rt.close();
    }
  });

  it('removes its own temporary data dir when the process exits without close()', async () => {
    const index = require.resolve('../index');
    const script = `require(${JSON.stringify(index)}).startRuntime().then((rt) => { console.log(rt.dataDir); process.exit(0); });`;
    const printed = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['-e', script], (err, stdout) => (err ? reject(err) : resolve(stdout.trim()))),
    );
    assert.match(printed, /agent-runtime-/);
    assert.ok(!fs.existsSync(printed), 'gone after exit');
  });

  it('removes the temporary data dir it made itself on close', async () => {
    const rt = await startRuntime();
    const own = rt.dataDir;
    assert.ok(fs.existsSync(own));
    await rt.close();
    assert.ok(!fs.existsSync(own));
  });
});
