// The network settings the Node transport honours, as plain data: the VS Code layer copies them
// from its `http.*` settings (and the environment), the API layer never reads VS Code itself.

/** VS Code's `http.proxySupport`: 'off' turns proxying off; the other three behave alike here. */
export type ProxySupport = 'off' | 'on' | 'fallback' | 'override';

export interface NetworkSettings {
  /** `http.proxy`: http(s)://[user:password@]host:port; empty or absent falls back to the environment. */
  proxy?: string;
  /** `http.proxyAuthorization`: sent verbatim as Proxy-Authorization; wins over credentials in the proxy URL. */
  proxyAuthorization?: string;
  /** `http.noProxy`: when non-empty it replaces NO_PROXY (as in VS Code). */
  noProxy?: string[];
  /** `http.proxyStrictSSL` (default true): false stops checking an https:// proxy's own certificate. */
  proxyStrictSSL?: boolean;
  /** `http.proxySupport` (default 'override'). */
  proxySupport?: ProxySupport;
  /** `http.systemCertificates` (default true): also trust the operating system's CA store. */
  systemCertificates?: boolean;
  /** Where HTTPS_PROXY, NO_PROXY, NODE_EXTRA_CA_CERTS are read; default process.env. */
  env?: Record<string, string | undefined>;
}
