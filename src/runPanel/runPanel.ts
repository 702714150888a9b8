// One run panel in the editor: the webview, its HTML and messages, wired to a RunSession that
// owns the stream. Closing the panel closes the stream.
import * as vscode from 'vscode';
import type { ApiClient } from '../api/client';
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import { RunEventSubscription } from '../api/events';
import type { ArtifactRecord } from '../api/types';
import { describeErrorForUser } from '../commandSupport/errorText';
import { shortenText } from '../common/format';
import { Commands } from '../common/ids';
import { inert } from '../common/inertText';
import { notify } from '../common/notify';
import { vscodeTranslate } from '../common/vscodeTranslate';
import { runActionById } from '../runEvents/runActions';
import type { ExportFormat } from '../runLog/logExport';
import type { RunStore } from '../runs/runStore';
import { panelHtml } from './panelHtml';
import { parseWebviewMessage, type PersistedState, RUN_PANEL_VIEW_TYPE, type WebviewMessage } from './protocol';
import { approvalToolCommand, type LinkCommand, recordLinkCommand } from './recordLinkTarget';
import { exportRunToFile, openRunTranscript } from './runExport';
import { RunSession } from './runSession';
import { uiStringTable } from './uiStrings';

export interface RunPanelDeps {
  extensionUri: vscode.Uri;
  getClient(): ApiClient;
  runs: RunStore;
  log: vscode.LogOutputChannel;
  openArtifact(artifact: ArtifactRecord): Thenable<unknown>;
  saveArtifact(artifact: ArtifactRecord): Thenable<unknown>;
  signIn(): Thenable<unknown>;
  /** Where runs' whole logs are kept (global storage + '/run-logs'); none: the bounded model only. */
  logFolder?: string;
  /** The review comments not sent yet, per run (the composition root hands it over); none: no send button. */
  draftComments?: DraftCommentCounts;
}

/**
 * Review comments written on runs and not sent yet: src/reviewTalk's RunNotes, by shape (the run
 * panel does not import reviewTalk; src/extension.ts hands it over, as to the Tasks view).
 */
export interface DraftCommentCounts {
  draftsOn(runId: string): number;
  readonly onDidChange: vscode.Event<void>;
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export function createRunWebviewPanel(
  extensionUri: vscode.Uri,
  runId: string,
  objective?: string,
): vscode.WebviewPanel {
  return vscode.window.createWebviewPanel(
    RUN_PANEL_VIEW_TYPE,
    panelTitle(runId, objective),
    { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
    // No retainContextWhenHidden: a hidden panel's page is dropped and rebuilt from the host's model.
    { ...webviewOptions(extensionUri), enableFindWidget: true },
  );
}

const TITLE_OBJECTIVE_MAX = 40;

/** The tab reads as people know the run: its task's objective; the id only until that is known. */
function panelTitle(runId: string, objective: string | undefined): string {
  return objective
    ? vscode.l10n.t('Run: {0}', inert(shortenText(objective, TITLE_OBJECTIVE_MAX)))
    : vscode.l10n.t('Run {0}', inert(runId));
}

export class RunPanel implements vscode.Disposable {
  private readonly session: RunSession;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  private objective: string | undefined;
  private drafts: DraftCommentCounts | undefined;
  readonly onDidDispose = this.disposeEmitter.event;
  private disposed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly runId: string,
    private readonly deps: RunPanelDeps,
    options: { objective?: string; restored?: PersistedState },
  ) {
    this.objective = options.objective ?? options.restored?.objective;
    panel.title = panelTitle(runId, this.objective);
    panel.webview.options = webviewOptions(deps.extensionUri);
    // While the panel is open its stream keeps the store's facts fresh: the tree needs no poll.
    this.disposables.push(deps.runs.stream(runId));
    this.session = new RunSession({
      runId,
      objective: options.objective ?? options.restored?.objective,
      restored: options.restored?.snapshot,
      client: () => {
        const client = deps.getClient();
        // A cap the service did not keep is measured here too (RunStore.noteLocalCap).
        return {
          getRun: async (id, o) => deps.runs.withLocalCap(await client.getRun(id, o)),
          getTask: (id, o) => client.getTask(id, o),
          listRunArtifacts: (id, params, o) => client.listRunArtifacts(id, params, o),
        };
      },
      subscribe: (after, onState, signal) =>
        new RunEventSubscription(
          // Looked up per connection: a changed base URL replaces (and disposes) the old client.
          {
            openEventStream: (id, o) => deps.getClient().openEventStream(id, o),
            getRun: (id, o) => deps.getClient().getRun(id, o),
          },
          runId,
          { after, signal, onState, logger: deps.log },
        ),
      post: (message) => void panel.webview.postMessage(message),
      strings: uiStringTable(vscodeTranslate),
      describeError: describeErrorForUser,
      isSignInError: (err) => isApiError(err, 'authentication'),
      log: deps.log,
      onEvents: (lastSequence, lastEventName) => deps.runs.noteStreamEvents(runId, lastSequence, lastEventName),
      onSpend: (spend) => deps.runs.noteStreamSpend(runId, spend),
      onStatus: (status) => deps.runs.noteStreamEnded(runId, status),
      onObjective: (objective) => this.setObjective(objective),
      logFolder: deps.logFolder,
      service: serviceOf(deps),
      currentService: () => serviceOf(deps),
    });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => this.onMessage(parseWebviewMessage(raw))),
      panel.onDidChangeViewState(() => {
        if (!panel.visible) {
          this.session.webviewGone();
        }
        // A page that survived being hidden sends no new `ready`: bring it up to date anyway
        // (a reloaded page will also ask, and a second reset is harmless).
        else {
          this.session.webviewReady();
        }
      }),
      panel.onDidDispose(() => this.dispose()),
    );
    panel.webview.html = this.html();
    if (deps.draftComments) {
      this.useDraftComments(deps.draftComments);
    }
    this.session.start();
  }

  /** The header's "Send N Comments to the Agent..." follows the run's drafts from now on. */
  useDraftComments(source: DraftCommentCounts): void {
    if (this.disposed || this.drafts) {
      return;
    }
    this.drafts = source;
    const update = () => this.session.setDraftComments(source.draftsOn(this.runId));
    this.disposables.push(source.onDidChange(update));
    update();
  }

  reveal(objective?: string): void {
    this.session.setObjective(objective);
    this.panel.reveal(undefined, false);
  }

  /** The whole run to a file the user picks (the webview's Export, or the command). */
  exportRun(format?: ExportFormat): Promise<void> {
    return exportRunToFile(this.session, format, this.deps.log);
  }

  /** The run's Markdown transcript in an editor. */
  openTranscript(): Promise<void> {
    return openRunTranscript(this.session, this.deps.logFolder, this.deps.log);
  }

  /** "Copy JSON" / "Open as JSON" of an event the model keeps cut: the whole event from the log. */
  private async wholeEvent(action: 'copyEvent' | 'openEvent', sequence: number): Promise<void> {
    try {
      const whole = await this.session.fullEvent(sequence);
      if (!whole) {
        void notify.warn(vscode.l10n.t("Event {0} is no longer in the run's log.", sequence));
        return;
      }
      const content = JSON.stringify({ event: whole.event, data: whole.data }, null, 2);
      if (action === 'copyEvent') {
        await vscode.env.clipboard.writeText(content);
        vscode.window.setStatusBarMessage(vscode.l10n.t('Event JSON copied'), 3000);
      } else {
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'json', content }), {
          preview: true,
        });
      }
    } catch (err) {
      this.deps.log.warn(`Run panel ${this.runId}: event ${sequence} could not be read: ${describeError(err)}`);
      void notify.error(vscode.l10n.t('Event {0} could not be read: {1}', sequence, describeErrorForUser(err)));
    }
  }

  /**
   * A record link of a row: the event is read again (the log on disk, else the server) and the
   * record opened only when that event names it.
   */
  private async openRecord(message: Extract<WebviewMessage, { type: 'openRecord' }>): Promise<void> {
    let target: LinkCommand | undefined;
    try {
      target = recordLinkCommand(message, await this.session.fullEvent(message.sequence));
    } catch (err) {
      this.deps.log.warn(`Run panel ${this.runId}: event ${message.sequence} could not be read: ${describeError(err)}`);
      void notify.error(vscode.l10n.t('Event {0} could not be read: {1}', message.sequence, describeErrorForUser(err)));
      return;
    }
    if (!target) {
      this.deps.log.warn(`Run panel ${this.runId}: event ${message.sequence} names no such ${message.record}`);
      void notify.warn(vscode.l10n.t('Event {0} does not name that record. Nothing was opened.', message.sequence));
      return;
    }
    await this.steer(target.command, target.arg);
  }

  /** Steering commands report their own errors (guarded); the panel only needs their result. */
  private async steer(command: string, arg: Record<string, unknown>): Promise<unknown> {
    try {
      return await vscode.commands.executeCommand(command, arg);
    } catch (err) {
      this.deps.log.warn(`Run panel ${this.runId}: ${command} failed: ${describeError(err)}`);
      return undefined;
    }
  }

  private setObjective(objective: string): void {
    if (this.disposed || objective === this.objective) {
      return;
    }
    this.objective = objective;
    this.panel.title = panelTitle(this.runId, objective);
  }

  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    this.session.dispose();
    for (const d of this.disposables.splice(0)) {
      d.dispose();
    }
    this.panel.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }

  private html(): string {
    const webview = this.panel.webview;
    const uri = (...path: string[]) =>
      webview.asWebviewUri(vscode.Uri.joinPath(this.deps.extensionUri, ...path)).toString();
    return panelHtml({
      cspSource: webview.cspSource,
      scriptUri: uri('dist', 'webview.js'),
      styleUri: uri('media', 'runPanel.css'),
      codiconUri: uri('dist', 'codicons', 'codicon.css'),
      title: panelTitle(this.runId, this.objective),
      lang: vscode.env.language,
    });
  }

  private onMessage(message: WebviewMessage | undefined): void {
    if (!message) {
      return;
    }
    switch (message.type) {
      case 'ready':
        this.session.webviewReady();
        return;
      case 'retry':
        this.session.retry();
        return;
      case 'signIn':
        void Promise.resolve(this.deps.signIn()).then(
          () => this.session.retry(),
          (err: unknown) => this.deps.log.warn(`Run panel ${this.runId}: sign-in failed: ${describeError(err)}`),
        );
        return;
      case 'copy':
        void vscode.env.clipboard
          .writeText(message.text)
          .then(() =>
            vscode.window.setStatusBarMessage(
              message.what === 'runId' ? vscode.l10n.t('Run id copied') : vscode.l10n.t('Event JSON copied'),
              3000,
            ),
          );
        return;
      case 'ack':
        this.session.webviewAck(message.batch);
        return;
      case 'page':
      case 'find':
      case 'stopFind':
        void this.session.answer(message);
        return;
      case 'export':
        void this.exportRun(message.format);
        return;
      case 'openTranscript':
        void this.openTranscript();
        return;
      case 'sendComments': {
        // The same command as the Tasks row and the review's title bar: it shows the whole of
        // what goes out (the drafts held now, whatever count the button showed) before sending.
        const held = this.drafts?.draftsOn(this.runId) ?? 0;
        if (held !== message.count) {
          this.deps.log.info(`Run panel ${this.runId}: the button showed ${message.count} comments; ${held} are held`);
        }
        void this.steer(Commands.sendReviewComments, { runId: this.runId });
        return;
      }
      case 'copyEvent':
      case 'openEvent':
        void this.wholeEvent(message.type, message.sequence);
        return;
      case 'runAction': {
        // The action's command confirms and asks for what it needs; it acts on this panel's run.
        const action = runActionById(message.action);
        if (!action) {
          return;
        }
        const arg =
          message.sequence === undefined ? { runId: this.runId } : { runId: this.runId, sequence: message.sequence };
        void this.steer(action.command, arg).then((result) => {
          // A run the cancel command returns was cancelled (or is stopping).
          if (action.id === 'cancel' && result) {
            this.session.markCancelling();
          }
        });
        return;
      }
      case 'decide': {
        // Only the call this panel's card shows, and only if the server holds the same call for
        // this run (the command checks `expect`): another run's stream may name any approval id.
        const card = this.session.approvalCard;
        if (!card || card.approvalId !== message.approvalId) {
          void notify.warn(vscode.l10n.t('This panel no longer shows that approval. Nothing was decided.'));
          return;
        }
        const expect = {
          runId: this.runId,
          tool: card.tool,
          argumentsJson: card.argumentsJson,
          cut: card.argumentsCut === true,
        };
        void this.steer(message.decision === 'approve' ? Commands.approveToolCall : Commands.denyToolCall, {
          approvalId: card.approvalId,
          expect,
        });
        return;
      }
      case 'openRecord':
        void this.openRecord(message);
        return;
      case 'openTool': {
        // Only the tool of the card this panel shows.
        const target = approvalToolCommand(message, this.session.approvalCard);
        if (!target) {
          void notify.warn(vscode.l10n.t('This panel no longer shows that approval. Nothing was opened.'));
          return;
        }
        void this.steer(target.command, target.arg);
        return;
      }
      case 'openArtifact':
      case 'saveArtifact': {
        const artifact = this.session.artifact(message.artifactId);
        if (!artifact) {
          return;
        }
        const action =
          message.type === 'openArtifact' ? this.deps.openArtifact(artifact) : this.deps.saveArtifact(artifact);
        void Promise.resolve(action).then(undefined, (err: unknown) => {
          this.deps.log.error(`Run panel ${this.runId}: artifact ${artifact.id}: ${describeError(err)}`);
          void notify.error(describeErrorForUser(err));
        });
        return;
      }
    }
  }
}

/** The service the panel's run belongs to; none while the base URL is unusable (the panel says why when it connects). */
function serviceOf(deps: { getClient(): ApiClient }): string | undefined {
  try {
    return deps.getClient().baseUrl;
  } catch {
    return undefined;
  }
}
