// A runtime restarted on the same data directory keeps records, blobs, event logs and idempotency keys.
import * as assert from 'assert';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { startRuntime } from '../../runtime/index';
import { call, createTask, readEvents, runToEnd, tempDir, upload, uploadOk } from './runtimeTestKit';

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
      assert.deepStrictEqual(tail.events.map((e) => e.event), ['observation.recorded', 'extra.kind', 'later', 'run.completed']);

      const next = await uploadOk(second, 'new.txt', 'after restart');
      const list = (await call(second, 'GET', '/v1/files')).json.data as { id: string }[];
      assert.deepStrictEqual(list.map((f) => f.id), [next, fileId], 'new records still go in front');
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
    const index = require.resolve('../../runtime/index');
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
