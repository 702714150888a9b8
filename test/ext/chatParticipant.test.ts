// The @agent-runtime participant's handler in a real VS Code, against the reference runtime: the
// handler registered with vscode.chat.createChatParticipant is called with a response stream of
// the test's own (code-server 1.100 shows no chat view without a language model provider, so no
// person could type into it here). /status sums up a run; /task uploads the #file reference
// after naming it, creates the task, follows its run to the end and sums it up.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { markdownLiteral } from '../../src/common/markdownLiteral';
import { admin, directClient, extensionApi, signInForTests, testEnv } from './support';

interface Written {
  markdown: vscode.MarkdownString[];
  progress: string[];
  buttons: vscode.Command[];
}

/** A ChatResponseStream that keeps what the handler writes. */
function recordingStream(): { stream: vscode.ChatResponseStream; written: Written } {
  const written: Written = { markdown: [], progress: [], buttons: [] };
  const stream: vscode.ChatResponseStream = {
    markdown: (value) =>
      void written.markdown.push(typeof value === 'string' ? new vscode.MarkdownString(value) : value),
    anchor: () => undefined,
    button: (command) => void written.buttons.push(command),
    filetree: () => undefined,
    progress: (value) => void written.progress.push(value),
    reference: () => undefined,
    push: () => undefined,
  };
  return { stream, written };
}

function request(command: string, prompt: string, references: vscode.ChatPromptReference[] = []): vscode.ChatRequest {
  return {
    command,
    prompt,
    references,
    toolReferences: [],
    toolInvocationToken: undefined as unknown as vscode.ChatParticipantToolToken,
    model: undefined as unknown as vscode.LanguageModelChat,
  };
}

const text = (written: Written): string => written.markdown.map((m) => m.value).join('');

describe('the @agent-runtime chat participant', () => {
  before(async () => {
    await extensionApi();
    await signInForTests();
  });

  it('answers /status with the run in short, untrusted, with a button to its panel', async () => {
    const { run_id: runId } = (await admin('/runs', { events: 9, terminal: 'completed', cost: '2.40' })) as {
      run_id: string;
    };
    const api = await extensionApi();
    const { stream, written } = recordingStream();
    const result = await api.agents.chatHandler(
      request('status', runId),
      { history: [] },
      stream,
      new vscode.CancellationTokenSource().token,
    );
    const answer = text(written);
    assert.ok(answer.includes(`**Run ${markdownLiteral(runId, 80)}**: completed`), answer);
    assert.match(answer, /Steps done: 2 of 2/);
    assert.match(answer, /Cost: 2\\\.40 USD/);
    for (const md of written.markdown) {
      assert.strictEqual(md.isTrusted, false);
      assert.strictEqual(md.supportHtml, false);
      assert.strictEqual(md.supportThemeIcons, false);
    }
    assert.deepStrictEqual(
      written.buttons.map((b) => [b.command, b.arguments]),
      [['agentRuntime.watchRun', [{ runId }]]],
    );
    assert.deepStrictEqual((result as vscode.ChatResult).metadata, { command: 'status', runId });
  });

  it('answers /task: names the #file, uploads and attaches it, follows the run to its end', async function () {
    this.timeout(120_000);
    const api = await extensionApi();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const notes = vscode.Uri.joinPath(folder, 'notes.txt');
    const objective = `Summarise the notes (chat ${Date.now()})`;
    const asked = api.agents.taskRequests.askedInTests.length;
    const { stream, written } = recordingStream();
    const result = await api.agents.chatHandler(
      request('task', objective, [{ id: 'vscode.file', value: notes }]),
      { history: [] },
      stream,
      new vscode.CancellationTokenSource().token,
    );
    // The person saw the file and the service named before anything was sent.
    const question = api.agents.taskRequests.askedInTests[asked];
    assert.ok(question, 'a question was asked');
    assert.ok(question.message.includes(testEnv().baseUrl), question.message);
    assert.ok(question.detail.includes('notes.txt'), question.detail.join('\n'));
    const runId = (result as vscode.ChatResult).metadata?.runId as string;
    assert.match(runId, /^run_/);
    const answer = text(written);
    assert.match(answer, /Created task task\\_/);
    assert.match(answer, /✓ /, 'a line per step done');
    assert.match(answer, /: completed/, `the closing summary: ${answer}`);
    assert.ok(written.buttons.some((b) => b.command === 'agentRuntime.watchRun'));
    const client = directClient();
    try {
      const run = await client.getRun(runId);
      const task = await client.getTask(run.task_id as string);
      assert.strictEqual(task.objective, objective);
      const names = await Promise.all(
        (task.attachments ?? []).map(async (a) => (await client.getFile(a.fileId)).filename),
      );
      assert.deepStrictEqual(names, ['notes.txt']);
    } finally {
      await client.dispose();
    }
  });

  it('writes a hostile run as text: no link, image or HTML from the service', async () => {
    const { run_id: runId } = (await admin('/runs', { events: 1, terminal: null })) as { run_id: string };
    await admin(`/runs/${runId}/events`, {
      event: 'step.started',
      data: {
        step_id: 's',
        title: '[Approve here](command:agentRuntime.approveToolCall) ![x](https://evil.example/p.png) <img src=x>',
      },
    });
    await admin(`/runs/${runId}/end`, { status: 'completed' });
    const api = await extensionApi();
    const { stream, written } = recordingStream();
    await api.agents.chatHandler(
      request('status', runId),
      { history: [] },
      stream,
      new vscode.CancellationTokenSource().token,
    );
    const answer = text(written);
    assert.match(answer, /\\\[Approve here\\\]\\\(command\\:/, answer);
    assert.ok(!/(^|[^\\])[[<!]/.test(answer.replace(/\*\*/g, '')), answer);
  });
});
