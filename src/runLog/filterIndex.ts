// Which events of a run's log pass a filter, as a compact sorted array of positions, built once
// per filter by a chunked scan and extended as the log grows; the few most recent filters are
// kept. It makes a filtered page one lookup, and gives the filtered total. Plain Node: no vscode.
import { isEmptyFilter, type LogFilter } from '../runEvents/logQuery';
import type { WireEvent } from '../runEvents/wire';
import type { LogReader } from './logReader';
import { chunks, countLines, eventMatches, forEachCandidate, rawPlan, type ScanOptions } from './logScan';
import { SortedNumbers } from './sortedNumbers';

/** A growable array of event positions (4 bytes each). */
export class PositionList extends SortedNumbers<Uint32Array> {
  constructor() {
    super(new Uint32Array(1024));
  }

  protected allocate(size: number): Uint32Array {
    return new Uint32Array(size);
  }

  slice(from: number, to: number): number[] {
    return Array.from(this.data.subarray(from, to));
  }
}

interface Entry {
  positions: PositionList;
  /** Positions [0, scanned) are indexed. */
  scanned: number;
  building?: Promise<void>;
}

export function filterKey(filter: LogFilter | undefined): string {
  if (isEmptyFilter(filter)) {
    return '';
  }
  return JSON.stringify([
    filter?.kinds ? [...filter.kinds].sort() : [],
    filter?.tool ?? '',
    filter?.stepId ?? '',
    filter?.status ?? '',
  ]);
}

export class FilterIndexes {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly cache: LogReader,
    private readonly maxFilters = 4,
    private readonly scan: ScanOptions = {},
  ) {}

  /** The positions passing `filter`, up to date with the log's current length. */
  async positions(filter: LogFilter, signal?: AbortSignal): Promise<PositionList> {
    const key = filterKey(filter);
    let entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
    }
    entry ??= { positions: new PositionList(), scanned: 0 };
    // Most recently used last: the first is the one to drop.
    this.entries.set(key, entry);
    while (this.entries.size > this.maxFilters) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
    while (entry.scanned < this.cache.length) {
      const before = entry.scanned;
      entry.building ??= this.extend(entry, filter, signal).finally(() => {
        if (entry) {
          entry.building = undefined;
        }
      });
      await entry.building;
      // A file that holds fewer lines than its index says (changed under us) must not spin here.
      if (entry.scanned <= before) {
        throw new Error("The run's log on disk does not match its index; it will be read again");
      }
    }
    return entry.positions;
  }

  /** The filtered total if already known (without scanning). */
  knownTotal(filter: LogFilter): number | undefined {
    const entry = this.entries.get(filterKey(filter));
    return entry && entry.scanned === this.cache.length ? entry.positions.length : undefined;
  }

  private async extend(entry: Entry, filter: LogFilter, signal?: AbortSignal): Promise<void> {
    const plan = rawPlan(filter, '');
    const to = this.cache.length;
    for await (const chunk of chunks(this.cache, entry.scanned, to, false, { ...this.scan, signal })) {
      forEachCandidate(chunk.text, chunk.start, plan, (index, line) => {
        if (eventMatches(JSON.parse(line) as WireEvent, filter, '')) {
          entry.positions.push(index);
        }
      });
      entry.scanned = chunk.start + countLines(chunk.text);
    }
  }
}
