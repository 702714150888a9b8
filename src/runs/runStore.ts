// The one owner of what the extension knows about runs: the latest record, the status, the last
// event sequence a panel's stream saw, whether a panel streams it, whether it was started here
// (so its end is announced), whether a row shows it. The Tasks tree, the run panels, the status
// bar and the run-finished notification read and listen here; nothing else keeps run state.
//
// Facts come in from three places: pages and records the tree loads (noteRecord), events a
// panel's stream delivers (noteStreamEvent), and this store's own polling. It polls only the
// runs that are unfinished, that nobody streams, and that somebody wants: a visible row shows
// them, or they were started here. A poll is one read of the runs list (ChangeFeed: what
// changed since the last look), so its cost does not grow with the number of runs; a run the
// list cannot vouch for (a server without `updated_after`, a run past its first page) is read
// on its own. A change is announced only when what a surface shows
// differs (status or record), so rows are redrawn only when their data changed.
// Pure (no vscode): the timer is injected, so tests drive it by hand.
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import type { RunRecord } from '../api/types';
import type { Page } from '../api/types';
import type { Logger } from '../common/logger';
import { mapLimited } from '../common/mapLimited';
import type { MoneyWire } from '../common/money';
import { FEED_POLL_DELAYS, type PollDelays, realSchedule, type Schedule, StatusPoller } from '../common/statusPoller';
import { isTerminalEvent, isTerminalStatus, statusAfterEvent, statusKind } from '../runEvents/runStatus';
import type { SpendSeen } from '../runEvents/spendMeter';
import { ChangeFeed, type ChangeListParams, type ChangeLook } from './changeFeed';

export interface RunFacts {
  readonly runId: string;
  readonly taskId?: string;
  /**
   * The latest record known (from a page, a GET, or a poll); its status may lag the stream. While
   * a panel streams the run, its `usage.cost` and `budget` are the stream's newest (spend events).
   */
  readonly record?: RunRecord;
  /** The freshest status: the stream's when it is ahead of the record. */
  readonly status?: string;
  /** The highest event sequence a panel's stream delivered; 0 when none. */
  readonly lastSequence: number;
  readonly terminal: boolean;
  /** A run panel streams its events now. */
  readonly streamed: boolean;
  /** Started from this window: its end is announced and it counts in the status bar. */
  readonly followed: boolean;
}

export interface RunChange {
  readonly facts: RunFacts;
  /** The status differs from the one announced before. */
  readonly statusChanged: boolean;
  /** The run reached a terminal status just now. */
  readonly finished: boolean;
}

export interface RunStoreOptions {
  /** GET /v1/runs/{id} through the current client. */
  fetchRun(runId: string, signal: AbortSignal): Promise<RunRecord>;
  /** GET /v1/runs (with `updated_after`) through the current client: a poll reads it once. */
  listRuns?(params: ChangeListParams, signal?: AbortSignal): Promise<Page<RunRecord>>;
  /** Which server `listRuns` reads: when it changes, the feed starts over. */
  listScope?(): string;
  log: Logger;
  /** Told about a 401 from a poll (the extension asks once to sign in again). */
  onAuthError?(err: unknown): void;
  delays?: PollDelays;
  schedule?: Schedule;
}

interface Disposable {
  dispose(): void;
}

interface Entry {
  runId: string;
  taskId?: string;
  record?: RunRecord;
  streamStatus?: string;
  lastSequence: number;
  streams: number;
  shows: number;
  followed: boolean;
  announcedTerminal: boolean;
  /** The newest cost and cap a panel's stream delivered, as received; dropped when a newer record comes. */
  streamSpend?: SpendSeen;
  /** The snapshot before spend notes that wait for SPEND_NOTE_MS to be announced. */
  spendBefore?: string;
  /** The cap the person chose that the service did not keep (budgetlessWatch.ts): the meter's cap while the record has none. */
  localCap?: MoneyWire;
}

/**
 * Spend notes are announced at most this often: a run that logs a thousand `usage.updated` a second
 * redraws its row and the status bar once a second, not per batch.
 */
export const SPEND_NOTE_MS = 1000;

/** How many status requests one poll sends at once. */
const POLL_CONCURRENCY = 4;

export class RunStore implements Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(change: RunChange) => void>();
  private readonly poller: StatusPoller;
  private readonly feed: ChangeFeed<RunRecord> | undefined;
  private abort = new AbortController();
  private disposed = false;
  private readonly schedule: Schedule;
  private spendTimer: { cancel(): void } | undefined;

  constructor(private readonly options: RunStoreOptions) {
    this.schedule = options.schedule ?? realSchedule;
    const listRuns = options.listRuns;
    this.feed = listRuns && new ChangeFeed<RunRecord>({ list: listRuns, scope: options.listScope });
    this.poller = new StatusPoller({
      poll: () => this.poll(),
      wanted: () => this.pollTargets().length > 0,
      delays: options.delays ?? (this.feed ? FEED_POLL_DELAYS : undefined),
      schedule: options.schedule,
      onError: (err) => options.log.warn(`Runs: status poll failed: ${describeError(err)}`),
    });
  }

  /** Subscribes to changes; an arrow function, so it can be passed around like a VS Code event. */
  readonly onDidChange = (listener: (change: RunChange) => void): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  };

  get(runId: string): RunFacts | undefined {
    const entry = this.entries.get(runId);
    return entry && this.facts(entry);
  }

  /** Runs started here that have not ended (the status bar's count). */
  get activeFollowed(): number {
    let n = 0;
    for (const entry of this.entries.values()) {
      if (entry.followed && !this.isTerminal(entry)) {
        n++;
      }
    }
    return n;
  }

  /** Unfinished runs someone here cares about (followed or streamed): what Cancel offers. */
  activeRuns(): RunFacts[] {
    const out: RunFacts[] = [];
    for (const entry of this.entries.values()) {
      if ((entry.followed || entry.streams > 0) && !this.isTerminal(entry)) {
        out.push(this.facts(entry));
      }
    }
    return out;
  }

  /** The latest record of every run known here (Needs You looks among them for runs at their cap). */
  knownRecords(): RunRecord[] {
    const out: RunRecord[] = [];
    for (const entry of this.entries.values()) {
      if (entry.record) {
        out.push(entry.record);
      }
    }
    return out;
  }

  /** True while the store has a poll timer armed (tests and the architecture's promise). */
  get polling(): boolean {
    return this.poller.scheduled;
  }

  // ---- facts in ----

  /** A record from a page, a GET or a poll. */
  noteRecord(run: RunRecord): void {
    if (typeof run?.id !== 'string') {
      return;
    }
    const entry = this.entry(run.id);
    const before = this.snapshot(entry);
    entry.record = run;
    // A record read once nobody streams the run, or after its end, is newer than what a stream said.
    if (entry.streams === 0 || isTerminalStatus(run.status)) {
      entry.streamSpend = undefined;
    }
    if (typeof run.task_id === 'string') {
      entry.taskId = run.task_id;
    }
    // A record that has caught up (or moved past) makes the stream's guess obsolete.
    if (isTerminalStatus(run.status) || !isTerminalStatus(entry.streamStatus)) {
      entry.streamStatus = undefined;
    }
    this.changed(entry, before);
  }

  /**
   * The cap a person chose for a run whose service did not keep it (its record came back without
   * `budget`): the Tasks row, the status bar and the run panel measure its cost against this one.
   */
  noteLocalCap(runId: string, cap: MoneyWire): void {
    const entry = this.entry(runId);
    const before = this.snapshot(entry);
    entry.localCap = cap;
    this.changed(entry, before);
  }

  /** The record with the cap noted here when it has none of its own (noteLocalCap). */
  withLocalCap(run: RunRecord): RunRecord {
    const cap = typeof run?.id === 'string' ? this.entries.get(run.id)?.localCap : undefined;
    return cap && (run.budget === undefined || run.budget === null) ? { ...run, budget: cap } : run;
  }

  /**
   * What a panel's stream delivered: the highest sequence and the last event's name. Event
   * names say where the run is (approval asked, resolved, ended) without waiting for a poll.
   */
  noteStreamEvents(runId: string, lastSequence: number, lastEventName: string | undefined): void {
    const entry = this.entry(runId);
    const before = this.snapshot(entry);
    if (Number.isSafeInteger(lastSequence) && lastSequence > entry.lastSequence) {
      entry.lastSequence = lastSequence;
    }
    if (lastEventName !== undefined && !this.isTerminal(entry)) {
      entry.streamStatus = statusAfterEvent(lastEventName);
    }
    this.changed(entry, before);
    // The terminal record has the finish time and cost: one read, not a poll.
    if (lastEventName !== undefined && isTerminalEvent(lastEventName)) {
      void this.refreshOnce(runId);
    }
  }

  /**
   * The newest cost and cap a panel's stream delivered (spend events). Kept at once; announced to
   * the listeners at most every SPEND_NOTE_MS, with whatever came meanwhile.
   */
  noteStreamSpend(runId: string, spend: Readonly<SpendSeen>): void {
    const entry = this.entry(runId);
    entry.spendBefore ??= this.snapshot(entry);
    entry.streamSpend = { cost: spend.cost, cap: spend.cap };
    this.spendTimer ??= this.schedule(() => this.announceSpend(), SPEND_NOTE_MS);
  }

  private announceSpend(): void {
    this.spendTimer = undefined;
    for (const entry of this.entries.values()) {
      const before = entry.spendBefore;
      if (before !== undefined) {
        entry.spendBefore = undefined;
        this.changed(entry, before);
      }
    }
  }

  /** A panel's stream ended without a terminal event in hand (the server said so otherwise). */
  noteStreamEnded(runId: string, status: string): void {
    const entry = this.entry(runId);
    const before = this.snapshot(entry);
    if (!this.isTerminal(entry) && isTerminalStatus(status)) {
      entry.streamStatus = status;
    }
    this.changed(entry, before);
    void this.refreshOnce(runId);
  }

  // ---- interest ----

  /** A run started from this window: its end is announced, and it counts in the status bar. */
  follow(runId: string, taskId?: string): void {
    const entry = this.entry(runId);
    const before = this.snapshot(entry);
    entry.followed = true;
    entry.announcedTerminal = this.isTerminal(entry);
    if (taskId !== undefined) {
      entry.taskId ??= taskId;
    }
    this.changed(entry, before);
    this.poller.kick();
  }

  /** A visible row shows the run: keep its status fresh while it is unfinished. */
  show(runId: string): Disposable {
    const entry = this.entry(runId);
    entry.shows++;
    // A row shows a record just read; with a runs list to look at, the next look is soon enough
    // (rows shown one after another must not keep the looks at their shortest delay).
    if (this.feed) {
      this.poller.update();
    } else {
      this.poller.kick();
    }
    return this.release(() => entry.shows--);
  }

  /** A panel streams the run: its events keep the facts fresh, so no poll is needed. */
  stream(runId: string): Disposable {
    const entry = this.entry(runId);
    entry.streams++;
    this.poller.update();
    return this.release(() => entry.streams--);
  }

  /** Another service: nothing known about the old one's runs holds. */
  reset(): void {
    this.abort.abort();
    this.abort = new AbortController();
    this.entries.clear();
    this.spendTimer?.cancel();
    this.spendTimer = undefined;
    this.poller.update();
  }

  dispose(): void {
    this.disposed = true;
    this.abort.abort();
    this.poller.dispose();
    this.spendTimer?.cancel();
    this.spendTimer = undefined;
    this.listeners.clear();
    this.entries.clear();
  }

  // ---- internals ----

  private entry(runId: string): Entry {
    let entry = this.entries.get(runId);
    if (!entry) {
      entry = { runId, lastSequence: 0, streams: 0, shows: 0, followed: false, announcedTerminal: false };
      this.entries.set(runId, entry);
    }
    return entry;
  }

  private release(undo: () => void): Disposable {
    let done = false;
    return {
      dispose: () => {
        if (done) {
          return;
        }
        done = true;
        undo();
        this.poller.update();
      },
    };
  }

  private status(entry: Entry): string | undefined {
    const recordStatus = typeof entry.record?.status === 'string' ? entry.record.status : undefined;
    return entry.streamStatus ?? recordStatus;
  }

  private isTerminal(entry: Entry): boolean {
    return isTerminalStatus(this.status(entry));
  }

  private facts(entry: Entry): RunFacts {
    const status = this.status(entry);
    return {
      runId: entry.runId,
      taskId: entry.taskId,
      record: withStreamSpend(
        entry.record && status !== entry.record.status ? { ...entry.record, status } : entry.record,
        entry.streamSpend,
        entry.localCap,
      ),
      status,
      lastSequence: entry.lastSequence,
      terminal: isTerminalStatus(status),
      streamed: entry.streams > 0,
      followed: entry.followed,
    };
  }

  /** What a surface shows of a run, to tell a real change from a repeat. */
  private snapshot(entry: Entry): string {
    return JSON.stringify([this.status(entry), entry.record, entry.followed, entry.streamSpend, entry.localCap]);
  }

  private changed(entry: Entry, before: string): void {
    const after = this.snapshot(entry);
    if (after === before || this.disposed) {
      return;
    }
    const facts = this.facts(entry);
    const finished = facts.terminal && !entry.announcedTerminal;
    if (facts.terminal) {
      entry.announcedTerminal = true;
    }
    const statusChanged = JSON.parse(before)[0] !== facts.status;
    for (const listener of [...this.listeners]) {
      try {
        listener({ facts, statusChanged, finished });
      } catch (err) {
        this.options.log.error(`Runs: a listener failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.poller.update();
  }

  private pollTargets(): Entry[] {
    const targets: Entry[] = [];
    for (const entry of this.entries.values()) {
      if (entry.streams > 0 || this.isTerminal(entry)) {
        continue;
      }
      // A run nobody shows and nobody started here is not worth a request.
      if (entry.shows > 0 || entry.followed) {
        targets.push(entry);
      }
    }
    return targets;
  }

  private async refreshOnce(runId: string): Promise<void> {
    try {
      this.noteRecord(await this.options.fetchRun(runId, this.abort.signal));
    } catch (err) {
      this.options.log.debug(`Runs: ${runId} not re-read after its end: ${describeError(err)}`);
    }
  }

  /**
   * One poll. With a list to read: one look at what changed (the cadence stays flat, so this
   * answers false), then a request of its own only for a run the list cannot vouch for.
   * Without: a request per run, true when anything changed (the delay starts over).
   */
  private async poll(): Promise<boolean> {
    const signal = this.abort.signal;
    if (!this.feed) {
      return this.pollEach(this.pollTargets(), signal);
    }
    let look: ChangeLook<RunRecord> | undefined;
    try {
      look = await this.feed.read(signal);
    } catch (err) {
      if (signal.aborted) {
        return false;
      }
      if (isApiError(err, 'authentication')) {
        this.options.onAuthError?.(err);
        return false;
      }
      this.options.log.debug(`Runs: the runs list was not read: ${describeError(err)}`);
    }
    if (signal.aborted) {
      return false;
    }
    for (const run of look?.changed ?? []) {
      // Only runs somebody here knows: the list names every run on the server.
      if (this.entries.has(run.id)) {
        this.noteRecord(run);
      }
    }
    // A run followed after the list showed it has no record here yet: the list will not show it
    // again until it changes (it may have ended already), so it is read on its own once.
    const rest = this.pollTargets().filter((entry) => entry.record === undefined || !look?.covers(entry.runId));
    await this.pollEach(rest, signal);
    return false;
  }

  /** A status request per run; true when anything changed. */
  private async pollEach(targets: Entry[], signal: AbortSignal): Promise<boolean> {
    let changed = false;
    let authError: unknown;
    await mapLimited(targets, POLL_CONCURRENCY, async (entry) => {
      try {
        const run = await this.options.fetchRun(entry.runId, signal);
        if (signal.aborted) {
          return;
        }
        const before = this.snapshot(entry);
        this.noteRecord(run);
        if (this.snapshot(entry) !== before) {
          changed = true;
        }
      } catch (err) {
        if (signal.aborted) {
          return;
        }
        if (isApiError(err, 'authentication')) {
          authError = err;
        }
        // A run the server no longer has will never end: stop asking about it.
        if (isApiError(err, 'not_found')) {
          this.entries.delete(entry.runId);
        }
        this.options.log.debug(`Runs: status of ${entry.runId} not refreshed: ${describeError(err)}`);
      }
    });
    if (authError !== undefined) {
      this.options.onAuthError?.(authError);
    }
    return changed;
  }
}

/**
 * The record with the stream's newest cost and cap in place of its own (absent ones keep the
 * record's), and the cap noted here (noteLocalCap) where neither has one.
 */
function withStreamSpend(
  record: RunRecord | undefined,
  spend: SpendSeen | undefined,
  localCap: MoneyWire | undefined,
): RunRecord | undefined {
  if (record && localCap && spend?.cap === undefined && (record.budget === undefined || record.budget === null)) {
    record = { ...record, budget: localCap };
  }
  if (!record || !spend) {
    return record;
  }
  const usage = typeof record.usage === 'object' && record.usage !== null ? record.usage : {};
  return {
    ...record,
    ...(spend.cap !== undefined ? { budget: spend.cap } : {}),
    ...(spend.cost !== undefined ? { usage: { ...usage, cost: spend.cost } } : {}),
  };
}

/** True when a status means the run waits for a person (an approval, or its spending cap). */
export function isAwaitingApproval(status: unknown): boolean {
  const kind = statusKind(status);
  return kind === 'awaiting_approval' || kind === 'awaiting_budget';
}
