// The Tasks view and projects: it can show only one project's tasks (`?project_id=`,
// and its description says so, beside a filter's), and a task row names its project by the
// project's name, never its id: made inert (bidi visible, no link), cut, and looked up a bounded
// number of times per page however many projects a page names.
import './vscodeStub';
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { Page, TaskRecord } from '../../../src/api/types';
import { RunStore } from '../../../src/runs/runStore';
import { SidebarContextKeys } from '../../../src/views/contextKeys';
import { TaskNode, type TreeNode } from '../../../src/views/nodes';
import { MAX_PROJECT_LOOKUPS, TasksTreeProvider } from '../../../src/views/tasksProvider';
import { revealTask } from '../../../src/views/tasksReveal';
import type { ViewApiClient, ViewDeps } from '../../../src/views/viewDeps';
import { ViewFilter } from '../../../src/views/viewFilter';
import { CapturingLogger } from '../api/fixtures';

const HOSTILE_NAME = 'web\u202Egnp.exe [run](command:workbench.action.terminal.new)';

function task(id: string, projectId?: string): TaskRecord {
  return { id, object: 'task', status: 'succeeded', objective: `Task ${id}`, project_id: projectId };
}

function page<T>(data: T[]): Page<T> {
  return { object: 'list', data, has_more: false };
}

function fakeClient(tasks: TaskRecord[], names: Record<string, string>) {
  const listed: (string | undefined)[] = [];
  const looked: string[] = [];
  const client: ViewApiClient = {
    listFiles: async () => page([]),
    getFile: async () => {
      throw new Error('not used');
    },
    listTasks: async (params) => {
      listed.push(params?.project_id);
      return page(params?.project_id ? tasks.filter((t) => t.project_id === params.project_id) : tasks);
    },
    getTask: async (id) => {
      const found = tasks.find((t) => t.id === id);
      if (!found) {
        throw new Error(`no task ${id}`);
      }
      return found;
    },
    listRuns: async () => page([]),
    getRun: async () => {
      throw new Error('not used');
    },
    listRunArtifacts: async () => page([]),
    getProject: async (id) => {
      looked.push(id);
      return { id, object: 'project', name: names[id] };
    },
  };
  return { client, listed, looked };
}

function provider(client: ViewApiClient): TasksTreeProvider {
  const log = new CapturingLogger();
  const deps: ViewDeps = {
    getClient: () => client,
    pageSize: () => 100,
    isSignedIn: () => true,
    onAuthError: () => undefined,
    log,
    localFiles: { list: () => [], remove: () => undefined },
  };
  const runs = new RunStore({ fetchRun: (id, signal) => client.getRun(id, { signal }), log });
  return new TasksTreeProvider(deps, runs, { contextKeys: new SidebarContextKeys(() => undefined) });
}

describe('views/project tasks', () => {
  it('a task row names its project by name (inert), never by id; others stay as they were', async () => {
    const fake = fakeClient([task('task_1', 'proj_a'), task('task_2', 'proj_b'), task('task_3')], {
      proj_a: 'Website',
      proj_b: HOSTILE_NAME,
    });
    const tasks = provider(fake.client);
    const rows = (await tasks.getChildren()) as TaskNode[];
    const descriptions = rows.map((r) => String(r.description));
    assert.match(descriptions[0], /· Website$/);
    assert.ok(!descriptions.some((d) => d.includes('proj_')), descriptions.join(' | '));
    assert.ok(!descriptions[1].includes('\u202E'), 'a bidi override is shown, not obeyed');
    assert.ok(descriptions[1].includes('\\u202e'), descriptions[1]);
    assert.ok(!descriptions[1].includes(']('), 'no link');
    assert.ok(!descriptions[2].includes('·  '), descriptions[2]);
    assert.match(String(rows[0].tooltip), /Website/);
    tasks.dispose();
  });

  it('looks up at most MAX_PROJECT_LOOKUPS projects per page, each once', async () => {
    const many = Array.from({ length: 30 }, (_, i) => task(`task_${i}`, `proj_${i}`));
    const fake = fakeClient([...many, task('task_again', 'proj_0')], {});
    const tasks = provider(fake.client);
    await tasks.getChildren();
    assert.equal(fake.looked.length, MAX_PROJECT_LOOKUPS);
    assert.equal(new Set(fake.looked).size, fake.looked.length);
    tasks.dispose();
  });

  it("shows one project's tasks with ?project_id=, and the description says so beside a filter", async () => {
    const fake = fakeClient([task('task_1', 'proj_a'), task('task_2', 'proj_b')], { proj_a: 'Website' });
    const tasks = provider(fake.client);
    const filter = new ViewFilter(tasks, {
      view: 'tasks',
      state: { get: () => undefined, update: async () => undefined },
      contextKey: 'agentRuntime.tasksFiltered',
      setContext: () => undefined,
      pageSize: () => 100,
      fields: (node) => (node instanceof TaskNode ? [node.task.objective] : []),
    });
    const view: { description?: string } = {};
    filter.attach(view as unknown as vscode.TreeView<TreeNode>);
    const scopes: unknown[] = [];
    tasks.onDidChangeProjectScope((s) => {
      scopes.push(s);
      filter.setScope(s ? `Project: ${s.label}` : undefined);
    });

    await filter.getChildren();
    assert.deepEqual(fake.listed, [undefined]);
    assert.equal(view.description, undefined);

    tasks.setProjectScope({ id: 'proj_a', label: 'Website' });
    const rows = await filter.getChildren();
    assert.deepEqual(fake.listed, [undefined, 'proj_a']);
    assert.deepEqual(
      rows.map((r) => r.id),
      ['task:task_1'],
    );
    assert.equal(view.description, 'Project: Website');
    await filter.setQuery('Task');
    await filter.getChildren();
    assert.match(String(view.description), /^Project: Website · Filtered: "Task"/);

    tasks.setProjectScope(undefined);
    await filter.setQuery(undefined);
    await filter.getChildren();
    assert.equal(fake.listed.at(-1), undefined);
    assert.equal(view.description, undefined);
    assert.deepEqual(scopes, [{ id: 'proj_a', label: 'Website' }, undefined]);
    filter.dispose();
    tasks.dispose();
  });

  it('going to a task of another project leaves the project limit: never shown under the wrong project', async () => {
    const fake = fakeClient([task('task_1', 'proj_a'), task('task_2', 'proj_b')], { proj_a: 'Website' });
    const tasks = provider(fake.client);
    tasks.setProjectScope({ id: 'proj_a', label: 'Website' });
    const scoped = (await tasks.loadedRoot())!;
    assert.deepEqual(
      scoped.items.map((n) => n.task.id),
      ['task_1'],
    );
    const node = await revealTask(tasks, () => fake.client, 'task_2');
    assert.equal(node?.task.id, 'task_2');
    assert.equal(tasks.projectScope, undefined, 'a task of proj_b was put into the proj_a list');
    const shown = ((await tasks.getChildren()) as TaskNode[]).map((n) => n.task.id);
    assert.ok(shown.includes('task_2') && shown.includes('task_1'), shown.join(','));
    // A task of the project in scope keeps the limit.
    tasks.setProjectScope({ id: 'proj_a', label: 'Website' });
    await revealTask(tasks, () => fake.client, 'task_1');
    assert.equal((tasks.projectScope as { id: string } | undefined)?.id, 'proj_a');
    tasks.dispose();
  });
});
