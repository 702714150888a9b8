// "Go to…" reads one record by id from the reference runtime over HTTP: tasks, runs, files, and
// an artifact through its run's list; unknown ids answer "not found", not an error; an id that
// is not one path segment never reaches the server.
import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiClient } from '../../../src/api/client';
import { isApiError } from '../../../src/api/errors';
import type { ArtifactRecord, Page } from '../../../src/api/types';
import { type GoToClient, MAX_ARTIFACT_PAGES, resolveGoTo } from '../../../src/links/goToResolve';
import {
  CapturingLogger,
  makeTempDir,
  type RuntimeWithClient,
  startRecordingServer,
  startRuntimeWithClient,
} from '../api/fixtures';

describe('links/goToResolve (reference runtime)', function () {
  this.timeout(30_000);
  let rt: RuntimeWithClient;
  let temp: { dir: string; remove: () => Promise<void> };

  before(async () => {
    rt = await startRuntimeWithClient({ eventDelayMs: 0 });
    temp = await makeTempDir();
  });
  after(async () => {
    await rt.close();
    await temp.remove();
  });

  async function finishedTask() {
    const path = join(temp.dir, 'notes.md');
    await writeFile(path, '# Notes\n\nbody\n');
    const file = await rt.client.uploadFile(path, { purpose: 'task_input' });
    const task = await rt.client.createTask({
      objective: 'Summarise the notes',
      attachments: [{ type: 'document', fileId: file.id }],
    });
    const runId = task.run_id ?? assert.fail('the task names its run');
    for (;;) {
      const run = await rt.client.getRun(runId);
      if (run.status === 'completed' || run.status === 'failed') {
        break;
      }
      await sleep(20);
    }
    return { file, task, runId };
  }

  it('reads a task, a run (keeping the event asked for) and a file by id', async () => {
    const { file, task, runId } = await finishedTask();
    const t = await resolveGoTo({ kind: 'task', id: task.id }, rt.client);
    assert.ok('found' in t && t.found.kind === 'task' && t.found.task.id === task.id);
    const r = await resolveGoTo({ kind: 'run', id: runId, sequence: 3 }, rt.client);
    assert.ok('found' in r && r.found.kind === 'run' && r.found.run.id === runId && r.found.sequence === 3);
    const f = await resolveGoTo({ kind: 'file', id: file.id }, rt.client);
    assert.ok('found' in f && f.found.kind === 'file' && f.found.file.id === file.id);
  });

  it('finds an artifact through its run, and asks for the run when given a bare artifact id', async () => {
    const { runId } = await finishedTask();
    const listed = await rt.client.listRunArtifacts(runId);
    const artifact = listed.data[0] ?? assert.fail('the finished run has an artifact');
    const a = await resolveGoTo({ kind: 'artifact', id: artifact.id, runId }, rt.client);
    assert.ok(
      'found' in a && a.found.kind === 'artifact' && a.found.artifact.id === artifact.id && a.found.run.id === runId,
    );
    assert.deepEqual(await resolveGoTo({ kind: 'artifact', id: artifact.id }, rt.client), { needsRun: true });
    assert.deepEqual(await resolveGoTo({ kind: 'artifact', id: 'art_nope', runId }, rt.client), { notFound: true });
  });

  it('answers "not found" for ids the server does not have (404), of every kind', async () => {
    for (const target of [
      { kind: 'task', id: 'task_nope' },
      { kind: 'run', id: 'run_nope' },
      { kind: 'file', id: 'file_nope' },
      { kind: 'artifact', id: 'art_x', runId: 'run_nope' },
    ] as const) {
      assert.deepEqual(await resolveGoTo(target, rt.client), { notFound: true }, target.kind);
    }
  });

  it('takes a bare 404 (no API error body) as "not found", and a 405 as the error it is', async () => {
    const server = await startRecordingServer((req, res) => {
      res.writeHead(req.url?.startsWith('/v1/tasks/') ? 404 : 405, { 'content-type': 'text/html' });
      res.end('<h1>Not here</h1>');
    });
    const client = new ApiClient({
      baseUrl: server.baseUrl,
      getApiKey: async () => 'k',
      logger: new CapturingLogger(),
      maxRetries: 0,
    });
    try {
      assert.deepEqual(await resolveGoTo({ kind: 'task', id: 'task_1' }, client), { notFound: true });
      await assert.rejects(
        resolveGoTo({ kind: 'run', id: 'run_1' }, client),
        (err) => isApiError(err) && err.status === 405,
      );
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('sends nothing for an id that is not one path segment (../, %2F, 10,000 chars)', async () => {
    const before = rt.logger.lines.length;
    for (const id of ['task_../x', '..', 'task_a%2Fb', 'task_a/b']) {
      await assert.rejects(resolveGoTo({ kind: 'task', id }, rt.client), (err) => isApiError(err, 'validation'), id);
    }
    assert.deepEqual(rt.logger.lines.slice(before), [], 'no request was sent');
    // A long but plain id is one segment: the server answers, and it is not found.
    assert.deepEqual(await resolveGoTo({ kind: 'task', id: `task_${'a'.repeat(10_000)}` }, rt.client), {
      notFound: true,
    });
  });

  it('stops looking for an artifact after a bounded number of pages of a listing that never ends', async () => {
    let calls = 0;
    const endless: GoToClient = {
      getTask: () => assert.fail('not asked'),
      getFile: () => assert.fail('not asked'),
      getRun: async (id) => ({ id }),
      listRunArtifacts: async (): Promise<Page<ArtifactRecord>> => {
        calls++;
        if (calls > 1000) {
          throw new Error('still paging');
        }
        return { object: 'list', data: [{ id: `art_${calls}` }], has_more: true, next_cursor: `c${calls}` };
      },
    };
    // It did not see the whole list, so it must not claim the artifact is not there.
    assert.deepEqual(await resolveGoTo({ kind: 'artifact', id: 'art_never', runId: 'run_1' }, endless), {
      stoppedLooking: { searched: MAX_ARTIFACT_PAGES },
    });
    assert.equal(calls, MAX_ARTIFACT_PAGES);
  });
});
