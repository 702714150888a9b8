// Which way a request goes: straight to the service or through which proxy. One pure function
// (no I/O, no process.env unless the settings leave `env` out), so every rule has a unit test.
//
// The order follows VS Code's extension-host resolver (@vscode/proxy-agent, createProxyResolver):
//   1. loopback targets are always direct (and plain http, which is allowed to loopback only,
//      therefore never meets a proxy: the API key is never sent to one in clear text);
//   2. http.proxySupport "off" turns proxying off ("on", "fallback", "override" differ in VS Code
//      only in how they treat an agent the extension brings itself; we bring none);
//   3. http.noProxy when it has entries, otherwise no_proxy / NO_PROXY, can exempt the host;
//   4. http.proxy; otherwise https_proxy, HTTPS_PROXY, http_proxy, HTTP_PROXY (the first set);
//   5. otherwise direct. VS Code would next ask the OS (system proxy, PAC script) through
//      Electron; an extension cannot reach that resolver except through VS Code's patched http and
//      https modules, which undici does not use. So a system or PAC proxy is not resolved here:
//      users behind one set http.proxy or HTTPS_PROXY.
import { BlockList, isIP } from 'node:net';
import { isLoopbackHost } from '../baseUrl';
import type { NetworkSettings } from './settings';

export type ProxySource = 'http.proxy' | 'https_proxy' | 'HTTPS_PROXY' | 'http_proxy' | 'HTTP_PROXY';

export interface ProxyEndpoint {
  /** As configured, credentials included: log only redactProxyUrl(url). */
  url: URL;
  /** Where the address came from, named in messages so the user knows what to fix. */
  source: ProxySource;
  /** http.proxyAuthorization, sent as Proxy-Authorization instead of the URL's credentials. */
  authorization?: string;
}

export type DirectReason = 'loopback' | 'proxySupport off' | 'http.noProxy' | 'NO_PROXY' | 'no proxy configured';

export type ProxyRoute =
  | { kind: 'direct'; reason: DirectReason }
  | { kind: 'proxy'; proxy: ProxyEndpoint }
  /** A configured proxy we cannot use: every request fails with `message` rather than silently going direct. */
  | { kind: 'invalid'; source: ProxySource; message: string };

const ENV_PROXY_NAMES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;

function defaultPort(protocol: string): number {
  return protocol === 'http:' ? 80 : 443;
}

/** Lower case, without IPv6 brackets or a trailing dot: the form noProxy entries are compared in. */
function bareHost(host: string): string {
  return host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

function nonEmpty(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text ? text : undefined;
}

/** NO_PROXY as a list: entries separated by commas or white space (curl, undici). */
export function splitNoProxy(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter((entry) => entry !== '');
}

interface NoProxyEntry {
  host: string;
  port?: number;
}

function parseEntry(raw: string): NoProxyEntry | undefined {
  const entry = raw.trim().toLowerCase();
  if (entry === '') {
    return undefined;
  }
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    return { host: bracketed[1], port: bracketed[2] === undefined ? undefined : Number(bracketed[2]) };
  }
  if (isIP(entry) === 6 || entry.includes('/')) {
    return { host: entry };
  }
  const withPort = /^(.+):(\d+)$/.exec(entry);
  const host = withPort ? withPort[1] : entry;
  return { host: host.replace(/^\*?\./, '').replace(/\.$/, ''), port: withPort ? Number(withPort[2]) : undefined };
}

function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/');
  const family = isIP(base);
  const prefix = Number(bits);
  if (family === 0 || family !== isIP(ip) || !Number.isInteger(prefix)) {
    return false;
  }
  const list = new BlockList();
  try {
    list.addSubnet(base, prefix, family === 4 ? 'ipv4' : 'ipv6');
  } catch {
    return false;
  }
  return list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * True when a noProxy entry exempts host:port. Entries: `*` (everything), a host name (itself and
 * its subdomains), `.domain` or `*.domain` (the same), an IP address, a CIDR range (10.0.0.0/8),
 * each optionally with `:port` (`[v6]:port` for IPv6). IP addresses match only exactly or by range,
 * never as a name suffix.
 */
export function matchesNoProxy(host: string, port: number, entries: readonly string[]): boolean {
  const target = bareHost(host);
  const targetIsIp = isIP(target) !== 0;
  for (const raw of entries) {
    if (raw.trim() === '*') {
      return true;
    }
    const entry = parseEntry(raw);
    if (!entry || entry.host === '') {
      continue;
    }
    if (entry.port !== undefined && entry.port !== port) {
      continue;
    }
    if (entry.host.includes('/')) {
      if (targetIsIp && inCidr(target, entry.host)) {
        return true;
      }
      continue;
    }
    if (target === entry.host) {
      return true;
    }
    if (!targetIsIp && isIP(entry.host) === 0 && target.endsWith(`.${entry.host}`)) {
      return true;
    }
  }
  return false;
}

function proxyCandidate(
  settings: NetworkSettings,
  env: Record<string, string | undefined>,
): { text: string; source: ProxySource } | undefined {
  const fromSetting = nonEmpty(settings.proxy);
  if (fromSetting) {
    return { text: fromSetting, source: 'http.proxy' };
  }
  for (const name of ENV_PROXY_NAMES) {
    const value = nonEmpty(env[name]);
    if (value) {
      return { text: value, source: name };
    }
  }
  return undefined;
}

/** The proxy address as a URL; a bare host:port means http:// (curl's reading of HTTPS_PROXY). */
function parseProxy(text: string, source: ProxySource, authorization: string | undefined): ProxyRoute {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return {
      kind: 'invalid',
      source,
      message: `The proxy address in ${source} is not a valid URL; use http://host:port.`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      kind: 'invalid',
      source,
      message: `The proxy in ${source} uses ${url.protocol}//, which is not supported; use an http:// or https:// proxy.`,
    };
  }
  if (url.hostname === '') {
    return { kind: 'invalid', source, message: `The proxy address in ${source} has no host; use http://host:port.` };
  }
  return { kind: 'proxy', proxy: { url, source, authorization } };
}

/** Where a request to `target` goes under these settings. */
export function resolveProxyRoute(target: string | URL, settings: NetworkSettings): ProxyRoute {
  const url = typeof target === 'string' ? new URL(target) : target;
  if (isLoopbackHost(url.hostname) || url.protocol === 'http:') {
    return { kind: 'direct', reason: 'loopback' };
  }
  if (settings.proxySupport === 'off') {
    return { kind: 'direct', reason: 'proxySupport off' };
  }
  const env = settings.env ?? process.env;
  const port = url.port ? Number(url.port) : defaultPort(url.protocol);
  const configured = (settings.noProxy ?? []).map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (configured.length > 0) {
    if (matchesNoProxy(url.hostname, port, configured)) {
      return { kind: 'direct', reason: 'http.noProxy' };
    }
  } else if (matchesNoProxy(url.hostname, port, splitNoProxy(nonEmpty(env.no_proxy) ?? env.NO_PROXY))) {
    return { kind: 'direct', reason: 'NO_PROXY' };
  }
  const candidate = proxyCandidate(settings, env);
  if (!candidate) {
    return { kind: 'direct', reason: 'no proxy configured' };
  }
  return parseProxy(candidate.text, candidate.source, nonEmpty(settings.proxyAuthorization));
}

/** The proxy URL fit for a log line or a message: the password (if any) replaced by ***. */
export function redactProxyUrl(url: URL): string {
  if (!url.username && !url.password) {
    return url.origin;
  }
  return `${url.protocol}//${url.username ? `${url.username}:` : ''}***@${url.host}`;
}
