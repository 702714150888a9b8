// Tasks asked for by someone other than the person's own commands: another extension is always
// asked (files or none), the chat asks when it sends files; nothing is created when the person
// says no. The editor is the unit stub; the modal is patched in and answers as told.
import '../views/vscodeStub';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { createTaskRequests } from '../../../src/commands/taskRequest';
import type { CommandDeps } from '../../../src/commandSupport/commandDeps';

type Window = Record<string, unknown>;

describe('commands/taskRequest', () => {
  const window = vscode.window as unknown as Window;
  let asked: { message: string; detail?: string }[];
  let answer: 'yes' | 'no';
  let created: string[];

  function deps(trustedAutomation = false): CommandDeps {
    return {
      trustedAutomation,
      ensureSignedIn: async () => true,
      service: {
        serviceUrl: 'https://agents.example.test',
        client: {
          createTask: async (request: { objective: string }) => {
            created.push(request.objective);
            return { id: 'task_1', run_id: 'run_1', status: 'queued' };
          },
        },
      },
      log: { error: () => undefined, warn: () => undefined, info: () => undefined },
      localFiles: { recordTask: async () => undefined },
      tasks: { refresh: () => undefined, followNewTask: async () => undefined },
      budgets: { choose: async () => ({}), askedInTests: [], noteStarted: () => undefined },
    } as unknown as CommandDeps;
  }

  beforeEach(() => {
    asked = [];
    created = [];
    answer = 'no';
    window.showWarningMessage = async (message: string, options: { detail?: string }, ...items: string[]) => {
      asked.push({ message, detail: options.detail });
      return answer === 'yes' ? items[0] : undefined;
    };
    // "Task created." with its Watch Run button: not answered.
    window.showInformationMessage = async () => undefined;
  });
  afterEach(() => {
    delete window.showWarningMessage;
    delete window.showInformationMessage;
  });

  it('another extension without files: the person is asked, and a no creates nothing', async () => {
    const requests = createTaskRequests(deps());
    assert.equal(await requests.startAsked('Tidy the notes', [], 'extension'), undefined);
    assert.equal(asked.length, 1, 'asked once');
    assert.match(
      asked[0].message,
      /Another extension asks to create an Agent Runtime task on https:\/\/agents\.example\.test/,
    );
    assert.match(asked[0].detail ?? '', /Objective: Tidy the notes/);
    assert.match(asked[0].detail ?? '', /No files are sent/);
    assert.deepEqual(created, [], 'no task without a yes');
  });

  it('another extension without files: a yes creates the task', async () => {
    answer = 'yes';
    const task = await createTaskRequests(deps()).startAsked('Tidy the notes', [], 'extension');
    assert.equal(task?.id, 'task_1');
    assert.equal(asked.length, 1);
    assert.deepEqual(created, ['Tidy the notes']);
  });

  it('a person typing /task without files is not asked again; the test run records the question instead', async () => {
    await createTaskRequests(deps()).startAsked('From chat', [], 'chat');
    assert.equal(asked.length, 0);
    assert.deepEqual(created, ['From chat']);
    const automated = createTaskRequests(deps(true));
    await automated.startAsked('From a test', [], 'extension');
    assert.equal(asked.length, 0, 'no modal in the test run');
    assert.equal(automated.askedInTests.length, 1, 'but the question is recorded');
  });
});
