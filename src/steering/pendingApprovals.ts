// The approvals waiting for a person, across runs: one list every surface reads (the "Needs you"
// view, its badge, the notification). Loaded when asked (a run starts or stops waiting, a panel's
// stream logs a request or a resolution, a decision here) and polled only while something waits
// or a run someone here cares about is going, from 3 s doubling to 30 s (like the run store).
// Pure (no vscode): the fetch and the timer are injected.
import type { PageWalk, PageWalkOptions } from '../api/pagination';
import type { ApprovalListParams } from '../api/steering';
import type { ApprovalRecord } from '../api/types';
import type { Logger } from '../common/logger';
import type { PollDelays, Schedule } from '../common/statusPoller';
import { PolledList } from './polledList';

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

/** The pending approvals as one polled list (polledList.ts); a server without approvals stops it. */
export class PendingApprovals extends PolledList<ApprovalRecord> {
  constructor(options: PendingApprovalsOptions) {
    super({
      name: 'Approvals',
      fetch: async (signal) => {
        const loaded = await options.fetchPending(signal);
        return { items: loaded.approvals, cut: loaded.cut };
      },
      watching: options.watching,
      log: options.log,
      onAuthError: options.onAuthError,
      onUnsupported: () => options.onUnsupported?.(),
      delays: options.delays ?? APPROVAL_POLL_DELAYS,
      schedule: options.schedule,
    });
  }

  readonly onDidChange = (listener: (change: PendingChange) => void): { dispose(): void } =>
    this.onDidChangeList((change) =>
      listener({ pending: change.items, added: change.added, firstLoad: change.firstLoad }),
    );

  get pending(): readonly ApprovalRecord[] {
    return this.items;
  }
}
