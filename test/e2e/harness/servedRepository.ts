// A workspace that is a git repository whose remote the reference runtime serves: a bare clone
// beside the workspace stands in for the service's copy. The remote is known by its URL (what a
// project records); pushes reach the bare clone. Used by `npm start` and the UI scenarios.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitIn } from '../../unit/projects/gitRepoKit';

/** The service's clone of the workspace's repository: a bare one beside the workspace. */
export function serviceCloneOf(workspace: string): string {
  return path.join(path.dirname(workspace), 'service.git');
}

/**
 * Makes `workspace` (its files already in it) a repository on `main` with one commit, pushed to
 * its bare service clone, its remote `origin` fetching from `remoteUrl`. A workspace that is a
 * repository already is left as it is (npm start keeps its folder between sessions). Returns
 * the service clone's path.
 */
export function makeServedRepository(workspace: string, remoteUrl: string): string {
  const service = serviceCloneOf(workspace);
  if (fs.existsSync(path.join(workspace, '.git')) && fs.existsSync(service)) {
    return service;
  }
  fs.rmSync(path.join(workspace, '.git'), { recursive: true, force: true });
  fs.rmSync(service, { recursive: true, force: true });
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', service]);
  const git = gitIn(workspace);
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'first');
  git('remote', 'add', 'origin', service);
  git('push', '-q', '-u', 'origin', 'main');
  // The service knows the repository by its URL; pushes still reach the bare clone.
  git('remote', 'set-url', 'origin', remoteUrl);
  git('remote', 'set-url', '--push', 'origin', service);
  return service;
}
