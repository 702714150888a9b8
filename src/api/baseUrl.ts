// The base URL setting checked before any request: well formed, normalised, and never plain
// http to a host other than this machine, because a bearer key must not cross a network in clear.
import { ApiError } from './errors';

/** A dotted-quad IPv4 address, each part 0 to 255. */
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** True for 127.0.0.0/8, ::1 (and its IPv4-mapped loopback form) and `localhost`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') {
    return true;
  }
  if (IPV4.test(host)) {
    return host.startsWith('127.');
  }
  // The URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1 (7f = 127).
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

/**
 * The normalised base URL (scheme, host, port and any path prefix, no trailing slash, no /v1),
 * or an ApiError: 'validation' for a malformed address, 'insecure' for http to a remote host.
 */
export function normaliseBaseUrl(raw: string): string {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ApiError({
      kind: 'validation',
      message: `The service address "${withoutUserInfo(text)}" is not a valid URL; use e.g. https://agents.example.com.`,
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ApiError({
      kind: 'validation',
      message: `The service address must start with https:// (got ${url.protocol}//).`,
    });
  }
  if (url.username || url.password) {
    throw new ApiError({
      kind: 'validation',
      message: 'The service address must not contain a user name or password; the API key is sent separately.',
    });
  }
  if (url.search || url.hash) {
    throw new ApiError({
      kind: 'validation',
      message: 'The service address must not contain a query (?) or fragment (#).',
    });
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ApiError({
      kind: 'insecure',
      message: `Refusing plain http:// to ${url.hostname}: the API key would cross the network unencrypted; use https:// (only this machine may be reached over http).`,
    });
  }
  // Tolerate a pasted ".../v1": the client adds the version segment itself.
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/**
 * The address for messages, without a user:password part (it may hold a secret). Text that does
 * not parse as an http(s) URL loses everything up to its last "@" after the scheme, since a
 * password may itself hold "/", "@" or spaces (such an address is never used, only shown).
 */
export function withoutUserInfo(text: string): string {
  try {
    const url = new URL(text);
    if (url.protocol === 'https:' || url.protocol === 'http:') {
      if (!url.username && !url.password) {
        return text;
      }
      url.username = '';
      url.password = '';
      return url.toString();
    }
  } catch {
    // Not a URL: fall through to the textual cut.
  }
  const at = text.lastIndexOf('@');
  if (at < 0) {
    return text;
  }
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0] ?? '';
  return `${scheme}${text.slice(Math.max(at + 1, scheme.length))}`;
}
