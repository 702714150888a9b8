// The part of the built-in Git extension's API (`vscode.git`, getAPI(1)) this extension uses,
// copied from its git.d.ts (MIT, microsoft/vscode extensions/git/src/api/git.d.ts) and cut down:
// only what is read here, so a change elsewhere in that API cannot break the build.
import type { Event, Uri } from 'vscode';

export interface GitBranchUpstream {
  readonly remote: string;
  readonly name: string;
  readonly commit?: string;
}

export interface GitBranch {
  readonly name?: string;
  readonly commit?: string;
  readonly upstream?: GitBranchUpstream;
  readonly ahead?: number;
  readonly behind?: number;
}

export interface GitRemote {
  readonly name: string;
  readonly fetchUrl?: string;
  readonly pushUrl?: string;
  readonly isReadOnly: boolean;
}

export interface GitRepositoryState {
  readonly HEAD: GitBranch | undefined;
  readonly remotes: GitRemote[];
}

export interface GitRepository {
  readonly rootUri: Uri;
  readonly state: GitRepositoryState;
  push(remoteName?: string, branchName?: string, setUpstream?: boolean): Promise<void>;
  status(): Promise<void>;
}

export type GitApiState = 'uninitialized' | 'initialized';

export interface GitAPI {
  readonly state: GitApiState;
  readonly onDidChangeState: Event<GitApiState>;
  readonly git: { readonly path: string };
  readonly repositories: GitRepository[];
  getRepository(uri: Uri): GitRepository | null;
}

export interface GitExtension {
  readonly enabled: boolean;
  readonly onDidChangeEnablement: Event<boolean>;
  getAPI(version: 1): GitAPI;
}
