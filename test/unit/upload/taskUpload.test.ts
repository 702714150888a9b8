// Uploading a selection for one task, against the runtime: progress counts files and bytes; a
// cancel mid-upload stops the requests in flight, creates no task and names the files already
// stored, and the cleanup deletes exactly those; a task over the attachment limit is refused
// with the limit named (code and param) while the same files packed as one archive go through.
import * as assert from 'node:assert/strict';
import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isApiError } from '../../../src/api/errors';
import { type BatchProgress, uploadBatch } from '../../../src/upload/batchUpload';
import { uploadForTask } from '../../../src/upload/taskUpload';
import { deleteUploaded } from '../../../src/upload/uploadCleanup';
import type { PlannedFile } from '../../../src/upload/uploadPlan';
import { makeTempDir, type RuntimeWithClient, startRuntimeWithClient } from '../api/fixtures';

const MiB = 1024 * 1024;

describe('upload/taskUpload', () => {
  let ctx: RuntimeWithClient;
  let temp: { dir: string; remove: () => Promise<void> };
  beforeEach(async () => {
    ctx = await startRuntimeWithClient({ maxAttachments: 3 });
    temp = await makeTempDir();
  });
  afterEach(async () => {
    await ctx.close();
    await temp.remove();
  });

  async function makeFiles(count: number, bytes: (i: number) => number): Promise<PlannedFile[]> {
    const files: PlannedFile[] = [];
    for (let i = 0; i < count; i++) {
      const path = join(temp.dir, `file${i}.bin`);
      await writeFile(path, '');
      await truncate(path, bytes(i));
      files.push({ path, name: `file${i}.bin`, bytes: bytes(i) });
    }
    return files;
  }

  it('reports files and bytes done over the whole batch, ending at every file and byte', async () => {
    const files = await makeFiles(7, (i) => (i + 1) * 100_000);
    const reports: BatchProgress[] = [];
    const result = await uploadBatch(ctx.client, files, 'task_input', { onProgress: (p) => reports.push(p) });
    assert.equal(result.uploaded.length, 7);
    const total = files.reduce((n, f) => n + f.bytes, 0);
    assert.ok(reports.every((p) => p.fileCount === 7 && p.totalBytes === total));
    for (let i = 1; i < reports.length; i++) {
      assert.ok(
        reports[i].bytesDone >= reports[i - 1].bytesDone && reports[i].filesDone >= reports[i - 1].filesDone,
        `report ${i} went back`,
      );
    }
    assert.deepEqual([...new Set(reports.map((p) => p.filesDone))], [0, 1, 2, 3, 4, 5, 6, 7]);
    const last = reports[reports.length - 1];
    assert.deepEqual([last.filesDone, last.bytesDone], [7, total]);
    // Uploaded in the order of the plan, whatever order they ended in.
    assert.deepEqual(
      result.uploaded.map((u) => u.file.name),
      files.map((f) => f.name),
    );
  });

  it('a cancel mid-upload creates no task, names the files stored for it, and the cleanup deletes exactly those', async () => {
    const other = await ctx.client.uploadBytes(new TextEncoder().encode('kept'), { filename: 'other.txt' });
    const files = await makeFiles(5, () => 8 * MiB);
    // Each request waits before the server reads it: the cancel finds the next files in flight.
    ctx.runtime.setFaults({ delayMs: 300 });
    const controller = new AbortController();
    const outcome = await uploadForTask(ctx.client, files, {
      objective: 'Summarise',
      shape: 'separate',
      concurrency: 2,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.filesDone >= 2) {
          controller.abort();
        }
      },
    });
    ctx.runtime.clearFaults();
    assert.equal(outcome.kind, 'cancelled');
    assert.equal(outcome.uploaded.length, 2);
    assert.deepEqual((await ctx.client.listTasks()).data, []);
    const stored = async () => (await ctx.client.listFiles({ limit: 100 })).data.map((f) => f.id).sort();
    assert.deepEqual(await stored(), [other.id, ...outcome.uploaded.map((f) => f.id)].sort());

    const cleanup = await deleteUploaded(
      ctx.client,
      outcome.uploaded.map((f) => f.id),
    );
    assert.deepEqual(cleanup.deleted.sort(), outcome.uploaded.map((f) => f.id).sort());
    assert.deepEqual(cleanup.failed, []);
    assert.deepEqual(await stored(), [other.id]);
  });

  it('a task over the limit is refused naming it (code, param, limit); the files stored for it are listed; one archive goes through', async () => {
    const files = await makeFiles(4, () => 1000);
    const separate = await uploadForTask(ctx.client, files, { objective: 'Summarise', shape: 'separate' });
    assert.equal(separate.kind, 'failed');
    const error = separate.kind === 'failed' ? separate.error : undefined;
    assert.ok(isApiError(error), String(error));
    assert.deepEqual(
      [error.status, error.code, error.param, error.limit],
      [400, 'too_many_attachments', 'attachments', 3],
    );
    assert.equal(separate.uploaded.length, 4);
    assert.deepEqual((await ctx.client.listTasks()).data, []);

    const archive = await uploadForTask(ctx.client, files, { objective: 'Summarise', shape: 'archive' });
    assert.equal(archive.kind, 'created');
    if (archive.kind !== 'created') {
      return;
    }
    assert.equal(archive.uploaded.length, 1);
    assert.deepEqual(archive.task.attachments, [{ type: 'document', fileId: archive.uploaded[0].id }]);
  });
});
