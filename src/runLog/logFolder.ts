// The folder of run log caches (the extension's global storage + '/run-logs'): one file per run,
// named by its run id and its service (run ids are unique only within one service), and the housekeeping that keeps the folder within a size and a count,
// the least recently written files going first: when a log opens, and again as open logs grow.
// One run's log has a cap of its own (runLogCap). Plain Node: no vscode.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { heldElsewhere, lockPath } from './logLock';

export interface LogFolderLimits {
  /** Most bytes all caches take together. */
  maxBytes: number;
  /** Most files kept (a run's log, and its transcript when one was opened). */
  maxRuns: number;
  /** Most bytes one run's log takes (never more than maxBytes); past it the log stops. Default 256 MB. */
  maxRunBytes?: number;
}

const DEFAULT_RUN_BYTES = 256 * 1024 * 1024;

export const DEFAULT_FOLDER_LIMITS: LogFolderLimits = {
  maxBytes: 512 * 1024 * 1024,
  maxRuns: 200,
  maxRunBytes: DEFAULT_RUN_BYTES,
};

/**
 * The byte cap of one run's log: `maxRunBytes`, never more than the whole folder's `maxBytes`
 * (256 MB by default: about 2,000,000 events of a typical size, or 16,000 at the per-event budget).
 */
export function runLogCap(limits: LogFolderLimits): number {
  return Math.min(limits.maxRunBytes ?? DEFAULT_RUN_BYTES, limits.maxBytes);
}

/** Bytes a log writes between two housekeeping passes: a 32nd of the folder's limit, at least 64 KB. */
export function pruneStepBytes(limits: LogFolderLimits): number {
  return Math.max(64 * 1024, Math.floor(limits.maxBytes / 32));
}

const SUFFIX = '.events.jsonl';
/** Transcripts opened in an editor ("Open Run Transcript") live beside the logs and go the same way. */
const TRANSCRIPT_SUFFIX = '.transcript.md';
/**
 * A run id as a file name: the characters and length protocol.ts isRunId accepts (`run_` and up to
 * 200 more), so every run a panel opens can have its log (204 + the suffix stays under 255 bytes).
 */
const SAFE_ID = /^[A-Za-z0-9_-]{1,204}$/;

/**
 * A short name for a service (its normalised base URL): 12 hex characters keep the file name under
 * 255 bytes with the longest run id. Files of earlier versions (run id only) are never opened
 * again and leave with housekeeping, oldest first.
 */
export function serviceKey(service: string): string {
  return createHash('sha256').update(service.trim().replace(/\/+$/, '')).digest('hex').slice(0, 12);
}

/** The cache file of a run of a service; undefined for an id that could not be a file name safely. */
export function logFilePath(folder: string, runId: string, service = ''): string | undefined {
  return runFilePath(folder, runId, service, SUFFIX);
}

/**
 * The Markdown transcript of a run of a service ("Open Run Transcript"), named like its log: two
 * services' runs with the same id have two transcripts, and housekeeping finds them by the suffix.
 */
export function transcriptFilePath(folder: string, runId: string, service = ''): string | undefined {
  return runFilePath(folder, runId, service, TRANSCRIPT_SUFFIX);
}

function runFilePath(folder: string, runId: string, service: string, suffix: string): string | undefined {
  return SAFE_ID.test(runId) ? path.join(folder, `${runId}.${serviceKey(service)}${suffix}`) : undefined;
}

/**
 * Deletes the oldest caches (by last write) until the folder is within its limits. `keep` (the
 * files of open panels) are never deleted but count toward the limits. Returns what was removed.
 */
export async function pruneLogFolder(
  folder: string,
  keep: ReadonlySet<string>,
  limits: LogFolderLimits = DEFAULT_FOLDER_LIMITS,
): Promise<string[]> {
  let names: string[];
  try {
    names = (await fsp.readdir(folder)).filter((n) => n.endsWith(SUFFIX) || n.endsWith(TRANSCRIPT_SUFFIX));
  } catch {
    return [];
  }
  const files: { file: string; bytes: number; mtimeMs: number }[] = [];
  for (const name of names) {
    const file = path.join(folder, name);
    try {
      const stat = await fsp.stat(file);
      if (stat.isFile()) {
        files.push({ file, bytes: stat.size, mtimeMs: stat.mtimeMs });
      }
    } catch {
      // Removed meanwhile (another window's housekeeping).
    }
  }
  files.sort((a, b) => a.mtimeMs - b.mtimeMs);
  let total = files.reduce((sum, f) => sum + f.bytes, 0);
  let count = files.length;
  const removed: string[] = [];
  for (const f of files) {
    if (total <= limits.maxBytes && count <= limits.maxRuns) {
      break;
    }
    if (keep.has(f.file) || (await heldElsewhere(f.file))) {
      continue;
    }
    // A file another window holds open (EBUSY on Windows) stays, and still counts.
    if (
      !(await fsp.rm(f.file, { force: true }).then(
        () => true,
        () => false,
      ))
    ) {
      continue;
    }
    await fsp.rm(lockPath(f.file), { force: true }).catch(() => undefined);
    total -= f.bytes;
    count--;
    removed.push(f.file);
  }
  return removed;
}

/**
 * Housekeeping while a log grows: a pass each time the log has written another
 * pruneStepBytes, so the folder keeps within its limits during a long run, not only when the next
 * log opens. One pass at a time per log; a pass asked for meanwhile runs after it.
 */
export class GrowingLogHousekeeping {
  private nextAt: number;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly folder: string,
    private readonly limits: LogFolderLimits,
    /** The files never to delete (every log open in this process), asked at each pass. */
    private readonly keep: () => ReadonlySet<string>,
    private readonly onRemoved: (files: string[]) => void,
    bytes: number,
    /** Before each pass: the log's queued writes reach the disk, so the pass sees its size. */
    private readonly flushed: () => Promise<void> = async () => undefined,
  ) {
    this.nextAt = bytes + pruneStepBytes(limits);
  }

  /** The log now holds `bytes`: a pass when it has grown by another step. */
  grew(bytes: number): void {
    if (bytes < this.nextAt) {
      return;
    }
    this.nextAt = bytes + pruneStepBytes(this.limits);
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.passes().finally(() => (this.running = undefined));
  }

  /** Resolves once no pass is running. */
  async settled(): Promise<void> {
    while (this.running) {
      await this.running;
    }
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      await this.flushed();
      const removed = await pruneLogFolder(this.folder, this.keep(), this.limits).catch(() => []);
      if (removed.length > 0) {
        this.onRemoved(removed);
      }
    } while (this.again);
  }
}
