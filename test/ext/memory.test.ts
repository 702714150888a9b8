// Memory entries as documents inside a real VS Code, against the reference runtime: save sends
// PATCH {content, version}; a conflict keeps the user's text and opens the compare editor, then
// Overwrite or Discard; delete; a service without memory shows a message in the view. A write or
// delete through vscode.workspace.fs (any extension's code) asks in a modal, answered here by
// wrapping vscode.window.showWarningMessage (askModal looks it up at each call).
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { admin, extensionApi, suiteWithService, waitFor } from './support';

const memoryUri = (id: string) => vscode.Uri.from({ scheme: 'agent-runtime-memory', path: `/${id}.md` });

async function openEdited(id: string, appended: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(memoryUri(id));
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  assert.ok(await editor.edit((e) => e.insert(doc.positionAt(doc.getText().length), appended)));
  return doc;
}

type Show = (...args: unknown[]) => Thenable<unknown>;

/** Runs `body` with every modal warning answered by `answer` (the question's buttons given), recording the questions. */
async function answeringModals<T>(
  answer: (items: string[]) => string | undefined,
  body: () => PromiseLike<T>,
): Promise<{ result: T; asked: Array<{ message: string; detail: string }> }> {
  const win = vscode.window as unknown as { showWarningMessage: Show };
  const original = win.showWarningMessage;
  const asked: Array<{ message: string; detail: string }> = [];
  const wrapped: Show = (message, ...rest) => {
    const options = rest[0] as vscode.MessageOptions | undefined;
    if (typeof options === 'object' && options !== null && options.modal === true) {
      asked.push({ message: String(message), detail: options.detail ?? '' });
      return Promise.resolve(answer(rest.slice(1).filter((r): r is string => typeof r === 'string')));
    }
    return original(message, ...rest);
  };
  win.showWarningMessage = wrapped;
  assert.strictEqual(win.showWarningMessage, wrapped, 'this window cannot have its modals answered');
  try {
    return { result: await body(), asked };
  } finally {
    win.showWarningMessage = original;
  }
}

function compareEditorOpen(id: string): boolean {
  return vscode.window.tabGroups.all.some((g) =>
    g.tabs.some(
      (tab) =>
        tab.input instanceof vscode.TabInputTextDiff &&
        tab.input.original.query === 'service' &&
        tab.input.modified.path === `/${id}.md`,
    ),
  );
}

describe('memory documents (agent-runtime-memory:)', () => {
  const client = suiteWithService();

  it('opens an entry as text and saves an edit with PATCH {content, version}', async () => {
    const created = await client.createMemory({ content: 'Alpha\n', tags: ['ext'] });
    const api = await extensionApi();
    // The view loads its first page when asked for its rows (it need not be visible for that).
    api.memory.tree.refresh();
    await api.memory.tree.getChildren();
    assert.ok(api.memory.tree.entries.some((r) => r.id === created.id));
    const doc = await openEdited(created.id, 'Beta\n');
    // The person's own save: no question (one would be left open, and the save would not end).
    assert.strictEqual(await doc.save(), true);
    const after = await client.getMemory(created.id);
    assert.strictEqual(after.content, 'Alpha\nBeta\n');
    assert.strictEqual(after.version, 2);
    assert.strictEqual(
      api.memory.tree.entries.find((r) => r.id === created.id)?.version,
      2,
      'the row follows the save',
    );
  });

  it('takes two writes of one entry in quick succession one after the other, not as a conflict', async () => {
    // The provider itself (not VS Code's file service, which queues writes per file): a second
    // write arriving while the first is on its way (seen from VS Code 1.139's save) must wait for
    // it and go on from the version it left.
    const created = await client.createMemory({ content: 'One\n' });
    const api = await extensionApi();
    const uri = memoryUri(created.id);
    await api.memory.fs.readFile(uri);
    const encode = (text: string) => new TextEncoder().encode(text);
    // Not a save of an open document: each write asks, and is confirmed here.
    const { asked } = await answeringModals(
      (items) => items[0],
      () =>
        Promise.all([
          api.memory.fs.writeFile(uri, encode('One\nTwo\n')),
          api.memory.fs.writeFile(uri, encode('One\nTwo\nThree\n')),
        ]),
    );
    assert.strictEqual(asked.length, 2);
    const after = await client.getMemory(created.id);
    assert.strictEqual(after.content, 'One\nTwo\nThree\n');
    assert.strictEqual(after.version, 3);
  });

  it('a write through vscode.workspace.fs asks with the entry and the whole new text; No leaves the entry', async () => {
    const created = await client.createMemory({ content: 'Deploy from main only.\n', tags: ['ci'] });
    const uri = memoryUri(created.id);
    const planted = `Deploy from any branch.\n${'x'.repeat(50)}\nlast line of the planted text`;
    const refused = await answeringModals(
      () => undefined,
      () =>
        vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(planted)).then(
          () => 'written',
          (err: unknown) => `refused: ${String(err)}`,
        ),
    );
    assert.match(refused.result, /^refused: .*not confirmed/);
    assert.strictEqual(refused.asked.length, 1, JSON.stringify(refused.asked));
    assert.match(refused.asked[0].message, /wants to change this memory/);
    assert.ok(refused.asked[0].detail.includes(created.id), 'the entry is not named');
    assert.ok(refused.asked[0].detail.includes('Deploy from main only.'), 'its current text is not shown');
    assert.ok(refused.asked[0].detail.includes('last line of the planted text'), 'the new text is not shown whole');
    const untouched = await client.getMemory(created.id);
    assert.strictEqual(untouched.content, 'Deploy from main only.\n');
    assert.strictEqual(untouched.version, 1);

    const confirmed = await answeringModals(
      (items) => items.find((i) => /Save/.test(i)),
      () => vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(planted)),
    );
    assert.strictEqual(confirmed.asked.length, 1);
    assert.strictEqual((await client.getMemory(created.id)).content, planted);
  });

  it('a delete through vscode.workspace.fs asks with the whole entry; No leaves it, Delete removes it', async () => {
    const created = await client.createMemory({ content: 'Keep me\nsecond line\n', tags: ['ext'] });
    const uri = memoryUri(created.id);
    const refused = await answeringModals(
      () => undefined,
      () =>
        vscode.workspace.fs.delete(uri).then(
          () => 'deleted',
          (err: unknown) => `refused: ${String(err)}`,
        ),
    );
    assert.match(refused.result, /^refused: .*not deleted/);
    assert.strictEqual(refused.asked.length, 1);
    assert.match(refused.asked[0].message, /wants to delete this memory/);
    assert.ok(refused.asked[0].detail.includes(created.id));
    assert.ok(refused.asked[0].detail.includes('second line'), 'the entry is not shown whole');
    assert.strictEqual((await client.getMemory(created.id)).content, 'Keep me\nsecond line\n');

    const api = await extensionApi();
    const confirmed = await answeringModals(
      (items) => items.find((i) => i === 'Delete'),
      () => vscode.workspace.fs.delete(uri),
    );
    assert.strictEqual(confirmed.asked.length, 1);
    await assert.rejects(client.getMemory(created.id));
    assert.ok(!api.memory.tree.entries.some((r) => r.id === created.id));
  });

  it('on a version conflict keeps the text, opens the compare editor, and Overwrite saves it over theirs', async () => {
    const created = await client.createMemory({ content: 'Shared fact\n' });
    const doc = await openEdited(created.id, 'mine\n');
    await client.updateMemory(created.id, { content: 'Shared fact\ntheirs\n', version: 1 });
    assert.strictEqual(await doc.save(), false, 'the save fails');
    assert.strictEqual(doc.getText(), 'Shared fact\nmine\n', 'nothing of the user text is lost');
    assert.ok(doc.isDirty);
    await waitFor('the compare editor', () => compareEditorOpen(created.id));
    const api = await extensionApi();
    assert.strictEqual(api.memory.fs.conflictOf(created.id)?.content, 'Shared fact\ntheirs\n');
    assert.strictEqual(await api.memory.conflicts.resolve(created.id, 'overwrite'), true);
    const after = await client.getMemory(created.id);
    assert.strictEqual(after.content, 'Shared fact\nmine\n');
    assert.strictEqual(after.version, 3);
    assert.ok(!doc.isDirty);
  });

  it('on a version conflict, Discard takes the service text', async () => {
    const created = await client.createMemory({ content: 'Base\n' });
    const doc = await openEdited(created.id, 'mine\n');
    await client.updateMemory(created.id, { content: 'Base\ntheirs\n', version: 1 });
    assert.strictEqual(await doc.save(), false);
    const api = await extensionApi();
    await waitFor('the conflict', () => api.memory.fs.conflictOf(created.id));
    assert.strictEqual(await api.memory.conflicts.resolve(created.id, 'discard'), true);
    await waitFor('the service text in the editor', () => doc.getText() === 'Base\ntheirs\n');
    assert.strictEqual((await client.getMemory(created.id)).version, 2, 'nothing was sent');
  });

  it('deletes an entry (automation skips the question) and Remember Selection creates one', async () => {
    const api = await extensionApi();
    const remembered = await vscode.commands.executeCommand<{ id: string }>('agentRuntime.rememberSelection', {
      text: 'Remember this',
      tags: ['ext'],
    });
    assert.ok(remembered?.id);
    assert.strictEqual((await client.getMemory(remembered.id)).content, 'Remember this');
    assert.strictEqual(
      await vscode.commands.executeCommand('agentRuntime.deleteMemory', { id: remembered.id, confirm: false }),
      true,
    );
    await assert.rejects(client.getMemory(remembered.id));
    assert.ok(!api.memory.tree.entries.some((r) => r.id === remembered.id));
  });

  it('a service without memory: the view says what it does not offer', async () => {
    const api = await extensionApi();
    await admin('/faults', { missingEndpoints: ['memory'] });
    try {
      api.memory.tree.refresh();
      await api.memory.tree.getChildren();
      assert.match(String((api.memory.tree.view as vscode.TreeView<unknown>).message), /does not offer memory/);
    } finally {
      await fetch(`${process.env.AGENT_RUNTIME_TEST_BASE_URL}/__admin/faults`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${process.env.AGENT_RUNTIME_TEST_ADMIN_KEY}` },
      });
      api.memory.tree.refresh();
    }
  });
});
