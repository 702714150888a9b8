// One list a person must act on, loaded when asked and polled while it matters: the approvals
// waiting (pendingApprovals.ts) and the runs at their spending cap (runsAtCap.ts) are both this.
// It keeps what the last load said (each id once, and whether a cap cut it), shares one request
// among concurrent loads, tells its listeners on the first load, on a change, on the first
// failure and on the recovery (never per poll), drops a decision made here at once, and starts
// over for another service. A server that does not offer the list (`onUnsupported`) stops the
// polling until reset. Pure (no vscode): the fetch and the timer are injected.
import { isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import type { Logger } from '../common/logger';
import { type PollDelays, type Schedule, StatusPoller } from '../common/statusPoller';

/** One load: the items, and whether more wait than it holds. */
export interface LoadedList<T> {
  items: T[];
  cut: boolean;
}

export interface ListChange<T> {
  readonly items: readonly T[];
  /** In the list now and not before (none on the first load: nothing "started" waiting). */
  readonly added: readonly T[];
  readonly firstLoad: boolean;
}

export interface PolledListOptions<T> {
  /** How the log names the list ("Approvals"). */
  name: string;
  fetch(signal: AbortSignal): Promise<LoadedList<T>>;
  /** Worth polling even while the list is empty (signed in and a run someone here cares about goes). */
  watching(): boolean;
  log: Logger;
  onAuthError?(err: unknown): void;
  /** Given: a `not_supported` answer means the server has no such list; stop asking until reset. */
  onUnsupported?(): void;
  /** Whether an item changed in a way its row shows (default: never; only ids count). */
  redraw?(before: T, after: T): boolean;
  delays: PollDelays;
  schedule?: Schedule;
}

export class PolledList<T extends { id: string }> {
  private list: T[] = [];
  private listCut = false;
  private loaded = false;
  private unsupported = false;
  private lastError: unknown;
  private abort = new AbortController();
  private inFlight: Promise<boolean> | undefined;
  private readonly listeners = new Set<(change: ListChange<T>) => void>();
  private readonly poller: StatusPoller;

  constructor(private readonly options: PolledListOptions<T>) {
    this.poller = new StatusPoller({
      poll: () => this.load(),
      wanted: () => !this.unsupported && (this.list.length > 0 || options.watching()),
      delays: options.delays,
      schedule: options.schedule,
      onError: (err) => options.log.warn(`${options.name}: poll failed: ${describeError(err)}`),
    });
  }

  readonly onDidChangeList = (listener: (change: ListChange<T>) => void): { dispose(): void } => {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  };

  get items(): readonly T[] {
    return this.list;
  }
  /** The last load stopped at a cap: more may wait than `items` holds. */
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

  find(id: string): T | undefined {
    return this.list.find((item) => item.id === id);
  }

  /** Load now and (re)start the polling delay; concurrent calls share one request. Never throws: a failure is `error`. */
  async refresh(): Promise<void> {
    try {
      await this.load();
    } catch (err) {
      this.options.log.warn(`${this.options.name}: could not load them: ${describeError(err)}`);
    }
    this.poller.kick();
  }

  /** Re-checks whether polling is wanted (a run started or ended). */
  update(): void {
    this.poller.update();
  }

  /** A decision made here: drop it at once, the next load confirms. */
  forget(id: string): void {
    const next = this.list.filter((item) => item.id !== id);
    if (next.length === this.list.length) {
      return;
    }
    this.list = next;
    this.emit({ items: this.list, added: [], firstLoad: false });
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
    this.emit({ items: this.list, added: [], firstLoad: false });
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
    let loaded: LoadedList<T>;
    try {
      loaded = await this.options.fetch(signal);
    } catch (err) {
      if (signal.aborted) {
        return false;
      }
      if (this.options.onUnsupported && isApiError(err, 'not_supported')) {
        this.unsupported = true;
        this.options.onUnsupported();
        this.list = [];
        this.listCut = false;
        this.emit({ items: this.list, added: [], firstLoad: !this.loaded });
        return false;
      }
      if (isApiError(err, 'authentication')) {
        this.options.onAuthError?.(err);
      }
      const first = this.lastError === undefined;
      this.lastError = err;
      if (first) {
        this.emit({ items: this.list, added: [], firstLoad: false });
      }
      throw err;
    }
    if (signal.aborted) {
      return false;
    }
    // Each id once: VS Code refuses a tree with two rows of one id, and one item is announced once.
    const fresh = [...new Map(loaded.items.map((item) => [item.id, item] as const)).values()];
    const cutChanged = loaded.cut !== this.listCut;
    this.listCut = loaded.cut;
    const recovered = this.lastError !== undefined;
    this.lastError = undefined;
    const firstLoad = !this.loaded;
    this.loaded = true;
    const before = new Map(this.list.map((item) => [item.id, item] as const));
    const added = firstLoad ? [] : fresh.filter((item) => !before.has(item.id));
    const redraw = this.options.redraw;
    const changed =
      firstLoad ||
      recovered ||
      cutChanged ||
      added.length > 0 ||
      fresh.length !== this.list.length ||
      fresh.some((item, i) => item.id !== this.list[i]?.id) ||
      (redraw !== undefined && fresh.some((item) => redraw(before.get(item.id) ?? item, item)));
    this.list = fresh;
    if (changed) {
      this.emit({ items: this.list, added, firstLoad });
    }
    return changed;
  }

  private emit(change: ListChange<T>): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (err) {
        this.options.log.error(`${this.options.name}: a listener failed: ${describeError(err)}`);
      }
    }
  }
}
