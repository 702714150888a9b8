// The status bar item: connection state and runs in progress at a glance; a click opens the
// Agent Runtime sidebar.
import * as vscode from 'vscode';
import { Commands, SHOW_SIDEBAR_COMMAND } from '../common/ids';
import { inert } from '../common/inertText';
import { isSingular } from '../common/vscodeTranslate';

export interface ConnectionStatus {
  signedIn: boolean;
  unreachable: boolean;
  activeRuns: number;
  serviceUrl: string;
  /** Spend and quota for the period, when the server offers them (outside text: made inert here). */
  spend?: string;
  /** What the runs in progress spent so far: the status text's short form and the tooltip's line (liveSpend.ts). */
  liveSpend?: { short: string; line: string };
  /** Steering offered: a running run can be cancelled from the tooltip. */
  canCancel?: boolean;
}

export class ConnectionStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('agentRuntime.status', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = vscode.l10n.t('Agent Runtime');
    this.item.command = SHOW_SIDEBAR_COMMAND;
  }

  update(status: ConnectionStatus): void {
    const { signedIn, unreachable, activeRuns } = status;
    // The address comes from settings a workspace may write: shown inert like any outside text.
    const serviceUrl = inert(status.serviceUrl);
    if (!signedIn) {
      this.item.text = `$(key) ${vscode.l10n.t('Agent Runtime: Sign In')}`;
      this.item.command = Commands.signIn;
      this.item.backgroundColor = undefined;
      this.item.tooltip = vscode.l10n.t('Not signed in to {0}. Click to sign in.', serviceUrl);
    } else if (unreachable) {
      this.item.text = `$(debug-disconnect) ${vscode.l10n.t('Agent Runtime: offline')}`;
      this.item.command = SHOW_SIDEBAR_COMMAND;
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      this.item.tooltip = vscode.l10n.t('{0} cannot be reached. Click to open the sidebar and retry.', serviceUrl);
    } else {
      this.item.text =
        activeRuns > 0
          ? `$(sync~spin) ${vscode.l10n.t('Agent Runtime: {0} running', activeRuns)}${status.liveSpend?.short ? ` · ${inert(status.liveSpend.short)}` : ''}`
          : `$(cloud) ${vscode.l10n.t('Agent Runtime')}`;
      this.item.command = SHOW_SIDEBAR_COMMAND;
      this.item.backgroundColor = undefined;
      const plain = [
        isSingular(activeRuns)
          ? vscode.l10n.t('Connected to {0}. 1 run in progress. Click to open the sidebar.', serviceUrl)
          : vscode.l10n.t('Connected to {0}. {1} runs in progress. Click to open the sidebar.', serviceUrl, activeRuns),
      ];
      if (status.spend) {
        plain.push(inert(status.spend));
      }
      if (status.liveSpend) {
        plain.push(inert(status.liveSpend.line));
      }
      // Markdown only for our own link: every other text goes in escaped (appendText).
      const tooltip = new vscode.MarkdownString(undefined, true);
      tooltip.appendText(plain.join('\n'));
      if (activeRuns > 0 && status.canCancel) {
        tooltip.isTrusted = { enabledCommands: [Commands.cancelRun] };
        tooltip.appendMarkdown(`\n\n[$(debug-stop) ${vscode.l10n.t('Cancel a run…')}](command:${Commands.cancelRun})`);
      }
      this.item.tooltip = tooltip;
      this.item.accessibilityInformation = { label: plain.join(' ') };
      this.item.show();
      return;
    }
    this.item.accessibilityInformation = { label: this.item.tooltip };
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
