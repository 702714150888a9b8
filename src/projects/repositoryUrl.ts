// Which service project a git remote belongs to (docs/PROTOCOL.md, Projects): two clone URLs name
// one repository when host and path match, case-insensitive, ignoring a trailing `.git`, user
// info and the scheme (`git@host:owner/repo.git` = `https://host/owner/repo`). User info (a
// token in `https://user:token@host/...`, `user:token@host:...`) and secret query parameters
// (`?access_token=`) are removed before a URL is matched, sent, logged or
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
 * The URL without credentials: user info goes (`https://user:token@host/x` -> `https://host/x`),
 * and so does a query parameter named like a secret (`?access_token=...`, `private_token`,
 * `password`...). The scp form's `git@` is the ssh account, not a secret, and is kept
 * (`git@host:x` is how that remote clones); an scp user with a password (`user:TOKEN@host:x`)
 * loses the whole user part. Text that is not a URL loses everything up to its last `@` before
 * the first `/` after a scheme, so nothing that may be a secret survives.
 */
export function withoutCredentials(url: string): string {
  const text = typeof url === 'string' ? url.trim() : '';
  const scheme = SCHEME.exec(text);
  if (!scheme) {
    return withoutScpPassword(text);
  }
  const afterScheme = text.slice(scheme[0].length);
  const authorityEnd = afterScheme.search(/[/?#]/);
  const authority = authorityEnd < 0 ? afterScheme : afterScheme.slice(0, authorityEnd);
  const at = authority.lastIndexOf('@');
  return withoutSecretParameters(`${scheme[0]}${at < 0 ? afterScheme : afterScheme.slice(at + 1)}`);
}

/** Query parameter names that carry a secret (matched without case, anywhere in the name). */
const SECRET_PARAMETER = /token|secret|pass|pwd|auth|key|sig|credential|session/i;

function withoutSecretParameters(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) {
    return url;
  }
  const hash = url.indexOf('#', query);
  const end = hash < 0 ? url.length : hash;
  const kept = url
    .slice(query + 1, end)
    .split('&')
    .filter((pair) => {
      const name = pair.split('=')[0];
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // kept as written
      }
      return pair !== '' && !SECRET_PARAMETER.test(decoded);
    });
  return `${url.slice(0, query)}${kept.length > 0 ? `?${kept.join('&')}` : ''}${url.slice(end)}`;
}

/** The scp form `user:password@host:path` without its user part; `git@host:path` stays as it is. */
function withoutScpPassword(text: string): string {
  const slash = text.indexOf('/');
  const head = slash < 0 ? text : text.slice(0, slash);
  const at = head.lastIndexOf('@');
  if (at < 0 || !head.slice(0, at).includes(':')) {
    return text;
  }
  return text.slice(at + 1);
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
