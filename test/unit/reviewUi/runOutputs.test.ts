// What a review reads before it compares (src/reviewUi/runOutputs.ts), over HTTP against the
// reference runtime: the run's outputs and the "has reviewable changes" check end on a server
// that hands out a fresh cursor for ever, and only the files the run's task
// was given count as revised or patched (item 4).
import * as assert from 'node:assert/strict';
import { DEFAULT_MAX_PAGES, type PageWalkOptions } from '../../../src/api/pagination';
import type { ArtifactRecord } from '../../../src/api/types';
import { buildChangeSet, type UploadOrigin } from '../../../src/review';
import {
  hasReviewableOutputs,
  listRunOutputs,
  MAX_REVIEW_OUTPUTS,
  runTaskOf,
  taskFileIds,
} from '../../../src/reviewUi/runOutputs';
import { waitFor } from '../api/fixtures';
import { walkedRuntime } from '../api/walkedRuntime';

const origin = (fileId: string, name: string): UploadOrigin => ({
  fileId,
  uri: `file:///w/${name}`,
  workspaceFolder: 'file:///w',
  relativePath: name,
  sha256: '0'.repeat(64),
  bytes: 1,
  uploadedAt: '2026-01-01T00:00:00.000Z',
});

describe('reviewUi/runOutputs (reference runtime)', () => {
  const rt = walkedRuntime((line) => /^GET \/v1\/runs\/[^/]+\/artifacts /.test(line));

  async function finishedRun(
    objective: string,
    files: Record<string, string>,
  ): Promise<{ runId: string; taskId: string; fileIds: string[] }> {
    const fileIds: string[] = [];
    for (const [name, text] of Object.entries(files)) {
      fileIds.push((await rt.ctx.client.uploadBytes(Buffer.from(text), { filename: name, purpose: 'task_input' })).id);
    }
    const task = await rt.ctx.client.createTask({
      objective,
      attachments: fileIds.map((fileId) => ({ type: 'document', fileId })),
    });
    const runId = String(task.run_id);
    await waitFor(async () => (await rt.ctx.client.getRun(runId)).status === 'completed', `run ${runId} to complete`);
    return { runId, taskId: task.id, fileIds };
  }

  it("a review's list of outputs ends on a fresh cursor for ever, and says it was cut (loadSession)", async () => {
    const { runId } = await finishedRun('Tidy up', { 'a.md': '# A\n\none\ntwo\n' });
    const whole = await listRunOutputs(rt.ctx.client, runId, rt.signal);
    assert.equal(whole.cut, false);
    assert.equal(whole.artifacts.length, 4, 'the revision, changes.patch, report.md, summary.json');

    rt.ctx.runtime.setHostile({ freshCursor: '/v1/runs/' });
    rt.resetCount();
    const counted: number[] = [];
    const cut = await listRunOutputs(rt.ctx.client, runId, rt.signal, (n) => counted.push(n));
    assert.equal(cut.cut, true, 'the review is told it read only the first outputs');
    assert.ok(rt.requests() <= DEFAULT_MAX_PAGES, `${rt.requests()} list requests`);
    assert.ok(cut.artifacts.length <= MAX_REVIEW_OUTPUTS);
    assert.equal(counted.at(-1), cut.artifacts.length);
  });

  it('"has reviewable changes" at a run\'s end ends on a fresh cursor for ever, with a signal (hasReviewableChanges)', async () => {
    const { runId } = await finishedRun('Report only', {});
    const nothingFromHere = () => undefined;
    assert.equal(
      await hasReviewableOutputs(rt.ctx.client, runId, nothingFromHere, () => undefined, rt.signal),
      false,
      'report.md and summary.json only',
    );

    rt.ctx.runtime.setHostile({ freshCursor: '/v1/runs/' });
    rt.resetCount();
    // The list never ends: cut by the cap, the check says "maybe" (the review then says what it read).
    assert.equal(await hasReviewableOutputs(rt.ctx.client, runId, nothingFromHere, () => undefined, rt.signal), true);
    assert.ok(rt.requests() <= DEFAULT_MAX_PAGES, `${rt.requests()} list requests`);

    const stop = new AbortController();
    stop.abort();
    await assert.rejects(
      hasReviewableOutputs(rt.ctx.client, runId, nothingFromHere, () => undefined, stop.signal),
      (err: Error) => err.name === 'ApiError',
    );
  });

  it("a revision of a file another task was given is not this run's change", async () => {
    const a = await finishedRun('Revise A', { 'a.md': '# A\n\none\ntwo\nthree\n' });
    const b = await finishedRun('Revise B', { 'b.md': '# B\n\nuno\ndos\ntres\n' });
    const origins = new Map([
      [a.fileIds[0], origin(a.fileIds[0], 'a.md')],
      [b.fileIds[0], origin(b.fileIds[0], 'b.md')],
    ]);
    const originOf = (id: string) => origins.get(id);
    const recorded = new Map([
      [a.taskId, a.fileIds],
      [b.taskId, b.fileIds],
    ]);

    // A server that lists run A's revision of a.md among run B's outputs (B's own revision and patch left out).
    const aOutputs = (await listRunOutputs(rt.ctx.client, a.runId, rt.signal)).artifacts;
    const bOutputs = (await listRunOutputs(rt.ctx.client, b.runId, rt.signal)).artifacts;
    const foreign = aOutputs.find((x) => x.source_file_id === a.fileIds[0]) as ArtifactRecord;
    const mixedUp = [
      foreign,
      ...bOutputs.filter((x) => x.source_file_id === undefined && x.content_type !== 'text/x-diff'),
    ];
    const client = {
      getRun: rt.ctx.client.getRun.bind(rt.ctx.client),
      getTask: rt.ctx.client.getTask.bind(rt.ctx.client),
      iterateRunArtifacts: (runId: string, params: object, opts: PageWalkOptions) => {
        if (runId !== b.runId) {
          return rt.ctx.client.iterateRunArtifacts(runId, params, opts);
        }
        return Object.assign(
          (async function* () {
            yield* mixedUp;
          })(),
          { cut: undefined },
        );
      },
    };
    assert.equal(
      await hasReviewableOutputs(client, b.runId, originOf, (id) => recorded.get(id), rt.signal),
      false,
      'no "Review Changes" for another task\'s file',
    );
    assert.equal(
      await hasReviewableOutputs(client, a.runId, originOf, (id) => recorded.get(id), rt.signal),
      true,
      'run A still revises a.md',
    );

    // The task's files: the record made when it was created here, else its attachments as the server lists them.
    const { taskId, task } = await runTaskOf(rt.ctx.client, b.runId, rt.signal);
    assert.equal(taskId, b.taskId);
    assert.deepEqual([...taskFileIds(task, undefined)], b.fileIds);
    assert.deepEqual([...taskFileIds(task, recorded.get(b.taskId))], b.fileIds);
    assert.deepEqual([...taskFileIds(undefined, undefined)], [], 'nothing known: nothing may be revised');

    const set = await buildChangeSet(mixedUp, {
      originOf,
      taskFileIds: taskFileIds(task, undefined),
      readArtifact: async () => Buffer.from('revised'),
      readAsSent: async () => Buffer.from('sent'),
    });
    assert.deepEqual(set.files, [], 'nothing is offered to write into a.md');
    assert.deepEqual(
      set.problems.map((p) => p.code),
      ['otherTask'],
    );

    // A patch target too: run A's changes.patch names a.md; for a task given only b.md it is not applied.
    const patch = aOutputs.find((x) => x.content_type === 'text/x-diff') as ArtifactRecord;
    const patchSources = (fileIds: string[]) => ({
      originOf,
      taskFileIds: new Set(fileIds),
      attachments: [{ fileId: a.fileIds[0], filename: 'a.md' }],
      readArtifact: async (x: ArtifactRecord) => (await rt.ctx.client.readFileContent(x.file_id ?? x.id)).content,
      readAsSent: async (id: string) => (await rt.ctx.client.readFileContent(id)).content,
    });
    const refused = await buildChangeSet([patch], patchSources(b.fileIds));
    assert.deepEqual(refused.files, []);
    assert.deepEqual(
      refused.problems.map((p) => p.code),
      ['otherTask'],
    );
    const own = await buildChangeSet([patch], patchSources(a.fileIds));
    assert.deepEqual(
      own.files.map((f) => f.fileId),
      a.fileIds,
      "its own task's file is patched",
    );
  });
});
