// Projects through the ApiClient against the reference runtime over HTTP: list (the bounded
// pager), get, create (409 project_exists with the record), delete, tasks in a project, and a
// server without /v1/projects (404/405 -> not_supported).
import * as assert from 'node:assert/strict';
import { isApiError } from '../../../src/api/errors';
import { existingProject, hasUserInfo } from '../../../src/api/projects';
import { QUICK_BACKOFF, rejectionOf, type RuntimeWithClient, startRuntimeWithClient } from './fixtures';

describe('api/projects', () => {
  let ctx: RuntimeWithClient;
  before(async () => {
    ctx = await startRuntimeWithClient({}, { backoff: QUICK_BACKOFF });
  });
  after(async () => ctx.close());
  afterEach(() => ctx.runtime.clearFaults());

  it('creates, gets, lists through the pager and deletes a project', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(
        await ctx.client.createProject({ name: `p${i}`, repository: { url: `https://example.com/pager/r${i}.git` } }),
      );
    }
    assert.match(made[0].id, /^proj_/);
    assert.equal((await ctx.client.getProject(made[2].id)).name, 'p2');
    const walk = ctx.client.iterateProjects({ limit: 2 });
    const seen: string[] = [];
    for await (const project of walk) {
      seen.push(project.id);
    }
    for (const project of made) {
      assert.ok(seen.includes(project.id));
    }
    assert.equal(walk.cut, undefined);

    const capped = ctx.client.iterateProjects({ limit: 2 }, { maxPages: 1 });
    let count = 0;
    for await (const _ of capped) {
      count++;
    }
    assert.equal(count, 2);
    assert.equal(capped.cut?.reason, 'pages', 'a capped walk says so');

    const deleted = await ctx.client.deleteProject(made[0].id);
    assert.equal(deleted.deleted, true);
    const gone = await rejectionOf(ctx.client.getProject(made[0].id));
    assert.ok(isApiError(gone, 'not_found'), String(gone));
    assert.equal((gone as { code?: string }).code, 'project_not_found');
  });

  it('a second project of the same repository is a conflict carrying the existing record', async () => {
    const first = await ctx.client.createProject({
      name: 'dup',
      repository: { url: 'https://example.com/Team/Dup.git' },
    });
    const err = await rejectionOf(
      ctx.client.createProject({ name: 'dup2', repository: { url: 'git@example.com:team/dup' } }),
    );
    assert.ok(isApiError(err, 'conflict'), String(err));
    assert.equal(existingProject(err)?.id, first.id);
  });

  it('refuses a clone URL with user info before sending anything, and never repeats it', async () => {
    const counter = ctx.runtime.countRequests('POST', /^\/v1\/projects/);
    const err = await rejectionOf(
      ctx.client.createProject({ name: 'x', repository: { url: 'https://user:tok3n@example.com/x.git' } }),
    );
    counter.stop();
    assert.ok(isApiError(err, 'validation'));
    assert.equal(counter.count, 0, 'nothing reached the server');
    assert.ok(!String((err as Error).message).includes('tok3n'));
    assert.ok(!ctx.logger.lines.some((l) => l.includes('tok3n')));
  });

  it('user info that may be a secret: a token alone, user and token, an scp password; never the ssh account', async () => {
    for (const url of [
      'https://tok3n@example.com/x.git',
      'https://user:tok3n@example.com/x.git',
      ' ssh://git:tok3n@example.com/x ',
      'user:tok3n@example.com:team/x.git',
    ]) {
      assert.equal(hasUserInfo(url), true, url);
      const counter = ctx.runtime.countRequests('POST', /^\/v1\/projects/);
      const err = await rejectionOf(ctx.client.createProject({ name: 'x', repository: { url } }));
      counter.stop();
      assert.ok(isApiError(err, 'validation'), url);
      assert.equal(counter.count, 0, `${url}: nothing reached the server`);
    }
    for (const url of ['https://example.com/x.git', 'git@example.com:team/x.git', 'https://example.com/x?a=b@c']) {
      assert.equal(hasUserInfo(url), false, url);
    }
  });

  it("creates a task in a project with context, and lists the project's tasks", async () => {
    const project = await ctx.client.createProject({
      name: 'tasks',
      repository: { url: 'https://example.com/team/tasks' },
    });
    const commit = 'c'.repeat(40);
    const task = await ctx.client.createTask({
      objective: 'In the project',
      project_id: project.id,
      context: { ref: 'main', commit },
    });
    assert.equal(task.project_id, project.id);
    assert.deepEqual(task.context, { ref: 'main', commit });
    await ctx.client.createTask({ objective: 'Loose' });
    const page = await ctx.client.listTasks({ project_id: project.id });
    assert.deepEqual(
      page.data.map((t) => t.id),
      [task.id],
    );

    const missing = await rejectionOf(ctx.client.createTask({ objective: 'x', project_id: 'proj_missing' }));
    assert.ok(isApiError(missing, 'not_found'));
    assert.equal((missing as { code?: string }).code, 'project_not_found');
    const badCommit = await rejectionOf(
      ctx.client.createTask({ objective: 'x', project_id: project.id, context: { commit: 'HEAD' } }),
    );
    assert.ok(isApiError(badCommit, 'validation'));
  });

  for (const status of [404, 405] as const) {
    it(`a server without /v1/projects (${status}) is not_supported for each call`, async () => {
      const project = await ctx.client.createProject({
        name: `gone${status}`,
        repository: { url: `https://example.com/gone/${status}` },
      });
      ctx.runtime.setFaults({ missingEndpoints: ['projects'], missingEndpointStatus: status });
      const calls = [
        () => ctx.client.listProjects(),
        () => ctx.client.getProject(project.id),
        () => ctx.client.createProject({ name: 'n', repository: { url: 'https://example.com/n/n' } }),
        () => ctx.client.deleteProject(project.id),
      ];
      for (const call of calls) {
        const err = await rejectionOf(call());
        assert.ok(isApiError(err, 'not_supported'), String(err));
      }
    });
  }
});
