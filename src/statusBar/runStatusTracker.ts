// Counts the runs started from this window that are still going, and keeps the status bar
// item in step with them and with the sign-in state.
import * as vscode from 'vscode';
import { AgentRuntimeSession } from '../session/agentRuntimeSession';
import { ConnectionStatusItem } from './connectionStatusItem';

export class RunStatusTracker implements vscode.Disposable {
  private readonly item = new ConnectionStatusItem();
  private readonly active = new Set<string>();
  private unreachable = false;
  private service = '';

  constructor(private readonly session: AgentRuntimeSession) {}

  trackRun(runId: string): void {
    this.active.add(runId);
    this.refresh();
  }

  /** Another service: runs started on the previous one are no longer ours to count. */
  setService(serviceUrl: string): void {
    if (serviceUrl !== this.service) this.active.clear();
    this.service = serviceUrl;
    this.refresh();
  }

  setReachable(reachable: boolean): void {
    this.unreachable = !reachable;
    this.refresh();
  }

  finishRun(runId: string): void {
    this.active.delete(runId);
    this.refresh();
  }

  refresh(): void {
    this.item.update({ signedIn: this.session.isSignedIn, unreachable: this.unreachable, activeRuns: this.active.size, serviceUrl: this.session.serviceUrl });
  }

  dispose(): void {
    this.item.dispose();
  }
}

