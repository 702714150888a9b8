// Human-in-the-loop approvals: durable records, expiry timers, and the runs waiting on a decision.
import { conflict } from './httpErrors';
import { type ApprovalRecord, type ApprovalStatus, newId } from './records';
import { RecordStore } from './recordStore';

export type ApprovalOutcome = Exclude<ApprovalStatus, 'pending'>;

export interface ApprovalRequest {
  runId: string;
  taskId: string;
  stepId: string;
  tool: string;
  arguments: Record<string, unknown>;
  reason: string;
  timeoutMs: number;
}

/**
 * The time approvals expire by: the real clock, moved ahead by `offsetMs`. Tests move it instead of
 * waiting, or of racing a short expiry against their own polling on a busy machine.
 */
export class ApprovalClock {
  constructor(public offsetMs = 0) {}

  now(): number {
    return Date.now() + this.offsetMs;
  }
}

export class ApprovalDesk {
  readonly store: RecordStore<ApprovalRecord>;
  private readonly waiters = new Map<string, Set<(outcome: ApprovalOutcome) => void>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  /** `onSettled` runs once per approval, whatever settled it (a decision, expiry, the run ending). */
  constructor(
    dir: string,
    private readonly onSettled: (approval: ApprovalRecord) => void,
    readonly clock = new ApprovalClock(),
  ) {
    this.store = new RecordStore(dir);
  }

  /** Re-arms the expiry of approvals still pending from before a restart (some may be due at once). */
  armPending(): void {
    for (const approval of this.store.all()) {
      if (approval.status === 'pending') {
        this.arm(approval);
      }
    }
  }

  open(request: ApprovalRequest): ApprovalRecord {
    const created = this.clock.now();
    const approval = this.store.insert({
      id: newId('apr'),
      object: 'approval',
      run_id: request.runId,
      task_id: request.taskId,
      step_id: request.stepId,
      tool: request.tool,
      arguments: request.arguments,
      reason: request.reason,
      status: 'pending',
      created_at: new Date(created).toISOString(),
      expires_at: new Date(created + request.timeoutMs).toISOString(),
    });
    this.arm(approval);
    return approval;
  }

  get(id: string): ApprovalRecord | undefined {
    this.expireDue();
    return this.store.get(id);
  }

  /**
   * Settles a pending approval, or throws 409 with the current record: `approval_expired` when
   * its time ran out (even if the timer has not fired yet), else `approval_already_decided`.
   */
  decide(id: string, decision: 'approve' | 'deny', note?: string): ApprovalRecord {
    this.expireDue();
    const current = this.store.get(id);
    if (!current) {
      throw new Error(`unknown approval ${id}`);
    }
    if (current.status !== 'pending') {
      const code = current.status === 'expired' ? 'approval_expired' : 'approval_already_decided';
      const message =
        current.status === 'expired'
          ? 'This approval expired before a decision was made.'
          : `This approval was already ${current.status}.`;
      throw conflict(code, message).with({ approval: current });
    }
    return this.settle(id, decision === 'approve' ? 'approved' : 'denied', note);
  }

  /** Resolves once the approval is no longer pending; rejects when `signal` stops the waiting run. */
  wait(id: string, signal: AbortSignal): Promise<ApprovalOutcome> {
    const current = this.store.get(id);
    if (current && current.status !== 'pending') {
      return Promise.resolve(current.status);
    }
    return new Promise((resolve, reject) => {
      const waiters = this.waiters.get(id) ?? new Set();
      this.waiters.set(id, waiters);
      const onAbort = (): void => {
        waiters.delete(done);
        reject(new Error('run stopped'));
      };
      const done = (outcome: ApprovalOutcome): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      waiters.add(done);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** A run that ends while waiting leaves nobody to decide for: its pending approvals expire. */
  expireForRun(runId: string): void {
    for (const approval of this.store.all()) {
      if (approval.run_id === runId && approval.status === 'pending') {
        this.settle(approval.id, 'expired');
      }
    }
  }

  /** Moves the clock ahead; what is due by then expires at once. */
  advance(ms: number): void {
    this.clock.offsetMs += ms;
    this.expireDue();
    // What is not due yet keeps its place on the moved clock, not its old real-time delay.
    for (const approval of this.store.all()) {
      if (approval.status === 'pending') {
        this.arm(approval);
      }
    }
  }

  expireDue(): void {
    const now = this.clock.now();
    for (const approval of this.store.all()) {
      if (approval.status === 'pending' && Date.parse(approval.expires_at) <= now) {
        this.settle(approval.id, 'expired');
      }
    }
  }

  close(): void {
    for (const timer of this.timers.values()) {
      clearTimeout(timer);
    }
    this.timers.clear();
  }

  private arm(approval: ApprovalRecord): void {
    clearTimeout(this.timers.get(approval.id));
    const delay = Math.max(0, Date.parse(approval.expires_at) - this.clock.now());
    // setTimeout holds 32-bit delays only; a week-long sandbox expiry is re-armed in pieces.
    const timer = setTimeout(
      () => {
        this.timers.delete(approval.id);
        if (this.store.get(approval.id)?.status !== 'pending') {
          return;
        }
        if (Date.parse(approval.expires_at) <= this.clock.now()) {
          this.settle(approval.id, 'expired');
        } else {
          this.arm(approval);
        }
      },
      Math.min(delay, 2 ** 31 - 1),
    );
    timer.unref();
    this.timers.set(approval.id, timer);
  }

  private settle(id: string, status: ApprovalOutcome, note?: string): ApprovalRecord {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
    const change: Partial<ApprovalRecord> = { status };
    if (status !== 'expired') {
      change.decided_at = new Date(this.clock.now()).toISOString();
    } // one clock for every approval time
    if (note !== undefined && note !== '') {
      change.note = note;
    }
    const settled = this.store.update(id, change);
    this.onSettled(settled);
    const waiters = this.waiters.get(id);
    this.waiters.delete(id);
    for (const resolve of waiters ?? []) {
      resolve(status);
    }
    return settled;
  }
}
