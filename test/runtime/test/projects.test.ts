// Projects in the reference runtime, over HTTP: records, project_id/context on tasks, and the
// built-in agent reading a real git repository at context.commit and giving back a real patch.
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import { makeServedRepository } from '../../e2e/harness/servedRepository';
import { makeRepository } from '../../unit/projects/gitRepoKit';
import { type RuntimeHandle, startRuntime } from '../index';
import { REVISED_MARK } from '../reviewComments';
import { call, errorOf, runToEnd, upload } from './runtimeTestKit';

describe('runtime: projects', () => {
  let rt: RuntimeHandle;
  const dirs: string[] = [];
  beforeEach(async () => {
    rt = await startRuntime();
  });
  afterEach(async () => {
    await rt.close();
    for (const dir of dirs.splice(0)) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const createProject = async (url: string, name = 'demo'): Promise<Record<string, unknown>> => {
    const res = await call(rt, 'POST', '/v1/projects', { body: { name, repository: { url } } });
    assert.strictEqual(res.status, 201, res.text);
    return res.json;
  };

  it('creates, gets, lists and deletes projects; a second project of the same repository is 409 project_exists', async () => {
    const project = await createProject('https://github.com/Owner/Repo.git');
    assert.match(project.id as string, /^proj_/);
    assert.strictEqual(project.object, 'project');
    assert.deepStrictEqual(project.repository, { url: 'https://github.com/Owner/Repo.git', default_branch: 'main' });
    assert.deepStrictEqual((await call(rt, 'GET', `/v1/projects/${project.id}`)).json, project);

    const again = await call(rt, 'POST', '/v1/projects', {
      body: { name: 'other', repository: { url: 'git@github.com:owner/repo' } },
    });
    assert.strictEqual(again.status, 409);
    assert.strictEqual(errorOf(again).code, 'project_exists');
    assert.deepStrictEqual(
      (again.json.error as Record<string, unknown>).project,
      project,
      'the existing record rides on the error',
    );

    const list = (await call(rt, 'GET', '/v1/projects?limit=10')).json;
    assert.deepStrictEqual(
      (list.data as { id: string }[]).map((p) => p.id),
      [project.id],
    );

    const deleted = await call(rt, 'DELETE', `/v1/projects/${project.id}`);
    assert.deepStrictEqual(deleted.json, { id: project.id, object: 'project', deleted: true });
    const gone = await call(rt, 'GET', `/v1/projects/${project.id}`);
    assert.strictEqual(gone.status, 404);
    assert.strictEqual(errorOf(gone).code, 'project_not_found');
    await createProject('https://github.com/owner/repo', 'again');
  });

  it('never stores the user info of a clone URL', async () => {
    const project = await createProject('https://user:s3cret-token@example.com/team/app.git');
    assert.strictEqual((project.repository as { url: string }).url, 'https://example.com/team/app.git');
    assert.ok(!(await call(rt, 'GET', '/v1/projects')).text.includes('s3cret'));
  });

  it('rejects a project without a usable name or URL (400, by param)', async () => {
    const cases: [unknown, string][] = [
      [{ repository: { url: 'https://h/o/r' } }, 'name'],
      [{ name: 'x' }, 'repository'],
      [{ name: 'x', repository: { url: 'not a url' } }, 'repository.url'],
      [{ name: 'x', repository: { url: 'https://h/o/r', default_branch: 5 } }, 'repository.default_branch'],
    ];
    for (const [body, param] of cases) {
      const res = await call(rt, 'POST', '/v1/projects', { body });
      assert.strictEqual(res.status, 400, JSON.stringify(body));
      assert.strictEqual(errorOf(res).param, param);
    }
  });

  it('carries project_id and context on the task, filters the list by ?project_id=, and says project_not_found/unknown_commit', async () => {
    const repo = makeRepository();
    dirs.push(repo.dir);
    const project = await createProject('https://example.com/team/demo');
    rt.setProjectCheckout(project.id as string, repo.dir);
    const res = await call(rt, 'POST', '/v1/tasks', {
      body: { objective: 'Tidy', project_id: project.id, context: { ref: 'main', commit: repo.commit } },
    });
    assert.strictEqual(res.status, 201, res.text);
    assert.strictEqual(res.json.project_id, project.id);
    assert.deepStrictEqual(res.json.context, { ref: 'main', commit: repo.commit });
    const loose = await call(rt, 'POST', '/v1/tasks', { body: { objective: 'Loose' } });
    assert.strictEqual(loose.status, 201);

    const filtered = (await call(rt, 'GET', `/v1/tasks?project_id=${project.id}`)).json.data as { id: string }[];
    assert.deepStrictEqual(
      filtered.map((t) => t.id),
      [res.json.id],
    );

    const missing = await call(rt, 'POST', '/v1/tasks', { body: { objective: 'x', project_id: 'proj_nope' } });
    assert.strictEqual(missing.status, 404);
    assert.deepStrictEqual([errorOf(missing).code, errorOf(missing).param], ['project_not_found', 'project_id']);

    const unpushed = await call(rt, 'POST', '/v1/tasks', {
      body: { objective: 'x', project_id: project.id, context: { commit: 'a'.repeat(40) } },
    });
    assert.strictEqual(unpushed.status, 400);
    assert.deepStrictEqual([errorOf(unpushed).code, errorOf(unpushed).param], ['unknown_commit', 'context.commit']);

    const malformed = await call(rt, 'POST', '/v1/tasks', {
      body: { objective: 'x', project_id: project.id, context: { commit: 'HEAD' } },
    });
    assert.strictEqual(malformed.status, 400);
    assert.strictEqual(errorOf(malformed).param, 'context.commit');
    await runToEnd(rt, res.json.run_id as string);
  });

  it('reads the repository at context.commit plus the uncommitted patch and returns a patch against that commit', async () => {
    const repo = makeRepository();
    dirs.push(repo.dir);
    const project = await createProject('git@example.com:team/demo.git');
    rt.setProjectCheckout(project.id as string, repo.dir);
    // Uncommitted work: an edit of src/app.ts and a new file, as `git diff HEAD` writes them.
    fs.writeFileSync(path.join(repo.dir, 'src', 'app.ts'), 'export const a = 1;\nexport const b = 3;\n');
    fs.writeFileSync(path.join(repo.dir, 'NOTES.txt'), 'a note\n');
    repo.git('add', '-N', 'NOTES.txt');
    const uncommitted = repo.git('diff', 'HEAD') + '\n';
    // A later commit moves the working tree on: the agent must still read the task's commit.
    repo.git('commit', '-q', '-am', 'second');
    const patchFile = await upload(rt, 'uncommitted.diff', uncommitted, { type: 'text/x-diff' });
    assert.strictEqual(patchFile.status, 201, patchFile.text);

    const task = await call(rt, 'POST', '/v1/tasks', {
      body: {
        objective: 'Polish',
        project_id: project.id,
        context: { ref: 'main', commit: repo.commit },
        attachments: [{ type: 'document', fileId: patchFile.json.id }],
      },
    });
    assert.strictEqual(task.status, 201, task.text);
    const { events } = await runToEnd(rt, task.json.run_id as string);
    assert.strictEqual(events[events.length - 1].event, 'run.completed', JSON.stringify(events.slice(-3)));

    const artifacts = (await call(rt, 'GET', `/v1/runs/${task.json.run_id}/artifacts`)).json.data as {
      name: string;
      file_id: string;
      content_type: string;
      base_commit?: string;
    }[];
    const patchArtifact = artifacts.find((a) => a.name === 'changes.patch');
    assert.ok(patchArtifact, 'a patch artifact');
    assert.strictEqual(patchArtifact.content_type, 'text/x-diff');
    assert.strictEqual(patchArtifact.base_commit, repo.commit);
    const text = (await call(rt, 'GET', `/v1/files/${patchArtifact.file_id}/content`)).text;
    const files = parsePatch(text);
    assert.deepStrictEqual(files.map((f) => f.newFileName).sort(), ['b/NOTES.txt', 'b/README.md', 'b/src/app.ts']);

    // Applied to the files at the base commit, the patch holds the uncommitted change and the agent's.
    const app = files.find((f) => f.newFileName === 'b/src/app.ts');
    const after = applyPatch(
      execFileSync('git', ['-C', repo.dir, 'show', `${repo.commit}:src/app.ts`], { encoding: 'utf8' }),
      app as never,
    );
    assert.ok(
      typeof after === 'string' && after.includes('export const b = 3;') && after.includes('# Revised for: Polish'),
      String(after),
    );
    const notes = files.find((f) => f.newFileName === 'b/NOTES.txt');
    assert.strictEqual(notes?.oldFileName, '/dev/null', 'a new file is a creation');
  });

  it('a project of a URL configured with projectCheckouts reads that repository (npm start)', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'served-'));
    dirs.push(parent);
    const workspace = path.join(parent, 'workspace');
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(workspace, 'README.md'), '# Served\n\nOne.\n');
    const url = 'https://example.com/you/served.git';
    const service = makeServedRepository(workspace, url);
    assert.strictEqual(makeServedRepository(workspace, url), service, 'a second start keeps the repository');
    await rt.close();
    rt = await startRuntime({ projectCheckouts: { [url]: service } });
    const project = await createProject('https://example.com/you/served');
    const commit = execFileSync('git', ['-C', workspace, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const unknown = await call(rt, 'POST', '/v1/tasks', {
      body: { objective: 'x', project_id: project.id, context: { commit: 'b'.repeat(40) } },
    });
    assert.strictEqual(errorOf(unknown).code, 'unknown_commit', 'the configured repository is read');
    const task = await call(rt, 'POST', '/v1/tasks', {
      body: { objective: 'Polish', project_id: project.id, context: { ref: 'main', commit } },
    });
    assert.strictEqual(task.status, 201, task.text);
    await runToEnd(rt, task.json.run_id as string);
    const artifacts = (await call(rt, 'GET', `/v1/runs/${task.json.run_id}/artifacts`)).json.data as {
      name: string;
      base_commit?: string;
    }[];
    assert.strictEqual(artifacts.find((a) => a.name === 'changes.patch')?.base_commit, commit);
  });

  it('a fork given context and attachments starts from that commit with those attachments; 400s name the field', async () => {
    const repo = makeRepository();
    dirs.push(repo.dir);
    const project = await createProject('git@example.com:team/demo.git');
    rt.setProjectCheckout(project.id as string, repo.dir);
    const task = await call(rt, 'POST', '/v1/tasks', {
      body: { objective: 'Polish', project_id: project.id, context: { ref: 'main', commit: repo.commit } },
    });
    assert.strictEqual(task.status, 201, task.text);
    const first = task.json.run_id as string;
    const { events } = await runToEnd(rt, first);
    const last = events[events.length - 2].data.sequence as number;

    fs.writeFileSync(
      path.join(repo.dir, 'src', 'app.ts'),
      'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n',
    );
    repo.git('commit', '-q', '-am', 'later');
    const head = repo.git('rev-parse', 'HEAD');
    fs.writeFileSync(path.join(repo.dir, 'README.md'), '# Demo\n\nOne.\nTwo.\nThree.\nFour.\n');
    const patchFile = await upload(rt, 'uncommitted.diff', repo.git('diff', 'HEAD') + '\n', { type: 'text/x-diff' });

    const refused = await call(rt, 'POST', `/v1/runs/${first}/fork`, {
      body: { after_sequence: last, context: { commit: 'f'.repeat(40) } },
    });
    assert.strictEqual(refused.status, 400, refused.text);
    assert.strictEqual(errorOf(refused).code, 'unknown_commit');
    const badFile = await call(rt, 'POST', `/v1/runs/${first}/fork`, {
      body: { after_sequence: last, attachments: [{ type: 'document', fileId: 'file_missing' }] },
    });
    assert.strictEqual(badFile.status, 404, badFile.text);

    const fork = await call(rt, 'POST', `/v1/runs/${first}/fork`, {
      body: {
        after_sequence: last,
        instructions: 'Catch up',
        context: { ref: 'main', commit: head },
        attachments: [{ type: 'document', fileId: patchFile.json.id }],
      },
    });
    assert.strictEqual(fork.status, 201, fork.text);
    assert.deepStrictEqual(fork.json.context, { ref: 'main', commit: head });
    const ended = await runToEnd(rt, fork.json.id as string);
    assert.strictEqual(ended.events[ended.events.length - 1].event, 'run.completed');
    const artifacts = (await call(rt, 'GET', `/v1/runs/${fork.json.id}/artifacts`)).json.data as {
      name: string;
      file_id: string;
      base_commit?: string;
    }[];
    const patch = artifacts.find((a) => a.name === 'changes.patch');
    assert.strictEqual(patch?.base_commit, head, 'the fork starts from the given commit');
    const text = (await call(rt, 'GET', `/v1/files/${patch.file_id}/content`)).text;
    assert.ok(text.includes('+Four.'), `the uncommitted work is applied: ${text}`);
  });
  it('a follow-up with review comments rewrites the quoted lines in its patch and logs no verdict', async () => {
    const repo = makeRepository();
    dirs.push(repo.dir);
    const project = await createProject('git@example.com:team/demo.git');
    rt.setProjectCheckout(project.id as string, repo.dir);
    const task = await call(rt, 'POST', '/v1/tasks', {
      body: { objective: 'Polish', project_id: project.id, context: { ref: 'main', commit: repo.commit } },
    });
    const first = task.json.run_id as string;
    const { events } = await runToEnd(rt, first);
    const last = events[events.length - 2].data.sequence as number;
    const comment = (id: string, line: number, quote: string, body: string) => ({
      id,
      path: 'README.md',
      start_line: line,
      end_line: line,
      side: 'agent',
      quote,
      body,
    });
    // The agent's version: "> Revised for: Polish", "", "# Demo", "", "One. (reviewed)", "Two.", "Three.", ...
    const fork = await call(rt, 'POST', `/v1/runs/${first}/fork`, {
      body: {
        after_sequence: last,
        review_comments: [comment('rc_two', 6, 'Two.', 'Plainer.'), comment('rc_three', 7, 'Three.', 'Leave it.')],
      },
    });
    assert.strictEqual(fork.status, 201, fork.text);
    const ended = await runToEnd(rt, fork.json.id as string);
    assert.strictEqual(ended.events[ended.events.length - 1].event, 'run.completed');
    assert.deepStrictEqual(
      ended.events.filter((e) => e.event === 'review_comment.addressed'),
      [],
      'a project run names no verdict',
    );
    const artifacts = (await call(rt, 'GET', `/v1/runs/${fork.json.id}/artifacts`)).json.data as {
      name: string;
      file_id: string;
    }[];
    const patch = artifacts.find((a) => a.name === 'changes.patch');
    assert.ok(patch);
    const text = (await call(rt, 'GET', `/v1/files/${patch.file_id}/content`)).text;
    const [part] = parsePatch(text);
    const after = applyPatch('# Demo\n\nOne.\nTwo.\nThree.\n', part);
    assert.ok(after !== false, text);
    assert.deepStrictEqual(after.split('\n').slice(4, 7), ['One. (reviewed)', `Two.${REVISED_MARK}`, 'Three.']);
  });
});
