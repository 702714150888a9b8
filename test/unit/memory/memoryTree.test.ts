// The Memory view shows only entries that match its tag/project filter: an entry saved or
// remembered here (PagedTree.upsert) that the filter leaves out is not put in the list.
import '../views/vscodeStub';
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { ApiClient } from '../../../src/api/client';
import type { MemoryRecord } from '../../../src/api/resourceTypes';
import { MemoryTree } from '../../../src/memory/memoryTree';
import { CapturingLogger } from '../api/fixtures';

const entry = (id: string, tags: string[], project_id?: string): MemoryRecord => ({
  id,
  content: id,
  tags,
  ...(project_id ? { project_id } : {}),
  version: 1,
});

/** A Memory view over a service holding `records`; it lists by the view's filter as the service does. */
function memoryTree(records: MemoryRecord[]) {
  const client = {
    listMemory: async (params: { tag?: string; project_id?: string }) => ({
      object: 'list',
      data: records.filter(
        (r) =>
          (!params.tag || r.tags.includes(params.tag)) && (!params.project_id || r.project_id === params.project_id),
      ),
      has_more: false,
    }),
  } as unknown as ApiClient;
  const tree = new MemoryTree({
    getClient: () => client,
    isSignedIn: () => true,
    pageSize: () => 20,
    log: new CapturingLogger() as unknown as vscode.LogOutputChannel,
    onAuthError: () => undefined,
  });
  let changes = 0;
  tree.onDidChangeTreeData(() => changes++);
  return { tree, changes: () => changes };
}

describe('memory/memoryTree: a saved entry shows only when it matches the filter', () => {
  it('with a tag filter, an entry without the tag is not prepended; one with it is', async () => {
    const { tree, changes } = memoryTree([entry('mem_work', ['work'])]);
    tree.setFilter({ tag: 'work' });
    await tree.getChildren();
    const before = changes();

    tree.upsert(entry('mem_home', ['home']));
    assert.deepEqual(
      tree.entries.map((r) => r.id),
      ['mem_work'],
      'an entry outside the tag filter was shown',
    );
    assert.equal(changes(), before, 'the view was redrawn for an entry it does not show');

    tree.upsert(entry('mem_new', ['work', 'home']));
    assert.deepEqual(
      tree.entries.map((r) => r.id),
      ['mem_new', 'mem_work'],
    );
    tree.dispose();
  });

  it('with a project filter, an entry of another project (or none) is not prepended', async () => {
    const { tree } = memoryTree([entry('mem_a', [], 'proj_a')]);
    tree.setFilter({ project_id: 'proj_a' });
    await tree.getChildren();
    tree.upsert(entry('mem_b', [], 'proj_b'));
    tree.upsert(entry('mem_none', []));
    tree.upsert(entry('mem_a2', [], 'proj_a'));
    assert.deepEqual(
      tree.entries.map((r) => r.id),
      ['mem_a2', 'mem_a'],
    );
    tree.dispose();
  });

  it('without a filter every saved entry shows, a new one first and a changed one in place', async () => {
    const { tree } = memoryTree([entry('mem_1', ['x']), entry('mem_2', [])]);
    await tree.getChildren();
    tree.upsert(entry('mem_3', []));
    tree.upsert({ ...entry('mem_2', []), content: 'changed', version: 2 });
    assert.deepEqual(
      tree.entries.map((r) => [r.id, r.version]),
      [
        ['mem_3', 1],
        ['mem_1', 1],
        ['mem_2', 2],
      ],
    );
    tree.dispose();
  });

  it('an entry shown that no longer matches the filter is taken out, as a reload would', async () => {
    const { tree } = memoryTree([entry('mem_1', ['work'])]);
    tree.setFilter({ tag: 'work' });
    await tree.getChildren();
    tree.upsert({ ...entry('mem_1', ['home']), version: 2 });
    assert.deepEqual(tree.entries, []);
    tree.dispose();
  });
});
