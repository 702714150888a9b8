// Projects in the reference runtime: the repository key of a clone URL, and a local git
// repository standing in for the service's clone (the admin checkout mapping, README "Projects").
import { execFile } from 'node:child_process';

/**
 * The key two clone URLs share when they name the same repository (docs/PROTOCOL.md, Projects):
 * host + path, lower case, no scheme, no user info, no port-less difference, no trailing `.git`.
 * `git@host:owner/repo.git` and `https://host/owner/repo` give the same key. Undefined: not a URL.
 */
export function repositoryKey(url: string): string | undefined {
  const text = url.trim();
  let host: string;
  let rest: string;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(text);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      return undefined;
    }
    host = parsed.hostname;
    rest = decodeURIComponent(parsed.pathname);
  } else if (scp) {
    host = scp[1];
    rest = scp[2];
  } else {
    return undefined;
  }
  const path = rest
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '');
  if (host === '' || path === '') {
    return undefined;
  }
  return `${host.toLowerCase()}/${path.toLowerCase()}`;
}

/** The URL with any user info removed (a token in a clone URL is never stored or echoed). */
export function withoutUserInfo(url: string): string {
  return url.trim().replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1');
}

export const COMMIT_PATTERN = /^[0-9a-f]{40}$/;

const MAX_GIT_OUTPUT = 64 * 1024 * 1024;

function git(dir: string, args: string[]): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', dir, ...args],
      { encoding: 'buffer', maxBuffer: MAX_GIT_OUTPUT, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
      (err, stdout) => {
        resolve(err ? undefined : stdout);
      },
    );
  });
}

/** A local repository the runtime reads a project's commits from. */
export class LocalRepository {
  constructor(readonly dir: string) {}

  async hasCommit(commit: string): Promise<boolean> {
    if (!COMMIT_PATTERN.test(commit)) {
      return false;
    }
    return (await git(this.dir, ['cat-file', '-e', `${commit}^{commit}`])) !== undefined;
  }

  /** The commit a branch names, if it exists. */
  async resolve(ref: string): Promise<string | undefined> {
    if (ref.startsWith('-')) {
      return undefined;
    }
    const out = await git(this.dir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    const commit = out?.toString('utf8').trim();
    return commit && COMMIT_PATTERN.test(commit) ? commit : undefined;
  }

  async files(commit: string): Promise<string[]> {
    const out = await git(this.dir, ['ls-tree', '-r', '-z', '--name-only', commit]);
    return out
      ? out
          .toString('utf8')
          .split('\0')
          .filter((name) => name !== '')
      : [];
  }

  /** The bytes of `path` at `commit`, or undefined when it has no such file. */
  async show(commit: string, path: string): Promise<Buffer | undefined> {
    return git(this.dir, ['show', `${commit}:${path}`]);
  }
}
