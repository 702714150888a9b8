// Reviewing what a run produced: revised attachments (source_file_id) and one unified patch over them.
import * as assert from 'node:assert';
import { applyPatch, parsePatch } from 'diff';
import { type RuntimeHandle, startRuntime } from '../index';
import { call, createTask, runToEnd, uploadOk } from './runtimeTestKit';

const LONG_MD = ['# Plan', '', ...Array.from({ length: 24 }, (_, i) => `Line ${i + 1} of the plan.`), ''].join('\n');
const SHORT_TXT = 'first\nsecond\nthird\n';

interface Artifact {
  id: string;
  name: string;
  file_id: string;
  bytes: number;
  content_type: string;
  source_file_id?: string;
}

describe('runtime: revised attachments and the patch', () => {
  let rt: RuntimeHandle;
  beforeEach(async () => {
    rt = await startRuntime();
  });
  afterEach(() => rt.close());

  const content = async (fileId: string): Promise<string> =>
    (await call(rt, 'GET', `/v1/files/${fileId}/content`)).text;

  it('writes a revised copy of each text attachment, named after it and pointing at it by source_file_id', async () => {
    const md = await uploadOk(rt, 'plan.md', LONG_MD);
    const txt = await uploadOk(rt, 'list.txt', SHORT_TXT);
    const task = await createTask(rt, 'Tidy the plan', [md, txt]);
    const { events } = await runToEnd(rt, task.run_id);
    const artifacts = (await call(rt, 'GET', `/v1/runs/${task.run_id}/artifacts`)).json.data as Artifact[];
    const revised = artifacts.filter((a) => a.source_file_id !== undefined);
    assert.deepStrictEqual(revised.map((a) => [a.name, a.source_file_id]).sort(), [
      ['list.txt', txt],
      ['plan.md', md],
    ]);
    for (const artifact of revised) {
      const source = (await call(rt, 'GET', `/v1/files/${artifact.source_file_id}`)).json;
      assert.strictEqual(artifact.content_type, source.content_type, "the revision keeps its source's type");
      assert.notStrictEqual(await content(artifact.file_id), await content(artifact.source_file_id as string));
    }
    const plain = artifacts
      .filter((a) => a.source_file_id === undefined)
      .map((a) => a.name)
      .sort();
    assert.deepStrictEqual(
      plain,
      ['changes.patch', 'report.md', 'summary.json'],
      'the report and the summary are as before',
    );
    const created = events.filter((e) => e.event === 'artifact.created' && e.data.source_file_id !== undefined);
    assert.strictEqual(created.length, 2);

    const revisedPlan = await content(revised.find((a) => a.name === 'plan.md')?.file_id as string);
    assert.match(revisedPlan, /^> Revised for: Tidy the plan\n\n# Plan\n/);
    assert.match(revisedPlan, /\(reviewed\)\n/);
    assert.match(revisedPlan, /_Reviewed by the built-in agent\._\n$/);
  });

  it('writes changes.patch: a unified diff over every revision with a/ and b/ paths, that applies to the originals', async () => {
    const md = await uploadOk(rt, 'plan.md', LONG_MD);
    const txt = await uploadOk(rt, 'list.txt', SHORT_TXT);
    const task = await createTask(rt, 'Tidy the plan', [md, txt]);
    await runToEnd(rt, task.run_id);
    const artifacts = (await call(rt, 'GET', `/v1/runs/${task.run_id}/artifacts`)).json.data as Artifact[];
    const patchArtifact = artifacts.find((a) => a.name === 'changes.patch') as Artifact;
    assert.strictEqual(patchArtifact.content_type, 'text/x-diff');
    const text = await content(patchArtifact.file_id);
    assert.strictEqual(Buffer.byteLength(text), patchArtifact.bytes);

    const files = parsePatch(text);
    assert.deepStrictEqual(
      files.map((f) => [f.oldFileName, f.newFileName]),
      [
        ['a/plan.md', 'b/plan.md'],
        ['a/list.txt', 'b/list.txt'],
      ],
    );
    assert.strictEqual(files[0].hunks.length, 3, 'top, middle and end of a long file are separate hunks');
    const originals: Record<string, string> = { 'plan.md': LONG_MD, 'list.txt': SHORT_TXT };
    for (const file of files) {
      const name = (file.newFileName as string).slice('b/'.length);
      const revision = artifacts.find((a) => a.name === name && a.source_file_id !== undefined) as Artifact;
      assert.strictEqual(
        applyPatch(originals[name], file),
        await content(revision.file_id),
        `${name}: original + patch = revision`,
      );
    }
  });

  it('leaves an attachment over 1 MiB unrevised and out of the patch', async () => {
    const big = await uploadOk(rt, 'big.txt', 'word '.repeat(220_000));
    const small = await uploadOk(rt, 'list.txt', SHORT_TXT);
    const task = await createTask(rt, 'Tidy', [big, small]);
    await runToEnd(rt, task.run_id);
    const artifacts = (await call(rt, 'GET', `/v1/runs/${task.run_id}/artifacts`)).json.data as Artifact[];
    assert.deepStrictEqual(
      artifacts.filter((a) => a.source_file_id).map((a) => a.name),
      ['list.txt'],
    );
    const patch = parsePatch(await content((artifacts.find((a) => a.name === 'changes.patch') as Artifact).file_id));
    assert.deepStrictEqual(
      patch.map((f) => f.newFileName),
      ['b/list.txt'],
    );
  });

  it("a fork given attachments revises those instead of the task's (an edited file sent again)", async () => {
    const txt = await uploadOk(rt, 'list.txt', SHORT_TXT);
    const task = await createTask(rt, 'Tidy the list', [txt]);
    const { events } = await runToEnd(rt, task.run_id);
    const edited = await uploadOk(rt, 'list.txt', 'first\nsecond\nthird\nfourth\n');
    const fork = await call(rt, 'POST', `/v1/runs/${task.run_id}/fork`, {
      body: {
        after_sequence: events[events.length - 2].data.sequence,
        instructions: 'list.txt changed',
        attachments: [{ type: 'document', fileId: edited }],
      },
    });
    assert.strictEqual(fork.status, 201, fork.text);
    await runToEnd(rt, fork.json.id as string);
    const artifacts = (await call(rt, 'GET', `/v1/runs/${fork.json.id}/artifacts`)).json.data as Artifact[];
    const revised = artifacts.filter((a) => a.source_file_id !== undefined);
    assert.deepStrictEqual(
      revised.map((a) => a.source_file_id),
      [edited],
    );
    assert.ok((await content(revised[0].file_id)).includes('fourth'), 'the revision starts from the edited file');
  });
});
