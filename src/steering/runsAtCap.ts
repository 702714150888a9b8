// The runs waiting at their spending cap (status `awaiting_budget`), for Needs You beside the
// approvals: the newest runs the service lists (one page, at most RUNS_READ) and the runs this
// window knows of, each once. Loaded when the approvals are (a run starts or stops waiting, a
// decision here) and polled like them only while something waits or a followed run goes.
// Pure (no vscode): the fetch and the timer are injected.
import type { Page, PageParams, RunRecord } from '../api/types';
import type { Logger } from '../common/logger';
import type { PollDelays, Schedule } from '../common/statusPoller';
import { isWaitingAtCap } from './capDecision';
import { PolledList } from './polledList';

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

/** The runs at their cap as one polled list (polledList.ts); a row is redrawn when its run's cost moved. */
export class RunsAtCap extends PolledList<RunRecord> {
  constructor(options: RunsAtCapOptions) {
    super({
      name: 'Runs at their cap',
      fetch: async (signal) => {
        const loaded = await options.fetch(signal);
        return { items: loaded.runs, cut: loaded.cut };
      },
      watching: options.watching,
      log: options.log,
      redraw: (before, after) => JSON.stringify(before.usage) !== JSON.stringify(after.usage),
      delays: options.delays ?? { firstMs: 3_000, maxMs: 30_000 },
      schedule: options.schedule,
    });
  }

  readonly onDidChange = (listener: (change: AtCapChange) => void): { dispose(): void } =>
    this.onDidChangeList((change) =>
      listener({ runs: change.items, added: change.added, firstLoad: change.firstLoad }),
    );

  get runs(): readonly RunRecord[] {
    return this.items;
  }
}
