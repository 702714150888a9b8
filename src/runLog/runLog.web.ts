// The web bundle's twin of runLog.ts: VS Code for the Web has no disk of this machine, so a run's
// whole log lives in memory (memoryLogCache.ts, bounded per run and for the window) for as long
// as its panel is open. Pages, filters and find are the same code as on the desktop; after a
// reload the panel reads the log again from the server (RunSession fills a log behind its model),
// so the exactly-once rule holds the same way. Export and the transcript are the desktop's
// (runExport.web.ts says so). Plain code: no vscode, no Node.
import type { Logger } from '../common/logger';
import type { WireEvent } from '../runEvents/wire';
import type { ExportFormat, ExportOptions, TranscriptHeader } from './logExport';
import type { FindOptions } from './logFind';
import type { LogFolderLimits } from './logFolder';
import { MEMORY_LOG_BYTES, MemoryLogCache, MemoryPool } from './memoryLogCache';
import { RunLogCore } from './runLogCore';

/** Every run log of this window shares one pool of bytes. */
const pool = new MemoryPool();

export interface RunLogOptions {
  log: Logger;
  /** The service's normalised base URL (on the desktop it names the file; here one window has one). */
  service?: string;
  /** The desktop's folder limits: not read here (memory has its own, memoryLogCache.ts). */
  limits?: LogFolderLimits;
  find?: FindOptions;
}

export class RunLog extends RunLogCore<MemoryLogCache, RunLogOptions> {
  /** A new, empty log in memory (`folder` is the desktop's; memory needs none). */
  static async open(_folder: string, runId: string, options: RunLogOptions): Promise<RunLog | undefined> {
    return new RunLog(runId, new MemoryLogCache({ pool }), options);
  }

  get usable(): boolean {
    return !this.closed;
  }

  append(events: readonly WireEvent[], bounded = false): void {
    if (this.closed) {
      return;
    }
    this.cache.append(events, bounded);
    this.noteCapped();
  }

  async housekept(): Promise<void> {
    // Memory needs no housekeeping: a closed log gives its bytes back at once.
  }

  export(_format: ExportFormat, _target: string, _header: TranscriptHeader, _options?: ExportOptions): Promise<number> {
    return Promise.reject(new Error('VS Code for the Web writes no files of a run log'));
  }

  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.finder.stop();
    this.cache.close();
  }

  protected cappedLine(after: number): string {
    const mb = (MEMORY_LOG_BYTES / (1024 * 1024)).toFixed(0);
    return `Run log ${this.runId}: the log in memory reached its limit (${mb} MB for a run, less while other panels hold theirs) after event ${after}; later events are shown live but not kept`;
  }
}
