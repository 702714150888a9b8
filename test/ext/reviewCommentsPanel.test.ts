// "Send N Comments to the Agent..." from the run panel inside the extension host, against the
// reference runtime: comments drafted on a reviewed run show their count in the run's panel, the
// count follows an added and a deleted comment while the panel is open, and the panel's message
// runs the same send as the Tasks row: the overall instruction is asked, the modal names the run
// by its task's objective (not its id) beside the whole preview, and the follow-up starts.
// Dialogs are answered by wrapping vscode.window for this suite only (askModal looks them up at
// each call); the panel's posts are watched by wrapping its webview's postMessage.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import type { TaskRecord } from '../../src/api/types';
import type { StoredComment } from '../../src/reviewTalk/commentDrafts';
import type { ReviewSummary } from '../../src/reviewUi/reviewCommands';
import { reviewUri } from '../../src/reviewUi/reviewContent';
import { isTerminalStatus } from '../../src/runEvents/runStatus';
import { type HostMessage, parseWebviewMessage } from '../../src/runPanel/protocol';
import { directClient, extensionApi, signInForTests, waitFor } from './support';

type Show = (...args: unknown[]) => Thenable<unknown>;
const windowApi = vscode.window as unknown as { showInformationMessage: Show; showInputBox: Show };

interface PanelLike {
  panel: vscode.WebviewPanel;
  onMessage(message: unknown): void;
}

/** The draft count of the newest message to the webview that carries one. */
function shownCount(posted: readonly HostMessage[]): number | undefined {
  for (let i = posted.length - 1; i >= 0; i--) {
    const m = posted[i];
    if ((m.type === 'info' || m.type === 'reset') && m.info.draftComments !== undefined) {
      return m.info.draftComments;
    }
  }
  return undefined;
}

describe('review comments sent from the run panel', () => {
  let client: ApiClient;
  let folder: vscode.Uri;
  const original = { info: windowApi.showInformationMessage, input: windowApi.showInputBox };
  before(async () => {
    await extensionApi();
    await signInForTests();
    client = directClient();
    const first = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(first, 'no workspace folder');
    folder = first;
  });
  after(async () => {
    windowApi.showInformationMessage = original.info;
    windowApi.showInputBox = original.input;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await client.dispose();
  });

  it('shows the count in the header, keeps it current, and sends through the panel with the whole preview', async function () {
    this.timeout(120_000);
    const api = await extensionApi();
    const talk = api.reviewTalk;
    const file = vscode.Uri.joinPath(folder, `panel-send-${Date.now()}.txt`);
    await vscode.workspace.fs.writeFile(
      file,
      Buffer.from(Array.from({ length: 8 }, (_, i) => `panel line ${i + 1}`).join('\n') + '\n'),
    );
    const objective = `Panel send ${Date.now()}`;
    const task = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.uploadAndCreateTask', file, [file], {
      objective,
    });
    const runId = task.run_id as string;
    await waitFor('the run to end', async () => isTerminalStatus((await client.getRun(runId)).status), 30_000);
    const summary = await vscode.commands.executeCommand<ReviewSummary>('agentRuntime.reviewChanges', { runId });
    const reviewed = summary?.files[0];
    assert.ok(reviewed, JSON.stringify(summary));

    const comment = async (line: number, text: string): Promise<StoredComment> => {
      const uri = reviewUri(runId, 'agent', reviewed.fileId, reviewed);
      const thread = talk.threads.controller.createCommentThread(uri, new vscode.Range(line - 1, 0, line - 1, 0), []);
      const stored = await vscode.commands.executeCommand<StoredComment>('agentRuntime.addReviewComment', {
        thread,
        text,
      });
      assert.ok(stored, 'Add Comment made no draft');
      return stored;
    };
    await comment(2, 'Say this more plainly.');

    await vscode.commands.executeCommand('agentRuntime.watchRun', { runId });
    const panels = (api.runPanels as unknown as { panels: Map<string, PanelLike> }).panels;
    const panel = await waitFor('the run panel', () => panels.get(runId));
    const posted: HostMessage[] = [];
    const webview = panel.panel.webview;
    const post = webview.postMessage.bind(webview);
    webview.postMessage = (message: unknown) => {
      posted.push(message as HostMessage);
      return post(message);
    };
    // The session's info is what every reset carries (test-only access to the panel's state).
    const session = (panel as unknown as { session: { info: { draftComments?: number } } }).session;
    await waitFor('the panel to hold 1 draft', () => session.info.draftComments === 1);

    // Drafted and deleted while the panel is open: the webview is told each new count.
    const extra = await comment(4, 'never mind');
    await waitFor('the header to say 2', () => shownCount(posted) === 2);
    await vscode.commands.executeCommand(
      'agentRuntime.deleteReviewComment',
      talk.threads.threadOf(extra.id)?.comments[0],
    );
    await waitFor('the header to say 1 again', () => shownCount(posted) === 1);

    // The panel's button: a checked message, then the command's own questions and preview.
    const modals: { message: string; detail: string }[] = [];
    const inputs: string[] = [];
    windowApi.showInputBox = (options: unknown) => {
      inputs.push(String((options as vscode.InputBoxOptions | undefined)?.title));
      return Promise.resolve('Sent from the run panel.');
    };
    windowApi.showInformationMessage = (message: unknown, ...rest: unknown[]) => {
      const options = rest[0] as vscode.MessageOptions | undefined;
      if (options?.modal !== true) {
        return original.info(message, ...rest);
      }
      modals.push({ message: String(message), detail: String(options.detail) });
      return Promise.resolve(rest.slice(1).find((item) => /^Send 1 Comments$/.test(String(item))));
    };
    try {
      assert.strictEqual(parseWebviewMessage({ type: 'sendComments', count: 0 }), undefined);
      const message = parseWebviewMessage({ type: 'sendComments', count: 1 });
      assert.ok(message);
      panel.onMessage(message);
      await waitFor('the follow-up to start', () => talk.drafts.draftsOf(runId).length === 0, 60_000);
    } finally {
      windowApi.showInformationMessage = original.info;
      windowApi.showInputBox = original.input;
    }
    assert.strictEqual(inputs.length, 1, 'the overall instruction was asked');
    assert.strictEqual(modals.length, 1, JSON.stringify(modals));
    assert.match(modals[0].message, /Send 1 comments to the agent\?/);
    // The run it continues is named as people know it, not by its id.
    assert.ok(modals[0].detail.includes(`“${objective}”`), modals[0].detail);
    assert.ok(!modals[0].detail.includes(runId), modals[0].detail);
    const followUp = talk.runNotes.followUpOf;
    await waitFor('the follow-up recorded', () => [...panels.keys()].some((id) => followUp(id) === runId));
    await waitFor('the header to drop the button', () => shownCount(posted) === 0);
  });
});
