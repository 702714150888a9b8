// The runs whose service did not keep the cap sent (budgetlessCap.ts, docs/PROTOCOL.md, Budgets):
// says so once per service, gives the run store the person's cap for the meter, follows each
// run's `usage.updated` through the one event subscription and, when the cost reaches the cap,
// asks the person: Cancel the Run or Let It Run (the service cannot pause it). Bounded: at most
// MAX_WATCHED runs at once (another is told, not followed); a watch ends with the run, another
// service or the window.
import * as vscode from 'vscode';
import type { ApiClient } from '../api/client';
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import { RunEventSubscription } from '../api/events';
import { SteeringConflict } from '../api/steering';
import { describeErrorForUser } from '../commandSupport/errorText';
import { describeMoney, toWire, type ValidMoney } from '../common/money';
import { notify } from '../common/notify';
import type { Translate } from '../common/translate';
import type { RunStore } from '../runs/runStore';
import { CapWithoutServer, ignoredCap, noBudgetsNotice, passedCapQuestion } from './budgetlessCap';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

/** Runs followed at once for a cap their service did not keep. */
export const MAX_WATCHED = 20;

export interface BudgetlessDeps {
  /** Asked on each use: signing in again may replace the client. */
  client(): Pick<ApiClient, 'openEventStream' | 'getRun' | 'cancelRun'>;
  /** The service's base URL now: the notice is said once per service. */
  serviceUrl(): string;
  onServiceChange: vscode.Event<unknown>;
  runs: RunStore;
  log: vscode.LogOutputChannel;
  trustedAutomation: boolean;
  /** Extension-host tests only: what a person would have been shown. */
  askedInTests: { push(question: { kind: 'noBudgets' | 'budgetless'; lines: string[] }): void };
  /** Extension-host tests only: the answer at the cap. */
  answerInTests(): 'cancel' | 'let';
}

export class BudgetlessRuns implements vscode.Disposable {
  private readonly told = new Set<string>();
  private readonly watches = new Map<string, AbortController>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly deps: BudgetlessDeps) {
    // Another service or key: its runs are not followed with the new client.
    this.subscription = deps.onServiceChange(() => this.stopAll());
  }

  /** Runs followed now (tests). */
  get watching(): readonly string[] {
    return [...this.watches.keys()];
  }

  /**
   * A task or run record came back after `sent` was asked for: when it has no `budget`, the
   * service ignored the cap. Said once per service; the run (`runId`) is followed to its cap.
   */
  noteStarted(
    sent: unknown,
    returned: { budget?: unknown } | undefined,
    runId: string | undefined,
    objective?: string,
  ): void {
    const cap = ignoredCap(sent, returned);
    if (!cap) {
      return;
    }
    const service = this.deps.serviceUrl();
    this.deps.log.warn(
      `The service at ${service} returned ${runId ?? 'a record'} without the cap sent (${describeMoney(cap, t)}).`,
    );
    if (!this.told.has(service)) {
      this.told.add(service);
      const notice = noBudgetsNotice(t, cap);
      if (this.deps.trustedAutomation) {
        this.deps.askedInTests.push({ kind: 'noBudgets', lines: [notice] });
      }
      void notify.warn(notice);
    }
    if (runId === undefined) {
      return;
    }
    this.deps.runs.noteLocalCap(runId, toWire(cap));
    this.follow(runId, cap, objective);
  }

  dispose(): void {
    this.subscription.dispose();
    this.stopAll();
  }

  private stopAll(): void {
    for (const stop of this.watches.values()) {
      stop.abort();
    }
    this.watches.clear();
  }

  private follow(runId: string, cap: ValidMoney, objective: string | undefined): void {
    if (this.watches.has(runId)) {
      return;
    }
    if (this.watches.size >= MAX_WATCHED) {
      this.deps.log.warn(`Not following ${runId} against its cap: ${MAX_WATCHED} runs are followed already.`);
      void notify.warn(
        t(
          'The extension already watches {0} runs whose service ignores caps: nobody will be asked when this one reaches its cap of {1}.',
          MAX_WATCHED,
          describeMoney(cap, t),
        ),
      );
      return;
    }
    const stop = new AbortController();
    this.watches.set(runId, stop);
    void this.read(runId, cap, objective, stop.signal).finally(() => {
      if (this.watches.get(runId) === stop) {
        this.watches.delete(runId);
      }
    });
  }

  private async read(
    runId: string,
    cap: ValidMoney,
    objective: string | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const watch = new CapWithoutServer(runId, cap);
    const subscription = new RunEventSubscription(this.deps.client(), runId, { signal, logger: this.deps.log });
    try {
      for await (const batch of subscription.batches()) {
        let reached: ValidMoney | undefined;
        for (const event of batch) {
          reached = watch.note(event) ?? reached;
        }
        if (watch.cost !== undefined) {
          this.deps.runs.noteStreamSpend(runId, { cost: watch.cost });
        }
        if (reached) {
          void this.ask(runId, cap, reached, objective);
        }
      }
    } catch (err) {
      if (!signal.aborted) {
        this.deps.log.warn(`Following ${runId} against its cap stopped: ${describeError(err)}`);
        if (!watch.hasReached) {
          void notify.warn(
            t(
              'The extension stopped watching a run against your cap of {0} (its events could not be read: {1}); nobody will be asked when it reaches the cap.',
              describeMoney(cap, t),
              describeErrorForUser(err),
            ),
          );
        }
      }
    } finally {
      subscription.close();
    }
  }

  private async ask(runId: string, cap: ValidMoney, cost: ValidMoney, objective: string | undefined): Promise<void> {
    const { message, lines } = passedCapQuestion(t, { runId, cap, cost, objective });
    const cancel = t('Cancel the Run');
    const letRun = t('Let It Run');
    let picked: string | undefined;
    if (this.deps.trustedAutomation) {
      this.deps.askedInTests.push({ kind: 'budgetless', lines: [message, ...lines] });
      picked = this.deps.answerInTests() === 'cancel' ? cancel : letRun;
    } else {
      picked = await notify.warn([message, ...lines].join(' '), cancel, letRun);
    }
    if (picked !== cancel) {
      this.deps.log.info(`${runId} passed the cap of ${describeMoney(cap, t)} its service ignores; it was let run.`);
      return;
    }
    try {
      const cancelled = await this.deps.client().cancelRun(runId);
      this.deps.runs.noteRecord(cancelled);
      void notify.info(t('The run was cancelled.'));
    } catch (err) {
      if (isApiError(err, 'conflict') && err.code === SteeringConflict.runNotActive) {
        void notify.info(t('The run already ended; there was nothing to stop.'));
        return;
      }
      this.deps.log.error(`Cancelling ${runId} at its cap failed: ${describeError(err)}`);
      void notify.error(t('The run could not be cancelled: {0}', describeErrorForUser(err)));
    }
  }
}
