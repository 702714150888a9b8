// What both run logs do the same way over their store (runLog.ts: a file on the desktop,
// runLog.web.ts: memory in VS Code for the Web): pages, filters, find, one event by sequence, and
// one line in the log when the store's cap is reached. Plain code: no vscode, no Node.
import type { Logger } from '../common/logger';
import type { WireEvent } from '../runEvents/wire';
import { FilterIndexes } from './filterIndex';
import { type FindOptions, type FindProgress, type FindRequest, LogFinder } from './logFind';
import { type PageAnswer, type PageRequest, readPage } from './logPages';
import type { LogReader } from './logReader';

/** A run's store of events, as both run logs read it. */
export interface KeptEvents extends LogReader {
  readonly lastSequence: number;
  /** The last sequence kept once the store reached its cap; undefined while it has room. */
  readonly cappedAfter: number | undefined;
}

export abstract class RunLogCore<Store extends KeptEvents, Options extends { log: Logger; find?: FindOptions }> {
  private readonly indexes: FilterIndexes;
  protected readonly finder: LogFinder;
  protected closed = false;
  private cappedNoted = false;

  protected constructor(
    readonly runId: string,
    protected readonly cache: Store,
    protected readonly options: Options,
  ) {
    this.indexes = new FilterIndexes(cache);
    this.finder = new LogFinder(cache, options.find);
  }

  /** False once the log was closed (or its store failed). */
  abstract get usable(): boolean;

  get lastSequence(): number {
    return this.cache.lastSequence;
  }

  get length(): number {
    return this.cache.length;
  }

  /**
   * The last sequence the log keeps once it reached its cap: pages, find, filters and export reach
   * no further. Undefined while it has room.
   */
  get cappedAfter(): number | undefined {
    return this.cache.cappedAfter;
  }

  page(request: PageRequest, signal?: AbortSignal): Promise<PageAnswer> {
    return readPage(this.cache, this.indexes, request, signal);
  }

  find(request: FindRequest, report: (progress: FindProgress) => void, signal?: AbortSignal): Promise<FindProgress> {
    return this.finder.find(request, report, signal);
  }

  stopFind(): void {
    this.finder.stop();
  }

  /** The event as kept, when the log has it. */
  async event(sequence: number): Promise<WireEvent | undefined> {
    if (!this.usable) {
      return undefined;
    }
    await this.cache.flushed();
    const at = await this.cache.indexAfter(sequence - 1);
    const [event] = await this.cache.read(at, at + 1);
    return event?.data.sequence === sequence ? event : undefined;
  }

  /** One line in the log when the cap is reached. */
  protected noteCapped(): void {
    const after = this.cache.cappedAfter;
    if (after === undefined || this.cappedNoted) {
      return;
    }
    this.cappedNoted = true;
    this.options.log.info(this.cappedLine(after));
  }

  /** The log line for a cap reached after event `after`. */
  protected abstract cappedLine(after: number): string;
}
