// Which service project a git remote belongs to (docs/PROTOCOL.md, Projects): two clone URLs name
// one repository when host and path match, case-insensitive, ignoring a trailing `.git`, user
// info and the scheme (`git@host:owner/repo.git` = `https://host/owner/repo`). User info (a
// token in `https://user:token@host/...`) is removed before a URL is matched, sent, logged or
// shown: withoutCredentials() is the one way a remote URL leaves this module. Plain Node.

export interface RepositoryName {
  /** Lower-case host, without port or user info. */
  host: string;
  /** Lower-case path without leading/trailing slashes or `.git`, e.g. `owner/repo`. */
  path: string;
  /** `host/path`: equal keys name the same repository. */
  key: string;
}

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
/** scp-like ssh form: `[user@]host:path` (no `://`, host without slashes). */
const SCP = /^(?:[^@/\s]+@)?(\[[^\]]+\]|[^:/\s]+):(?!\/\/)(.+)$/;

/** Host and path of a clone URL, or undefined when it is not one (a local path, junk). */
export function repositoryName(url: string): RepositoryName | undefined {
  if (typeof url !== 'string') {
    return undefined;
  }
  const text = url.trim();
  if (text === '' || text.length > 4096 || /[\0\r\n]/.test(text)) {
    return undefined;
  }
  let host: string;
  let rest: string;
  if (SCHEME.test(text)) {
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      return undefined;
    }
    if (parsed.protocol === 'file:') {
      return undefined;
    }
    host = parsed.hostname;
    try {
      rest = decodeURIComponent(parsed.pathname);
    } catch {
      rest = parsed.pathname;
    }
  } else {
    const scp = SCP.exec(text);
    // A Windows path (C:\x, C:/x) is not a host.
    if (!scp || /^[a-z]$/i.test(scp[1])) {
      return undefined;
    }
    host = scp[1];
    rest = scp[2];
  }
  const path = rest
    .replace(/\\/g, '/')
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '')
    .replace(/\/{2,}/g, '/')
    .toLowerCase();
  host = host.toLowerCase();
  if (host === '' || path === '') {
    return undefined;
  }
  return { host, path, key: `${host}/${path}` };
}

/** True when both are clone URLs of the same repository. */
export function sameRepository(a: string, b: string): boolean {
  const left = repositoryName(a);
  const right = repositoryName(b);
  return left !== undefined && right !== undefined && left.key === right.key;
}

/**
 * The URL without user info: `https://user:token@host/x` -> `https://host/x`. The scp form's
 * `git@` is the ssh account, not a secret, and is kept (`git@host:x` is how that remote clones);
 * an scp user with a `:`-less password cannot exist. Text that is not a URL loses everything up
 * to its last `@` before the first `/` after a scheme, so nothing that may be a secret survives.
 */
export function withoutCredentials(url: string): string {
  const text = typeof url === 'string' ? url.trim() : '';
  const scheme = SCHEME.exec(text);
  if (!scheme) {
    return text;
  }
  const afterScheme = text.slice(scheme[0].length);
  const authorityEnd = afterScheme.search(/[/?#]/);
  const authority = authorityEnd < 0 ? afterScheme : afterScheme.slice(0, authorityEnd);
  const at = authority.lastIndexOf('@');
  if (at < 0) {
    return text;
  }
  return `${scheme[0]}${afterScheme.slice(at + 1)}`;
}

/** The first of `projects` whose repository URL names the same repository as `remoteUrl`. */
export function matchProject<P extends { repository?: { url?: unknown } }>(
  remoteUrl: string,
  projects: Iterable<P>,
): P | undefined {
  const wanted = repositoryName(remoteUrl);
  if (!wanted) {
    return undefined;
  }
  for (const project of projects) {
    const url = project.repository?.url;
    if (typeof url === 'string' && repositoryName(url)?.key === wanted.key) {
      return project;
    }
  }
  return undefined;
}

/** A project name from a remote: the last path segment (`owner/repo` -> `repo`). */
export function suggestedProjectName(remoteUrl: string): string | undefined {
  const name = repositoryName(remoteUrl);
  if (!name) {
    return undefined;
  }
  const original = withoutCredentials(remoteUrl)
    .replace(/\.git\/*$/i, '')
    .replace(/\/+$/, '');
  const last = original.split(/[/:]/).pop();
  return last && last !== '' ? last : name.path.split('/').pop();
}
