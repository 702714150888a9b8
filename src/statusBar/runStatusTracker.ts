// Keeps the status bar item in step with the sign-in state, the service's reachability and the
// runs started from this window that are still going (counted by the RunStore).
import type * as vscode from 'vscode';
import type { RunStore } from '../runs/runStore';
import type { ServiceConnection } from '../service/serviceConnection';
import { ConnectionStatusItem } from './connectionStatusItem';

export class RunStatusTracker implements vscode.Disposable {
  private readonly item = new ConnectionStatusItem();
  private readonly subscription: vscode.Disposable;
  private unreachable = false;

  constructor(
    private readonly service: ServiceConnection,
    private readonly runs: RunStore,
  ) {
    this.subscription = runs.onDidChange(() => this.refresh());
  }

  setReachable(reachable: boolean): void {
    this.unreachable = !reachable;
    this.refresh();
  }

  refresh(): void {
    this.item.update({
      signedIn: this.service.isSignedIn,
      unreachable: this.unreachable,
      activeRuns: this.runs.activeFollowed,
      serviceUrl: this.service.serviceUrl,
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
