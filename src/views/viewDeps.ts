// What the sidebar needs from the rest of the extension, as one object the composition root
// builds: the API client (only the read calls the tree makes), settings, sign-in state, the
// log, and the index of files uploaded from this machine.
import type * as vscode from 'vscode';
import type { ArtifactRecord, FileRecord, Page, PageParams, ProjectRecord, RunRecord, TaskRecord } from '../api/types';
import type { Logger } from '../common/logger';
import type { RunStore } from '../runs/runStore';

interface CallOptions {
  signal?: AbortSignal;
}

/** The part of ApiClient the tree reads through (ApiClient satisfies it). */
export interface ViewApiClient {
  listFiles(params?: PageParams & { purpose?: string }, opts?: CallOptions): Promise<Page<FileRecord>>;
  getFile(id: string, opts?: CallOptions): Promise<FileRecord>;
  /** `project_id`: only that project's tasks (docs/PROTOCOL.md, Projects). */
  listTasks(
    params?: PageParams & { project_id?: string; updated_after?: string },
    opts?: CallOptions,
  ): Promise<Page<TaskRecord>>;
  getTask(id: string, opts?: CallOptions): Promise<TaskRecord>;
  listRuns(params: PageParams & { task_id?: string }, opts?: CallOptions): Promise<Page<RunRecord>>;
  getRun(id: string, opts?: CallOptions): Promise<RunRecord>;
  listRunArtifacts(runId: string, params?: PageParams, opts?: CallOptions): Promise<Page<ArtifactRecord>>;
  /** Names a task row's project; without it, rows go unnamed. */
  getProject?(id: string, opts?: CallOptions): Promise<ProjectRecord>;
}

/**
 * The ids of the files uploaded from this machine, remembered per base URL by the extension
 * (globalState). The Files view shows them when the server cannot list files.
 */
export interface LocalFileIndex {
  /** Newest first, for the current base URL. */
  list(): readonly string[];
  /** Forget a file the server no longer has. */
  remove(id: string): void | Thenable<void>;
}

export interface ViewDeps {
  /** The client for the current settings; may throw (e.g. an invalid base URL), shown as a row. */
  getClient(): ViewApiClient;
  /** The `agentRuntime.pageSize` setting (clamped to 1..100 here). */
  pageSize(): number;
  /** False: the views return no rows so the "Sign in" welcome view shows. */
  isSignedIn(): boolean;
  /** Called with a 401; the extension asks once to sign in again. */
  onAuthError(err: unknown): void;
  log: Logger;
  localFiles: LocalFileIndex;
  /** Settles once the sign-in state is known (the key read at activation): the trees wait for it, so a signed-in user never sees the "Sign in" welcome. */
  ready?: Promise<unknown>;
  /** Told when a view first shows rows from the server (the activation timing in the log). */
  onFirstRows?(view: 'tasks' | 'files', rows: number): void;
  /** Told of the steps before a view's first rows (the activation timing in the log), once each. */
  onActivationStep?(step: string): void;
}

/** The sidebar's deps: the views' plus the run store and what a drop of files on a view does. */
export interface SidebarDeps extends ViewDeps {
  /** The one owner of run facts (src/runs/runStore.ts): the Tasks view shows and listens to it. */
  runs: RunStore;
  /** The upload command for files dragged onto a view (the tree does not upload itself). */
  uploadUris(uris: vscode.Uri[]): void | Thenable<unknown>;
  /** Where the views' filters are kept across reloads (the extension context's workspaceState). */
  workspaceState: Pick<vscode.Memento, 'get' | 'update'>;
}
