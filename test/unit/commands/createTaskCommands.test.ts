// Create Task called with arguments (a keybinding, a link, another extension): the arguments are
// checked, and an objective nobody typed in this window is shown to the person whole before any
// task exists. The editor is the unit stub; the modal is patched in and answers as told.
import '../views/vscodeStub';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { givenTask, registerCreateTaskCommands } from '../../../src/commands/createTaskCommands';
import type { CommandDeps } from '../../../src/commandSupport/commandDeps';

type Mutable = Record<string, unknown>;

describe('commands/createTaskCommands', () => {
  const window = vscode.window as unknown as Mutable;
  const commands = vscode.commands as unknown as Mutable;
  let handlers: Map<string, (...args: unknown[]) => unknown>;
  let asked: { message: string; detail?: string }[];
  let answer: 'yes' | 'no';
  let created: { objective: string; attachments: unknown[] }[];
  let capAskedOf: string[];
  let errors: unknown[];

  function deps(trustedAutomation = false): CommandDeps {
    return {
      trustedAutomation,
      ensureSignedIn: async () => true,
      guard:
        (_name: string, handler: (...args: unknown[]) => unknown) =>
        async (...args: unknown[]) => {
          try {
            return await handler(...args);
          } catch (err) {
            errors.push(err);
            return undefined;
          }
        },
      service: {
        serviceUrl: 'https://agents.example.test',
        client: {
          createTask: async (request: { objective: string; attachments: unknown[] }) => {
            created.push(request);
            return { id: 'task_1', run_id: 'run_1', status: 'queued' };
          },
          getFile: async (id: string) => ({ id, filename: `${id}.md` }),
        },
      },
      log: { error: () => undefined, warn: () => undefined, info: () => undefined },
      localFiles: { recordTask: async () => undefined },
      tasks: { refresh: () => undefined, followNewTask: async () => undefined },
      budgets: {
        choose: async (requester: string) => {
          capAskedOf.push(requester);
          return {};
        },
        askedInTests: [],
        noteStarted: () => undefined,
      },
    } as unknown as CommandDeps;
  }

  beforeEach(() => {
    handlers = new Map();
    asked = [];
    created = [];
    capAskedOf = [];
    errors = [];
    answer = 'no';
    commands.registerCommand = (id: string, handler: (...args: unknown[]) => unknown) => {
      handlers.set(id, handler);
      return { dispose: () => undefined };
    };
    window.showWarningMessage = async (message: string, options: { detail?: string }, ...items: string[]) => {
      asked.push({ message, detail: options.detail });
      return answer === 'yes' ? items.find((i) => i !== 'Show All') : undefined;
    };
    window.showInformationMessage = async () => undefined;
    window.showInputBox = async () => {
      throw new Error('the objective box must not be shown for a given objective');
    };
  });
  afterEach(() => {
    delete commands.registerCommand;
    delete window.showWarningMessage;
    delete window.showInformationMessage;
    delete window.showInputBox;
  });

  const createTask = (d: CommandDeps, ...args: unknown[]): Promise<unknown> => {
    registerCreateTaskCommands(d);
    const handler = handlers.get('agentRuntime.createTask');
    assert.ok(handler, 'Create Task is registered');
    return Promise.resolve(handler(...args));
  };

  it('checks what a caller gives: shapes, counts and lengths', () => {
    assert.deepEqual(givenTask(undefined), { files: [] });
    assert.deepEqual(givenTask({ objective: '  Tidy  ', fileIds: ['file_1'] }), {
      objective: 'Tidy',
      files: [{ id: 'file_1' }],
    });
    assert.deepEqual(givenTask({ objective: '   ' }), { files: [] }, 'a blank objective is asked for');
    for (const bad of ['text', 7, { objective: 7 }, { fileIds: 'file_1' }, { fileIds: [1] }, { fileIds: [''] }]) {
      assert.equal(typeof givenTask(bad), 'string', `refused: ${JSON.stringify(bad)}`);
    }
    assert.match(String(givenTask({ fileIds: Array.from({ length: 101 }, (_, i) => `file_${i}`) })), /at most 100/);
    assert.equal(typeof givenTask({ fileIds: Array.from({ length: 100 }, (_, i) => `file_${i}`) }), 'object');
    assert.match(String(givenTask({ objective: 'x'.repeat(10_001) })), /10001 characters long/);
  });

  it('an objective given by a call is shown whole, and a no creates nothing', async () => {
    const objective = `Refactor the module. ${'Keep every public name. '.repeat(20)}Then run the tests.`;
    assert.equal(await createTask(deps(), { objective, fileIds: ['file_a'] }), undefined);
    assert.equal(created.length, 0, 'nothing was created');
    assert.equal(capAskedOf.length, 0, 'nor was the cap asked');
    assert.equal(asked.length >= 1, true, 'the person was asked');
    assert.match(asked[0].message, /Create an Agent Runtime task on https:\/\/agents\.example\.test\?/);
    const shown = asked.map((a) => a.detail ?? '').join('\n');
    assert.ok(shown.replace(/\s+/g, ' ').includes(objective), 'the whole objective');
    assert.match(shown, /file_a\.md \(file_a\)/);
  });

  it('a yes creates it as the person’s own task (the cap is asked of them)', async () => {
    answer = 'yes';
    await createTask(deps(), { objective: 'Tidy the notes' });
    assert.deepEqual(
      created.map((c) => c.objective),
      ['Tidy the notes'],
    );
    assert.deepEqual(capAskedOf, ['person']);
    assert.match(asked[0].detail ?? '', /Objective: Tidy the notes/);
    assert.match(asked[0].detail ?? '', /No files are attached\./);
  });

  it('arguments it cannot use are refused with a sentence, nothing created', async () => {
    await createTask(deps(), { objective: 42 });
    assert.equal(created.length, 0);
    assert.equal(asked.length, 0);
    assert.match(String((errors[0] as Error)?.message), /cannot use/);
  });
});
