// The approvals waiting for a person, across runs: one list every surface reads (the "Needs you"
// view, its badge, the notification). Loaded when asked (a run starts or stops waiting, a panel's
// stream logs a request or a resolution, a decision here) and polled only while something waits
// or a run someone here cares about is going, from 3 s doubling to 30 s (like the run store).
// Pure (no vscode): the fetch and the timer are injected.
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import type { PageWalk, PageWalkOptions } from '../api/pagination';
import type { ApprovalListParams } from '../api/steering';
import type { ApprovalRecord } from '../api/types';
import type { Logger } from '../common/logger';
import { type PollDelays, type Schedule, StatusPoller } from '../common/statusPoller';

/** Pending approvals kept at most (the rows of Needs You). */
export const MAX_PENDING = 200;
/** Approval records read at most per load, each one counted whether it is pending or not. */
export const MAX_APPROVALS_READ = 500;

/** One load: the pending approvals, each id once, and whether a cap left some out. */
export interface PendingList {
  approvals: ApprovalRecord[];
  /** More may wait than `approvals` holds (a cap of the list or of the pager was reached). */
  cut: boolean;
}

/** Pending means an approval id (`apr_...`) whose status is exactly 'pending'; anything else is not shown. */
export function isPendingApproval(record: unknown): record is ApprovalRecord {
  const r = record as { id?: unknown; status?: unknown } | null;
  return (
    typeof r === 'object' && r !== null && typeof r.id === 'string' && r.id.startsWith('apr_') && r.status === 'pending'
  );
}

/** GET /v1/approvals?status=pending through the one pager: every record read counts toward its cap. */
export async function fetchPendingApprovals(
  client: { iterateApprovals(params: ApprovalListParams, opts: PageWalkOptions): PageWalk<ApprovalRecord> },
  signal: AbortSignal,
): Promise<PendingList> {
  const walk = client.iterateApprovals({ status: 'pending', limit: 100 }, { signal, maxItems: MAX_APPROVALS_READ });
  const byId = new Map<string, ApprovalRecord>();
  let cut = false;
  for await (const record of walk) {
    if (!isPendingApproval(record) || byId.has(record.id)) {
      continue;
    }
    if (byId.size >= MAX_PENDING) {
      cut = true;
      break;
    }
    byId.set(record.id, record);
  }
  return { approvals: [...byId.values()], cut: cut || walk.cut !== undefined };
}

export interface PendingChange {
  readonly pending: readonly ApprovalRecord[];
  /** Pending now and not in the list before (none on the first load: nothing "started" waiting). */
  readonly added: readonly ApprovalRecord[];
  readonly firstLoad: boolean;
}

export interface PendingApprovalsOptions {
  /** The pending approvals (fetchPendingApprovals: all pages up to a cap, and whether it cut). */
  fetchPending(signal: AbortSignal): Promise<PendingList>;
  /** Signed in and a run someone here cares about is unfinished: worth polling. */
  watching(): boolean;
  log: Logger;
  onAuthError?(err: unknown): void;
  /** The server has no approvals (404/405): stop asking until reset. */
  onUnsupported?(): void;
  delays?: PollDelays;
  schedule?: Schedule;
}

export const APPROVAL_POLL_DELAYS: PollDelays = { firstMs: 3_000, maxMs: 30_000 };

export class PendingApprovals {
  private list: ApprovalRecord[] = [];
  private listCut = false;
  private loaded = false;
  private unsupported = false;
  private lastError: unknown;
  private abort = new AbortController();
  private inFlight: Promise<boolean> | undefined;
  private readonly listeners = new Set<(change: PendingChange) => void>();
  private readonly poller: StatusPoller;

  constructor(private readonly options: PendingApprovalsOptions) {
    this.poller = new StatusPoller({
      poll: () => this.load(),
      wanted: () => !this.unsupported && (this.list.length > 0 || options.watching()),
      delays: options.delays ?? APPROVAL_POLL_DELAYS,
      schedule: options.schedule,
      onError: (err) => options.log.warn(`Approvals: poll failed: ${describeError(err)}`),
    });
  }

  readonly onDidChange = (listener: (change: PendingChange) => void): { dispose(): void } => {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  };

  get pending(): readonly ApprovalRecord[] {
    return this.list;
  }
  /** The last load stopped at a cap: more may wait than `pending` holds. */
  get cut(): boolean {
    return this.listCut;
  }
  get error(): unknown {
    return this.lastError;
  }
  get isUnsupported(): boolean {
    return this.unsupported;
  }
  get polling(): boolean {
    return this.poller.scheduled;
  }

  find(approvalId: string): ApprovalRecord | undefined {
    return this.list.find((a) => a.id === approvalId);
  }

  /** Load now and (re)start the polling delay; concurrent calls share one request. Never throws: a failure is `error`. */
  async refresh(): Promise<void> {
    try {
      await this.load();
    } catch (err) {
      this.options.log.warn(`Approvals: could not load the pending approvals: ${describeError(err)}`);
    }
    this.poller.kick();
  }

  /** Re-checks whether polling is wanted (a run started or ended). */
  update(): void {
    this.poller.update();
  }

  /** A decision made here: drop it at once, the next load confirms. */
  forget(approvalId: string): void {
    const next = this.list.filter((a) => a.id !== approvalId);
    if (next.length === this.list.length) {
      return;
    }
    this.list = next;
    this.emit({ pending: this.list, added: [], firstLoad: false });
  }

  /** Another service or key: nothing known holds. */
  reset(): void {
    this.abort.abort();
    this.abort = new AbortController();
    this.list = [];
    this.listCut = false;
    this.loaded = false;
    this.unsupported = false;
    this.lastError = undefined;
    this.emit({ pending: this.list, added: [], firstLoad: false });
    this.poller.update();
  }

  dispose(): void {
    this.abort.abort();
    this.poller.dispose();
    this.listeners.clear();
  }

  private load(): Promise<boolean> {
    if (this.unsupported) {
      return Promise.resolve(false);
    }
    this.inFlight ??= this.fetch().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async fetch(): Promise<boolean> {
    const signal = this.abort.signal;
    let loaded: PendingList;
    try {
      loaded = await this.options.fetchPending(signal);
    } catch (err) {
      if (signal.aborted) {
        return false;
      }
      if (isApiError(err, 'not_supported')) {
        this.unsupported = true;
        this.options.onUnsupported?.();
        this.list = [];
        this.listCut = false;
        this.emit({ pending: this.list, added: [], firstLoad: !this.loaded });
        return false;
      }
      if (isApiError(err, 'authentication')) {
        this.options.onAuthError?.(err);
      }
      const first = this.lastError === undefined;
      this.lastError = err;
      if (first) {
        this.emit({ pending: this.list, added: [], firstLoad: false });
      }
      throw err;
    }
    if (signal.aborted) {
      return false;
    }
    // Each id once: VS Code refuses a tree with two rows of one id, and one approval is announced once.
    const fresh = [...new Map(loaded.approvals.map((a) => [a.id, a] as const)).values()];
    const cutChanged = loaded.cut !== this.listCut;
    this.listCut = loaded.cut;
    const recovered = this.lastError !== undefined;
    this.lastError = undefined;
    const firstLoad = !this.loaded;
    this.loaded = true;
    const before = new Set(this.list.map((a) => a.id));
    const added = firstLoad ? [] : fresh.filter((a) => !before.has(a.id));
    const changed =
      firstLoad ||
      recovered ||
      cutChanged ||
      added.length > 0 ||
      fresh.length !== this.list.length ||
      fresh.some((a, i) => a.id !== this.list[i]?.id);
    this.list = fresh;
    if (changed) {
      this.emit({ pending: this.list, added, firstLoad });
    }
    return changed;
  }

  private emit(change: PendingChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (err) {
        this.options.log.error(`Approvals: a listener failed: ${describeError(err)}`);
      }
    }
  }
}
