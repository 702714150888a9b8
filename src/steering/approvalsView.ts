// The "Needs you" view: every run waiting at its spending cap (what it spent of its cap, inline
// Raise the Cap... / Stop the Run, both showing what it spent on first), then every pending
// approval across runs, one row each (the tool, a short form of its arguments that says what it
// left out, the time left), with inline Approve / Deny (Approve shows the whole call first), and
// a badge with the count of both.
// Rows are plain text: every server string goes through inert(); the tooltip is not Markdown.
import * as vscode from 'vscode';
import type { ApprovalRecord, RunRecord } from '../api/types';
import { describeErrorForUser } from '../commandSupport/errorText';
import { shortArguments, timeLeft } from '../common/approvalText';
import { formatLocalTime } from '../common/format';
import { Commands, ViewIds } from '../common/ids';
import { inert } from '../common/inertText';
import { checkMoney, describeMoney } from '../common/money';
import type { Translate } from '../common/translate';
import { runCost } from './capDecision';
import type { PendingApprovals } from './pendingApprovals';
import type { RunsAtCap } from './runsAtCap';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

export class ApprovalNode extends vscode.TreeItem {
  readonly kind = 'approval';
  readonly entityId: string;

  constructor(
    readonly approval: ApprovalRecord,
    now: number,
  ) {
    super(inert(approval.tool ?? t('tool call'), 80), vscode.TreeItemCollapsibleState.None);
    this.id = `approval:${approval.id}`;
    this.entityId = approval.id;
    this.contextValue = 'approval';
    const args = shortArguments(approval.arguments, 60, t);
    const left = timeLeft(approval.expires_at, now, t);
    this.description = [inert(args, 80), left].filter((p) => p).join(' · ');
    this.iconPath = new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('charts.orange'));
    this.tooltip = [
      t('{0} waits for your approval', inert(approval.tool ?? t('A tool call'), 80)),
      approval.reason ? t('Why: {0}', inert(approval.reason)) : undefined,
      args ? t('Arguments: {0}', inert(shortArguments(approval.arguments, 280, t))) : undefined,
      left
        ? t('Expires: {0} ({1})', inert(formatLocalTime(approval.expires_at) ?? approval.expires_at ?? ''), left)
        : undefined,
      approval.run_id ? t('Run: {0}', inert(approval.run_id)) : undefined,
      t('Approval: {0}', inert(approval.id)),
    ]
      .filter((line): line is string => line !== undefined)
      .join('\n');
    this.accessibilityInformation = {
      label: t('{0} waits for your approval. {1}. {2}', inert(approval.tool ?? ''), inert(args), left ?? ''),
    };
    if (approval.run_id) {
      this.command = { command: Commands.watchRun, title: t('Watch Run'), arguments: [{ runId: approval.run_id }] };
    }
  }
}

/** A run waiting at its cap: labelled by its task's objective when the list knows it. */
export class RunAtCapNode extends vscode.TreeItem {
  readonly kind = 'runAtCap';
  readonly entityId: string;

  constructor(
    readonly run: RunRecord,
    objective: string | undefined,
  ) {
    super(inert(objective ?? t('A run'), 80), vscode.TreeItemCollapsibleState.None);
    this.id = `runAtCap:${run.id}`;
    this.entityId = run.id;
    this.contextValue = 'runAtCap';
    const cost = runCost(run) === undefined ? t('unknown') : describeMoney(checkMoney(runCost(run)), t);
    const cap = run.budget === undefined ? t('unknown') : describeMoney(checkMoney(run.budget), t);
    const spent = t('spent {0} of its cap of {1}', inert(cost, 80), inert(cap, 80));
    this.description = spent;
    this.iconPath = new vscode.ThemeIcon('credit-card', new vscode.ThemeColor('charts.orange'));
    this.tooltip = [
      t('This run reached its spending cap and waits for you: raise the cap or stop the run.'),
      objective === undefined ? undefined : t('Task: {0}', inert(objective)),
      spent,
      t('Run: {0}', inert(run.id, 80)),
    ]
      .filter((line): line is string => line !== undefined)
      .join('\n');
    this.accessibilityInformation = {
      label: t('{0} waits at its spending cap: {1}', inert(objective ?? t('A run'), 80), spent),
    };
    this.command = { command: Commands.watchRun, title: t('Watch Run'), arguments: [{ runId: run.id }] };
  }
}

class NoteNode extends vscode.TreeItem {
  readonly kind = 'message';
  constructor(text: string, icon?: string) {
    super(inert(text, 300), vscode.TreeItemCollapsibleState.None);
    this.contextValue = 'message';
    if (icon) {
      this.iconPath = new vscode.ThemeIcon(icon);
    }
  }
}

type Row = RunAtCapNode | ApprovalNode | NoteNode;

export class ApprovalsView implements vscode.TreeDataProvider<Row>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<Row>;
  private readonly subs: vscode.Disposable[] = [];
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly pending: PendingApprovals,
    private readonly isSignedIn: () => boolean,
    private readonly atCap?: RunsAtCap,
    private readonly objectiveOf: (run: RunRecord) => string | undefined = () => undefined,
  ) {
    this.view = vscode.window.createTreeView(ViewIds.approvals, { treeDataProvider: this });
    this.subs.push(
      this.view,
      this.changed,
      pending.onDidChange(() => this.redraw()),
      ...(atCap ? [atCap.onDidChange(() => this.redraw())] : []),
      this.view.onDidChangeVisibility((e) => {
        if (e.visible) {
          void this.pending.refresh();
          void this.atCap?.refresh();
        } else {
          this.pending.update();
          this.atCap?.update();
        } // closed: stop polling unless a followed run still goes
        this.tick();
      }),
    );
    this.redraw();
  }

  get visible(): boolean {
    return this.view.visible;
  }

  refresh(): void {
    void this.pending.refresh();
    void this.atCap?.refresh();
  }

  /** A row's label may have been learnt since (the task's objective): redraw. */
  relabel(): void {
    this.changed.fire();
  }

  getTreeItem(row: Row): vscode.TreeItem {
    return row;
  }

  getChildren(row?: Row): Row[] {
    if (row) {
      return [];
    }
    if (!this.isSignedIn()) {
      return [];
    }
    const rows: Row[] = (this.atCap?.runs ?? []).map((r) => new RunAtCapNode(r, this.objectiveOf(r)));
    if (this.atCap?.cut) {
      rows.push(new NoteNode(t('Showing the first {0} runs at their cap; more wait.', rows.length), 'info'));
    }
    if (this.atCap?.error !== undefined) {
      rows.push(new NoteNode(describeErrorForUser(this.atCap.error), 'error'));
    }
    if (this.pending.isUnsupported) {
      rows.push(new NoteNode(t('This server does not offer approvals.'), 'info'));
      return rows;
    }
    const now = Date.now();
    rows.push(...this.pending.pending.map((a) => new ApprovalNode(a, now)));
    if (this.pending.cut) {
      rows.push(
        new NoteNode(
          t('Showing the first {0} approvals; the service lists more.', this.pending.pending.length),
          'info',
        ),
      );
    }
    if (this.pending.error !== undefined) {
      rows.push(new NoteNode(describeErrorForUser(this.pending.error), 'error'));
    } else if (rows.length === 0) {
      rows.push(new NoteNode(t('Nothing waits for you.'), 'check'));
    }
    return rows;
  }

  dispose(): void {
    if (this.ticker) {
      clearInterval(this.ticker);
    }
    for (const d of this.subs.splice(0)) {
      d.dispose();
    }
  }

  private redraw(): void {
    const n = this.pending.pending.length;
    const caps = this.atCap?.runs.length ?? 0;
    const parts = [
      caps === 1
        ? t('1 run waits at its spending cap')
        : caps > 1
          ? t('{0} runs wait at their spending cap', caps)
          : '',
      n === 1 ? t('1 tool call waits for your approval') : n > 1 ? t('{0} tool calls wait for your approval', n) : '',
    ].filter((p) => p);
    this.view.badge = n + caps > 0 ? { value: n + caps, tooltip: parts.join('; ') } : undefined;
    this.changed.fire();
    this.tick();
  }

  /** "Time left" moves on: redraw every 15 s while the view shows something waiting. */
  private tick(): void {
    const want = this.view.visible && this.pending.pending.length > 0;
    if (want && !this.ticker) {
      this.ticker = setInterval(() => this.changed.fire(), 15_000);
    }
    if (!want && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }
}
