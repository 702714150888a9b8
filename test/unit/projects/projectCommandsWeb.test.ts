// The web build's project commands (src/projects/projectCommands.web.ts) against the reference
// runtime over HTTP: a workspace folder opened from a GitHub repository
// (vscode-vfs://github/owner/repo) finds, creates and scopes its project and starts a task in it
// with a cap noted; any other folder, or none, gets the one sentence saying what is needed, and
// nothing is sent. (VS Code for the Web cannot open a vscode-vfs folder offline: the workspace's
// folders and URIs are given here as VS Code would give them.)
import '../views/vscodeStub';
import * as assert from 'node:assert/strict';
import { UserFacingError } from '../../../src/commandSupport/commandErrors';
import {
  clonePosition,
  createProjectFlow,
  newTaskFlow,
  toggleProjectTasks,
} from '../../../src/projects/projectCommands.web';
import { type RuntimeWithClient, startRuntimeWithClient } from '../api/fixtures';
import { commandDeps, prompts } from '../commandSupport/commandHarness';
import * as stub from '../views/vscodeStub';

interface Parts {
  scheme: string;
  authority: string;
  path: string;
  toString(): string;
}

/** A URI as VS Code parses it: scheme, authority, path. */
function parse(text: string): Parts {
  const m = /^([a-z][\w+.-]*):\/\/([^/]*)(\/.*)?$/i.exec(text);
  assert.ok(m, text);
  return { scheme: m[1], authority: m[2], path: m[3] ?? '/', toString: () => text };
}

describe('projects in the web build (a GitHub Repositories workspace)', () => {
  let ctx: RuntimeWithClient;
  const p = prompts();
  const errors: unknown[] = [];
  const started: unknown[] = [];
  let folders: Parts[] = [];
  let unpatch = (): void => undefined;
  const saved: Record<string, unknown> = {};
  const vscodeStub = stub as unknown as Record<string, unknown>;
  let deps: ReturnType<typeof commandDeps>;

  before(async () => {
    ctx = await startRuntimeWithClient();
    unpatch = p.install();
    for (const key of ['extensions']) {
      saved[key] = vscodeStub[key];
    }
    saved.parse = stub.Uri.parse;
    // No GitHub Repositories extension here: no branch or commit is claimed.
    vscodeStub.extensions = { getExtension: () => undefined };
    (stub.Uri as unknown as { parse: (t: string) => Parts }).parse = parse;
    // (A getter, as VS Code's: Object.assign would copy today's list once.)
    Object.defineProperty(stub.workspace, 'workspaceFolders', {
      configurable: true,
      get: () => folders.map((uri, index) => ({ uri, index, name: uri.path })),
    });
    Object.assign(stub.workspace, {
      getWorkspaceFolder: (uri: Parts) => {
        const found = folders.find((f) => uri.toString() === f.toString());
        return found ? { uri: found } : undefined;
      },
    });
    deps = commandDeps(ctx.client, { trusted: () => true, errors });
    Object.assign(deps, {
      ensureSignedIn: async () => true,
      budgets: { choose: async () => ({}), noteStarted: (...args: unknown[]) => void started.push(args) },
    });
  });
  after(async () => {
    unpatch();
    vscodeStub.extensions = saved.extensions;
    (stub.Uri as unknown as { parse: unknown }).parse = saved.parse;
    const ws = stub.workspace as Record<string, unknown>;
    delete ws.workspaceFolders;
    delete ws.getWorkspaceFolder;
    await ctx.close();
  });
  beforeEach(() => {
    p.reset();
    errors.length = 0;
    started.length = 0;
    folders = [];
  });

  it('creates the project of the folder’s repository, then starts a task in it without claiming a commit', async () => {
    folders = [parse('vscode-vfs://github/octo-web/hello')];
    const project = await createProjectFlow(deps, { name: 'Hello from the browser' });
    assert.ok(project);
    assert.equal(project.repository?.url, 'https://github.com/octo-web/hello');

    const task = await newTaskFlow(deps, { objective: 'Tidy the README' });
    assert.ok(task, `no task: ${p.notices.map((n) => n.message).join(' | ')}`);
    const stored = await ctx.client.getTask(task.id);
    assert.equal(stored.project_id, project.id);
    // No branch or commit known here: the service's default branch, and nothing claimed.
    assert.equal((stored as { context?: unknown }).context, undefined);
    assert.equal(started.length, 1, 'the run is measured against the cap chosen');

    const scoped: unknown[] = [];
    const view = { projectScope: undefined, setProjectScope: (s: unknown) => void scoped.push(s) };
    const scope = await toggleProjectTasks(deps, view, { folder: 'vscode-vfs://github/octo-web/hello' });
    assert.deepEqual(scope, { id: project.id, label: 'Hello from the browser' });
    assert.deepEqual(scoped, [scope]);
  });

  it('finds the project of a repository named in another form (an SSH clone URL), by the same rule', async () => {
    const created = await ctx.client.createProject({
      name: 'By SSH',
      repository: { url: 'git@github.com:Octo-Web/By-Ssh.git' },
    });
    folders = [parse('vscode-vfs://github/octo-web/by-ssh')];
    const found = await createProjectFlow(deps, {});
    assert.equal(found?.id, created.id);
    assert.match(p.notices.map((n) => n.message).join('\n'), /already has the project "By SSH"/);
  });

  it('starts nothing for a repository without a project unless the person creates one', async () => {
    folders = [parse('vscode-vfs://github/octo-web/no-project-yet')];
    const before = (await ctx.client.listTasks({ limit: 100 })).data.length;
    assert.equal(await newTaskFlow(deps, { objective: 'never sent' }), undefined);
    assert.equal((await ctx.client.listTasks({ limit: 100 })).data.length, before);
  });

  it('says in one sentence what is needed in a folder not opened from GitHub, or with no folder, and sends nothing', async () => {
    for (const setup of [
      () => (folders = [parse('vscode-remote://localhost:8080/home/me/repo')]),
      () => (folders = []),
    ]) {
      setup();
      errors.length = 0;
      const before = (await ctx.client.listTasks({ limit: 100 })).data.length;
      await assert.rejects(
        newTaskFlow(deps, { objective: 'never sent' }),
        (err: unknown) =>
          err instanceof UserFacingError && /need a workspace opened from a GitHub repository/.test(err.message),
      );
      await assert.rejects(
        toggleProjectTasks(deps, { projectScope: undefined, setProjectScope: () => undefined }, {}),
        UserFacingError,
      );
      assert.equal((await ctx.client.listTasks({ limit: 100 })).data.length, before);
    }
    assert.match(String(await clonePosition(deps, 'proj_x', 'a'.repeat(40))), /has no git clone of the project/);
  });
});
