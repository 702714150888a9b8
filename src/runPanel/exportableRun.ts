// What "Export Run…" and "Open Run Transcript" need of a panel's session (RunSession has it),
// declared once for runExport.ts and its web twin.
import type { ExportFormat, ExportOptions } from '../runLog/logExport';
import type { ConnectionView } from './protocol';

/** What the export needs of a panel's session (RunSession has it). */
export interface ExportableRun {
  readonly runId: string;
  /** The service the run belongs to (RunSessionDeps.service): its files are named by it. */
  readonly service: string | undefined;
  readonly connectionState: ConnectionView;
  readonly logComplete: boolean;
  /** The log is opened (RunSession.logReady). */
  readonly logReady: Promise<void>;
  /** Why the log cannot hold the whole run; undefined while it can. */
  readonly logProblem: string | undefined;
  /** The log stopped at its size limit after this sequence: the export ends there. */
  readonly logCappedAfter: number | undefined;
  /** Milliseconds since the stream last delivered events. */
  readonly quietForMs: number;
  exportLog(format: ExportFormat, target: string, options?: ExportOptions): Promise<number>;
}
