// Delete File and Copy ID invoked without a row (the Command Palette, a keybinding) act on the
// view's current selection, and only with nothing selected say "Choose ... first.".
import * as assert from 'node:assert';
import type * as vscode from 'vscode';
import { registerFileCommands } from '../../../src/commands/fileCommands';
import type { CommandDeps } from '../../../src/commandSupport/commandDeps';
import type { SelectionView } from '../../../src/commandSupport/commandDeps';
import { Commands } from '../../../src/common/ids';
import { patchObjects } from '../commandSupport/commandHarness';
import * as stub from '../views/vscodeStub';

type Handler = (...args: unknown[]) => Promise<unknown>;

// The few editor calls these two commands make, recorded. The stub is shared by every unit test
// file: patched only while this file's tests run, and put back as it was after them.
const handlers = new Map<string, Handler>();
const clipboard: string[] = [];
const modals: Array<{ message: string; detail?: string }> = [];
const patches: Array<[object, Record<string, unknown>]> = [
  [
    stub.commands,
    {
      registerCommand: (id: string, handler: Handler) => {
        handlers.set(id, handler);
        return { dispose: () => handlers.delete(id) };
      },
    },
  ],
  [stub.env, { clipboard: { writeText: async (text: string) => void clipboard.push(text) } }],
  [
    stub.window,
    {
      setStatusBarMessage: () => ({ dispose: () => undefined }),
      // The delete confirmation: recorded, then answered Cancel, so nothing is sent.
      showWarningMessage: async (message: string, options?: { detail?: string }) =>
        void modals.push({ message, detail: options?.detail }),
    },
  ],
];

function depsWith(selected: Partial<Record<SelectionView, readonly unknown[]>>, asked: SelectionView[]): CommandDeps {
  const deps = {
    guard:
      (_name: string, handler: (...args: unknown[]) => unknown) =>
      async (...args: unknown[]) =>
        handler(...args),
    selection: (view: SelectionView) => {
      asked.push(view);
      return selected[view] ?? [];
    },
  };
  return deps as unknown as CommandDeps;
}

describe('Delete File and Copy ID without a row', () => {
  let disposables: vscode.Disposable[] = [];
  const asked: SelectionView[] = [];
  const run = (id: string, ...args: unknown[]) => (handlers.get(id) as Handler)(...args);
  const register = (selected: Partial<Record<SelectionView, readonly unknown[]>>) =>
    (disposables = registerFileCommands(depsWith(selected, asked)));
  let unpatch = (): void => undefined;
  before(() => (unpatch = patchObjects(patches)));
  after(() => unpatch());
  beforeEach(() => {
    clipboard.length = 0;
    modals.length = 0;
    asked.length = 0;
  });
  afterEach(() => disposables.forEach((d) => d.dispose()));

  it('Copy ID copies the ids of the rows selected in the view the user last used', async () => {
    register({ any: [{ file: { id: 'file_1' } }, { run: { id: 'run_2' } }] });
    assert.deepStrictEqual(await run(Commands.copyId), ['file_1', 'run_2']);
    assert.deepStrictEqual(clipboard, ['file_1\nrun_2']);
    assert.deepStrictEqual(asked, ['any']);
  });

  it('Delete File asks about the files selected in the Files view', async () => {
    register({ files: [{ file: { id: 'file_1', filename: 'notes.md' } }] });
    assert.deepStrictEqual(await run(Commands.deleteFile), []);
    assert.deepStrictEqual(
      modals.map((m) => m.message),
      ['Delete "notes.md" from the Agent Runtime service?'],
    );
    assert.deepStrictEqual(asked, ['files']);
  });

  it('Delete File of several files names each in the confirmation (from the palette the selection may be out of sight)', async () => {
    register({ files: [{ file: { id: 'file_1', filename: 'notes.md' } }, { file: { id: 'file_2' } }] });
    assert.deepStrictEqual(await run(Commands.deleteFile), []);
    assert.deepStrictEqual(modals, [
      {
        message: 'Delete 2 files from the Agent Runtime service?',
        detail: 'notes.md\nfile_2\n\nTasks that already use it keep their results. This cannot be undone.',
      },
    ]);
  });

  it('a row given still wins over the selection', async () => {
    register({ any: [{ file: { id: 'file_selected' } }] });
    assert.deepStrictEqual(await run(Commands.copyId, { task: { id: 'task_clicked' } }), ['task_clicked']);
  });

  it('with nothing selected, says to choose first', async () => {
    register({});
    await assert.rejects(run(Commands.deleteFile), /Choose a file in the Files view first\./);
    await assert.rejects(run(Commands.copyId), /Choose an item in the Agent Runtime views first\./);
    assert.deepStrictEqual(modals, []);
  });
});
