// The whole log of one run as the panel's host uses it: the cache file (opened in the folder the
// extension gives, after housekeeping), pages, find and export over it. One warning in the log
// when the disk fails; `usable` then turns false and the caller answers from its bounded model.
// Plain Node: no vscode.
import { promises as fsp } from 'node:fs';
import type { Logger } from '../common/logger';
import type { WireEvent } from '../runEvents/wire';
import { RunLogCache } from './logCache';
import { type ExportFormat, exportLog, type ExportOptions, type TranscriptHeader } from './logExport';
import type { FindOptions } from './logFind';
import {
  DEFAULT_FOLDER_LIMITS,
  GrowingLogHousekeeping,
  logFilePath,
  type LogFolderLimits,
  pruneLogFolder,
  runLogCap,
} from './logFolder';
import { acquireLogLock, releaseLogLock } from './logLock';
import { RunLogCore } from './runLogCore';

/** Cache files of the logs open in this process: housekeeping never deletes them. */
const openFiles = new Map<string, number>();

export interface RunLogOptions {
  log: Logger;
  /** The service's normalised base URL: run ids are unique only within one service. */
  service?: string;
  limits?: LogFolderLimits;
  find?: FindOptions;
}

export class RunLog extends RunLogCore<RunLogCache, RunLogOptions> {
  private warned = false;
  private readonly housekeeping: GrowingLogHousekeeping;

  private constructor(runId: string, cache: RunLogCache, options: RunLogOptions, folder: string) {
    super(runId, cache, options);
    const limits = options.limits ?? DEFAULT_FOLDER_LIMITS;
    this.housekeeping = new GrowingLogHousekeeping(
      folder,
      limits,
      () => new Set(openFiles.keys()),
      (removed) => logRemoved(options, removed),
      cache.sizeBytes,
      () => cache.flushed(),
    );
  }

  /** Opens the run's cache in `folder`; undefined (after one warning) when the disk cannot hold it. */
  static async open(folder: string, runId: string, options: RunLogOptions): Promise<RunLog | undefined> {
    const file = logFilePath(folder, runId, options.service);
    if (!file) {
      options.log.warn(`Run log: the run id is no safe file name; the panel shows the newest events only`);
      return undefined;
    }
    let log: RunLog | undefined;
    await fsp.mkdir(folder, { recursive: true }).catch(() => undefined);
    // A disk error here is met again below, and warned about there.
    if ((await acquireLogLock(file).catch(() => undefined)) === false) {
      options.log.info(
        `Run log ${runId}: another window keeps this run's log; this panel shows the newest events only`,
      );
      return undefined;
    }
    openFiles.set(file, (openFiles.get(file) ?? 0) + 1);
    try {
      await fsp.mkdir(folder, { recursive: true });
      const limits = options.limits ?? DEFAULT_FOLDER_LIMITS;
      logRemoved(options, await pruneLogFolder(folder, new Set(openFiles.keys()), limits));
      const opened = await RunLogCache.open(file, {
        onFailure: (err) => log?.warnOnce(err),
        maxBytes: runLogCap(limits),
      });
      if (opened.outcome === 'corrupt-deleted') {
        options.log.warn(`Run log ${runId}: the cached log was damaged and is read again from the server`);
      }
      log = new RunLog(runId, opened.cache, options, folder);
      log.noteCapped();
      return log;
    } catch (err) {
      await release(file);
      options.log.warn(
        `Run log ${runId}: the log cannot be kept on disk (${describe(err)}); the panel shows the newest events only`,
      );
      return undefined;
    }
  }

  /** False once the disk failed or the log was closed. */
  get usable(): boolean {
    return !this.cache.failed && !this.closed;
  }

  /** `bounded`: the events were already cut to the budget (the model's accepted events). */
  append(events: readonly WireEvent[], bounded = false): void {
    if (!this.usable) {
      return;
    }
    this.cache.append(events, bounded);
    this.noteCapped();
    this.housekeeping.grew(this.cache.sizeBytes);
  }

  /** Resolves once the housekeeping this log's growth started has run (tests). */
  housekept(): Promise<void> {
    return this.housekeeping.settled();
  }

  export(format: ExportFormat, target: string, header: TranscriptHeader, options?: ExportOptions): Promise<number> {
    return exportLog(this.cache, format, target, header, options);
  }

  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.finder.stop();
    await this.housekeeping.settled();
    await this.cache.close().catch((err: unknown) => this.warnOnce(err));
    await release(this.cache.path);
  }

  protected cappedLine(after: number): string {
    const mb = (runLogCap(this.options.limits ?? DEFAULT_FOLDER_LIMITS) / (1024 * 1024)).toFixed(1);
    return `Run log ${this.runId}: the log reached its size limit (${mb} MB) after event ${after}; later events are shown live but not kept on disk`;
  }

  private warnOnce(err: unknown): void {
    if (this.warned) {
      return;
    }
    this.warned = true;
    this.options.log.warn(
      `Run log ${this.runId}: writing the log to disk failed (${describe(err)}); the panel shows the newest events only`,
    );
  }
}

function logRemoved(options: RunLogOptions, removed: string[]): void {
  if (removed.length > 0) {
    options.log.info(`Run log: removed ${removed.length} old cached run logs to stay within the folder's limits`);
  }
}

/** One user of the file fewer; the last gives the window's lock up. */
async function release(file: string): Promise<void> {
  const n = (openFiles.get(file) ?? 1) - 1;
  if (n > 0) {
    return void openFiles.set(file, n);
  }
  openFiles.delete(file);
  await releaseLogLock(file).catch(() => undefined);
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
