// Hostile mode of the reference runtime on project records: a project run's patch
// comes with parts into `..`, an absolute path, `.git/`, through a symlink out of the folder,
// a binary part and names with a bidi override and a command link; padded, it is past the 50 MB
// a client reads. The extension's plan refuses each by name, lists the binary part, shows the
// names as data, and never reads the padded patch whole. Project names are data too.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ApiClient } from '../../../src/api/client';
import { isApiError } from '../../../src/api/errors';
import { inert } from '../../../src/common/inertText';
import { prepareBranchApply } from '../../../src/projects/branchApply';
import { MAX_BASE_FILE_BYTES, planPatchAtBase } from '../../../src/projects/patchAtBase';
import { projectChanges } from '../../../src/projects/projectChanges';
import {
  COMMAND_LINK,
  HOSTILE_BINARY_PATH,
  HOSTILE_DOTGIT_PATHS,
  HOSTILE_PATCH_NAMES,
  HOSTILE_PATCH_PATHS,
  type HostileOptions,
  WIDE_PATCH_HOOK,
  WIDE_PATCH_HOOK_PLACE,
  wideProjectPatchPaths,
} from '../../runtime/hostile';
import { type RuntimeWithClient, startRuntimeWithClient } from '../api/fixtures';
import { makeRepository } from './gitRepoKit';

describe('projects: hostile project records', function () {
  this.timeout(120_000);
  let rt: RuntimeWithClient;
  let repo: ReturnType<typeof makeRepository>;
  let outside: string;

  async function projectRun(hostile: HostileOptions): Promise<{ client: ApiClient; fileId: string; base: string }> {
    rt = await startRuntimeWithClient({ hostile, eventDelayMs: 0 });
    const client = rt.client;
    const project = await client.createProject({ name: 'demo', repository: { url: 'https://example.com/team/demo' } });
    rt.runtime.setProjectCheckout(project.id, repo.dir);
    const task = await client.createTask({
      objective: 'Polish',
      project_id: project.id,
      context: { ref: 'main', commit: repo.commit },
    });
    const runId = task.run_id as string;
    for (;;) {
      const status = (await client.getRun(runId)).status;
      if (status === 'completed' || status === 'failed') {
        assert.equal(status, 'completed');
        break;
      }
      await new Promise((r) => setImmediate(r));
    }
    const patch = (await client.listRunArtifacts(runId)).data.find((a) => typeof a.base_commit === 'string');
    assert.ok(patch?.file_id);
    return { client, fileId: patch.file_id, base: patch.base_commit as string };
  }

  beforeEach(() => {
    repo = makeRepository();
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'project-outside-'));
    // `linked/` leads out of the repository.
    fs.symlinkSync(outside, path.join(repo.dir, 'linked'));
  });
  afterEach(async () => {
    await rt?.close();
    fs.rmSync(repo.dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('a patch of 50 new files, a hook the 45th: the branch plan names every one, none dropped', async () => {
    const { client, fileId, base } = await projectRun({ wideProjectPatchFiles: 50 });
    const text = Buffer.from(
      (await client.readFileContent(fileId, { maxBytes: MAX_BASE_FILE_BYTES })).content,
    ).toString('utf8');
    const prepared = await prepareBranchApply('git', repo.dir, text, base);
    assert.ok(prepared.ok, !prepared.ok ? prepared.message : '');
    const wide = wideProjectPatchPaths(50);
    assert.equal(wide[WIDE_PATCH_HOOK_PLACE - 1], WIDE_PATCH_HOOK);
    const named = new Set([...prepared.plan.files.map((f) => f.path), ...prepared.plan.refused.map((r) => r.name)]);
    for (const file of wide) {
      assert.ok(named.has(file), `${file} is written or refused by name, never left out unseen`);
    }
  });

  it('refuses each hostile path by name, lists the binary part, shows names as data, writes nothing', async () => {
    const { client, fileId, base } = await projectRun({ projectPatches: true });
    const text = Buffer.from(
      (await client.readFileContent(fileId, { maxBytes: MAX_BASE_FILE_BYTES })).content,
    ).toString('utf8');
    const planned = await planPatchAtBase('git', repo.dir, text, base);
    assert.ok(planned.ok, !planned.ok ? planned.message : '');
    const { files, problems } = projectChanges(
      planned.plan,
      { artifactId: 'art_x' },
      { workspaceFolder: `file://${repo.dir}`, uriOf: (p) => `file://${repo.dir}/${p}` },
    );
    // The agent's real change is still offered.
    assert.deepEqual(
      files.map((f) => f.origin.relativePath),
      ['README.md'],
    );
    for (const name of HOSTILE_PATCH_PATHS) {
      assert.ok(
        problems.some((p) => p.code === 'refusedPath' && p.file === name),
        `${name}: ${JSON.stringify(problems)}`,
      );
    }
    for (const name of HOSTILE_DOTGIT_PATHS) {
      assert.ok(
        problems.some((p) => p.code === 'refusedPath' && p.file === name),
        `${name} (read as a git name elsewhere): ${JSON.stringify(problems)}`,
      );
      assert.ok(!fs.existsSync(path.join(repo.dir, name)), `${name} not written`);
    }
    assert.ok(problems.some((p) => p.code === 'unsupportedPatch' && p.file === HOSTILE_BINARY_PATH));
    for (const name of HOSTILE_PATCH_NAMES) {
      const shown = problems.find((p) => p.file === name);
      assert.ok(shown, name);
      assert.ok(!/[\u202a-\u202e\u2066-\u2069]/.test(shown.message), 'a bidi override is shown, not obeyed');
      assert.ok(!shown.message.includes(']('), 'no link');
    }
    assert.deepEqual(fs.readdirSync(outside), [], 'nothing written through the link');
    assert.equal(repo.git('status', '--porcelain', '--untracked-files=no'), '');
  });

  it('a 50 MB patch is not read whole', async () => {
    const { client, fileId } = await projectRun({
      projectPatches: true,
      hugeProjectPatchBytes: MAX_BASE_FILE_BYTES + 1,
    });
    await assert.rejects(client.readFileContent(fileId, { maxBytes: MAX_BASE_FILE_BYTES }), (err: unknown) =>
      isApiError(err),
    );
  });

  it("a project's name with a command link and a bidi override stays data", async () => {
    rt = await startRuntimeWithClient({ hostile: { strings: true } });
    const created = await rt.client.createProject({ name: 'demo', repository: { url: 'https://example.com/t/d' } });
    const project = await rt.client.getProject(created.id);
    assert.ok(String(project.name).includes(COMMAND_LINK), 'the runtime sends the link');
    assert.ok(!inert(project.name).includes(']('));
  });
});
