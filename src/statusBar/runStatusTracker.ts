// Keeps the status bar item in step with the sign-in state, the service's reachability and the
// runs started from this window that are still going (counted by the RunStore).
import * as vscode from 'vscode';
import { formatShortLocalTime } from '../common/format';
import type { RunStore } from '../runs/runStore';
import type { ServiceConnection } from '../service/serviceConnection';
import { ConnectionStatusItem } from './connectionStatusItem';
import { liveSpend, liveSpendAmounts, liveSpendLine } from './liveSpend';
import { spendLine, UsageCache } from './usageCache';

export class RunStatusTracker implements vscode.Disposable {
  private readonly item = new ConnectionStatusItem();
  private readonly subscription: vscode.Disposable;
  private unreachable = false;
  private readonly usage: UsageCache;
  /** Set by the steering commands after a not-offered answer: no Cancel link. */
  steeringOffered = true;

  constructor(
    private readonly service: ServiceConnection,
    private readonly runs: RunStore,
  ) {
    this.usage = new UsageCache(
      () => service.client.getUsage(),
      () => this.refresh(),
    );
    this.subscription = runs.onDidChange((change) => {
      if (change.finished && change.facts.followed) {
        void this.usage.refresh(true);
      }
      this.refresh();
    });
  }

  /** Another service or key: the spend shown was someone else's. */
  resetUsage(): void {
    this.usage.reset();
  }

  setReachable(reachable: boolean): void {
    this.unreachable = !reachable;
    this.refresh();
  }

  refresh(): void {
    const t = (m: string, ...a: Array<string | number | boolean>) => vscode.l10n.t(m, ...a);
    const live = liveSpend(this.runs.activeRuns().map((facts) => facts.record));
    const liveLine = liveSpendLine(live, t);
    this.item.update({
      signedIn: this.service.isSignedIn,
      unreachable: this.unreachable,
      activeRuns: this.runs.activeFollowed,
      serviceUrl: this.service.serviceUrl,
      spend: spendLine(
        this.usage.current,
        (m, ...a) => vscode.l10n.t(m, ...a),
        (iso) => formatShortLocalTime(iso),
      ),
      canCancel: this.steeringOffered,
      liveSpend:
        live && liveLine
          ? { short: live.totals.length > 0 ? liveSpendAmounts(live, t, 2) : '', line: liveLine }
          : undefined,
    });
    // At most once a minute (the cache decides), only while signed in and reachable.
    if (this.service.isSignedIn && !this.unreachable) {
      void this.usage.refresh();
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
