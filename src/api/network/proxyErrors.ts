// The sentence for a request that failed on its way through a proxy: the proxy could not be
// reached, refused the credentials (407), refused the tunnel, or could not reach the service.
// Failures of the service itself (its certificate, its answers) are left to errors.ts.
import { ApiError } from '../errors';
import { isProxyHopError } from './dispatchers';
import { type ProxyEndpoint, type ProxySource, redactProxyUrl } from './proxyRoute';

const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_)/;

function where(source: ProxySource): string {
  return source === 'http.proxy' ? 'the http.proxy setting' : `the ${source} environment variable`;
}

/** The proxy as it may appear in a message or a log: address, no password, and its source. */
export function describeProxy(proxy: ProxyEndpoint): string {
  return `${redactProxyUrl(proxy.url)} (from ${proxy.source})`;
}

/** Removes the proxy's password and authorization value from a text. */
export function scrubProxySecrets(text: string, proxy: ProxyEndpoint): string {
  const secrets = [proxy.url.password, safeDecode(proxy.url.password), proxy.authorization].filter(
    (s): s is string => typeof s === 'string' && s.length >= 3,
  );
  let out = text;
  for (const secret of secrets) {
    out = out.split(secret).join('***');
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The deepest code in an error and its causes (undici wraps the proxy's TLS errors). */
function innermostCode(err: unknown): string | undefined {
  let code: string | undefined;
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    code = codeOf(e) ?? code;
  }
  return code;
}

function cleanCause(err: unknown, proxy: ProxyEndpoint): Error | undefined {
  if (!(err instanceof Error)) {
    return undefined;
  }
  const copy = new Error(scrubProxySecrets(err.message, proxy));
  copy.name = err.name;
  const code = innermostCode(err);
  if (code) {
    (copy as Error & { code?: string }).code = code;
  }
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}

const REASON: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'its host name could not be resolved',
  EAI_AGAIN: 'its host name could not be resolved',
  ETIMEDOUT: 'timed out',
  UND_ERR_CONNECT_TIMEOUT: 'timed out',
  ECONNRESET: 'the connection was closed',
  EPIPE: 'the connection was closed',
  UND_ERR_SOCKET: 'the connection was closed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

function tunnelStatus(err: unknown): number | undefined {
  const message = err instanceof Error ? err.message : '';
  const match = /^Proxy response \((\d{3})\)/.exec(message);
  return match ? Number(match[1]) : undefined;
}

/**
 * The ApiError for `err` when the proxy caused it, else undefined (the caller reports `err` as a
 * failure of the service). `target` is the service's origin.
 */
export function proxyFailure(err: unknown, proxy: ProxyEndpoint, target: string): ApiError | undefined {
  const p = describeProxy(proxy);
  const cause = cleanCause(err, proxy);
  const status = tunnelStatus(err);
  const host = new URL(target).host;
  if (status !== undefined) {
    if (status === 407) {
      const hasCredentials = proxy.authorization !== undefined || proxy.url.username !== '';
      const message = hasCredentials
        ? `The proxy ${p} refused the credentials (407 Proxy Authentication Required); check the user name and password in ${proxy.authorization ? 'http.proxyAuthorization' : where(proxy.source)}`
        : `The proxy ${p} asks for credentials (407 Proxy Authentication Required); put them in ${where(proxy.source)} as http://user:password@host:port, or set http.proxyAuthorization`;
      return new ApiError({ kind: 'proxy', status, code: 'proxy_authentication', message, cause });
    }
    if (status === 502 || status === 503 || status === 504) {
      return new ApiError({
        kind: 'connection',
        code: 'proxy_tunnel_failed',
        message: `The proxy ${p} could not reach ${host} (it answered ${status}); check the service address (the proxy looks the host name up itself)`,
        cause,
      });
    }
    const hint =
      status === 403
        ? '; the proxy does not allow this address: ask its administrator, or add the host to http.noProxy if it is reachable without the proxy'
        : '';
    // The code stays out of `status`, where the client would retry a 5xx as the service's own.
    return new ApiError({
      kind: 'proxy',
      code: 'proxy_refused',
      message: `The proxy ${p} refused to open a connection to ${host} (it answered ${status})${hint}`,
      cause,
    });
  }
  if (!isProxyHopError(err)) {
    return undefined;
  }
  const code = innermostCode(err);
  if (code && TLS_CODE.test(code)) {
    return new ApiError({
      kind: 'proxy',
      code,
      message: `The certificate of the proxy ${p} is not trusted (${code}); add its CA to NODE_EXTRA_CA_CERTS or to the system store with http.systemCertificates on, or set http.proxyStrictSSL to false to skip checking the proxy's own certificate`,
      cause,
    });
  }
  const reason = (code && REASON[code]) ?? scrubProxySecrets(err instanceof Error ? err.message : String(err), proxy);
  return new ApiError({
    kind: 'proxy',
    code,
    message: `Could not connect to the proxy ${p} (${reason}); check ${where(proxy.source)}`,
    cause,
  });
}
