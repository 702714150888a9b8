// What every command needs from the composition root, in one interface so handlers stay small.
import type * as vscode from 'vscode';
import type { TaskRecord } from '../api/types';
import type { CredentialStore } from '../auth/credentialStore';
import type { ServiceConnection } from '../service/serviceConnection';
import type { AgentRuntimeSettings } from '../service/settings';
import type { LocalFileIndex } from '../upload/localFileIndex';
import type { BudgetGate } from './budgetChoice';

/** The view a command's rows live in; `any`: the one the user last selected rows in. */
export type SelectionView = 'files' | 'tasks' | 'any';

export interface CommandDeps {
  service: ServiceConnection;
  credentials: CredentialStore;
  log: vscode.LogOutputChannel;
  settings(): AgentRuntimeSettings;
  localFiles: LocalFileIndex;
  files: { refresh(): void };
  /** The rows selected now in a sidebar view (src/views/sidebarSelection.ts). */
  selection(view: SelectionView): readonly unknown[];
  /** The run of the active run panel, if one is open (resolveRun's last resort, runArgs.ts). */
  activeRunPanel(): string | undefined;
  /** `followNewTask`: reveal a task just created here and follow its run (status bar, end notice). */
  tasks: { refresh(): void; followNewTask(task: TaskRecord): Promise<void> };
  /** Wraps a handler so errors are reported at the edge (see commandErrors.ts). */
  guard<A extends unknown[]>(context: string, handler: (...args: A) => unknown): (...args: A) => Promise<unknown>;
  /** True when a key is available; otherwise offers to sign in first. */
  ensureSignedIn(): Promise<boolean>;
  /**
   * True only in the extension-host test run: commands may then take their answers (an API key,
   * an objective) as arguments without asking. Anyone else invoking them is asked.
   */
  trustedAutomation: boolean;
  /** The cap each new run gets, and the monthly limit (budgetChoice.ts); every path that starts a run asks here. */
  budgets: BudgetGate;
}
