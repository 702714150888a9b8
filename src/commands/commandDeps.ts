// What every command needs from the composition root, in one interface so handlers stay small.
import * as vscode from 'vscode';
import { TaskRecord } from '../api/types';
import { CredentialStore } from '../auth/credentialStore';
import { ServiceConnection } from '../service/serviceConnection';
import { LocalFileIndex } from '../upload/localFileIndex';
import { AgentRuntimeSettings } from '../service/settings';

export interface CommandDeps {
  service: ServiceConnection;
  credentials: CredentialStore;
  log: vscode.LogOutputChannel;
  settings(): AgentRuntimeSettings;
  localFiles: LocalFileIndex;
  files: { refresh(): void };
  /** `followNewTask`: reveal a task just created here and follow its run (status bar, end notice). */
  tasks: { refresh(): void; followNewTask(task: TaskRecord): Promise<void> };
  /** Wraps a handler so errors are reported at the edge (see commandErrors.ts). */
  guard<A extends unknown[]>(context: string, handler: (...args: A) => unknown): (...args: A) => Promise<unknown>;
  /** True when a key is available; otherwise offers to sign in first. */
  ensureSignedIn(): Promise<boolean>;
}
