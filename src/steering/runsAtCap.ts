// The runs waiting at their spending cap (status `awaiting_budget`), for Needs You beside the
// approvals: the newest runs the service lists (one page, at most RUNS_READ) and the runs this
// window knows of, each once. Loaded when the approvals are (a run starts or stops waiting, a
// decision here) and polled like them only while something waits or a followed run goes.
// Pure (no vscode): the fetch and the timer are injected.
import { describeError } from '../api/errorSentences';
import type { Page, PageParams, RunRecord } from '../api/types';
import type { Logger } from '../common/logger';
import { type PollDelays, type Schedule, StatusPoller } from '../common/statusPoller';
import { isWaitingAtCap } from './capDecision';

/** Runs read per load: the newest page; an older run at its cap shows once this window knows it. */
export const RUNS_READ = 100;
/** Rows kept at most. */
export const MAX_AT_CAP = 50;

export interface AtCapList {
  runs: RunRecord[];
  /** More wait than `runs` holds. */
  cut: boolean;
}

/** One page of the newest runs plus the records this window knows, those waiting at their cap. */
export async function fetchRunsAtCap(
  client: { listRuns(params: PageParams, opts: { signal?: AbortSignal }): Promise<Page<RunRecord>> },
  known: () => Iterable<RunRecord>,
  signal: AbortSignal,
): Promise<AtCapList> {
  const page = await client.listRuns({ limit: RUNS_READ }, { signal });
  const byId = new Map<string, RunRecord>();
  let cut = false;
  for (const run of [...page.data.slice(0, RUNS_READ), ...known()]) {
    if (!isWaitingAtCap(run) || byId.has(run.id)) {
      continue;
    }
    if (byId.size >= MAX_AT_CAP) {
      cut = true;
      break;
    }
    byId.set(run.id, run);
  }
  return { runs: [...byId.values()], cut };
}

export interface AtCapChange {
  readonly runs: readonly RunRecord[];
  /** Waiting now and not before (none on the first load). */
  readonly added: readonly RunRecord[];
  readonly firstLoad: boolean;
}

export interface RunsAtCapOptions {
  fetch(signal: AbortSignal): Promise<AtCapList>;
  watching(): boolean;
  log: Logger;
  delays?: PollDelays;
  schedule?: Schedule;
}

export class RunsAtCap {
  private list: RunRecord[] = [];
  private listCut = false;
  private loaded = false;
  private lastError: unknown;
  private abort = new AbortController();
  private inFlight: Promise<boolean> | undefined;
  private readonly listeners = new Set<(change: AtCapChange) => void>();
  private readonly poller: StatusPoller;

  constructor(private readonly options: RunsAtCapOptions) {
    this.poller = new StatusPoller({
      poll: () => this.load(),
      wanted: () => this.list.length > 0 || options.watching(),
      delays: options.delays ?? { firstMs: 3_000, maxMs: 30_000 },
      schedule: options.schedule,
      onError: (err) => options.log.warn(`Runs at their cap: poll failed: ${describeError(err)}`),
    });
  }

  readonly onDidChange = (listener: (change: AtCapChange) => void): { dispose(): void } => {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  };

  get runs(): readonly RunRecord[] {
    return this.list;
  }
  get cut(): boolean {
    return this.listCut;
  }
  get error(): unknown {
    return this.lastError;
  }

  find(runId: string): RunRecord | undefined {
    return this.list.find((r) => r.id === runId);
  }

  /** Load now; concurrent calls share one request. Never throws: a failure is `error`. */
  async refresh(): Promise<void> {
    try {
      await this.load();
    } catch (err) {
      this.options.log.warn(`Runs at their cap: could not load them: ${describeError(err)}`);
    }
    this.poller.kick();
  }

  update(): void {
    this.poller.update();
  }

  /** Decided here: drop it at once, the next load confirms. */
  forget(runId: string): void {
    const next = this.list.filter((r) => r.id !== runId);
    if (next.length !== this.list.length) {
      this.list = next;
      this.emit({ runs: this.list, added: [], firstLoad: false });
    }
  }

  reset(): void {
    this.abort.abort();
    this.abort = new AbortController();
    this.list = [];
    this.listCut = false;
    this.loaded = false;
    this.lastError = undefined;
    this.emit({ runs: this.list, added: [], firstLoad: false });
    this.poller.update();
  }

  dispose(): void {
    this.abort.abort();
    this.poller.dispose();
    this.listeners.clear();
  }

  private load(): Promise<boolean> {
    this.inFlight ??= this.fetch().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async fetch(): Promise<boolean> {
    const signal = this.abort.signal;
    let loaded: AtCapList;
    try {
      loaded = await this.options.fetch(signal);
    } catch (err) {
      if (signal.aborted) {
        return false;
      }
      const first = this.lastError === undefined;
      this.lastError = err;
      if (first) {
        this.emit({ runs: this.list, added: [], firstLoad: false });
      }
      throw err;
    }
    if (signal.aborted) {
      return false;
    }
    const recovered = this.lastError !== undefined;
    this.lastError = undefined;
    const firstLoad = !this.loaded;
    this.loaded = true;
    const before = new Map(this.list.map((r) => [r.id, r] as const));
    const added = firstLoad ? [] : loaded.runs.filter((r) => !before.has(r.id));
    const changed =
      firstLoad ||
      recovered ||
      loaded.cut !== this.listCut ||
      loaded.runs.length !== this.list.length ||
      loaded.runs.some(
        (r, i) => r.id !== this.list[i]?.id || JSON.stringify(r.usage) !== JSON.stringify(before.get(r.id)?.usage),
      );
    this.list = loaded.runs;
    this.listCut = loaded.cut;
    if (changed) {
      this.emit({ runs: this.list, added, firstLoad });
    }
    return changed;
  }

  private emit(change: AtCapChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (err) {
        this.options.log.error(`Runs at their cap: a listener failed: ${describeError(err)}`);
      }
    }
  }
}
