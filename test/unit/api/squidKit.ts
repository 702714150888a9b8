// A real forward proxy for the network tests: Debian's squid, started on free loopback ports
// with a config written into a fresh temp folder, stopped (its whole process group) by close().
// Squid missing is an error, not a skip: CI installs it (.ci/run), so a silent skip would hide a
// broken install step.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SQUID_CANDIDATES = ['/usr/sbin/squid', '/usr/bin/squid'];
const NCSA_AUTH_CANDIDATES = [
  '/usr/lib/squid/basic_ncsa_auth',
  '/usr/lib64/squid/basic_ncsa_auth',
  '/usr/libexec/squid/basic_ncsa_auth',
];

export interface SquidOptions {
  /** Host names squid resolves itself (its hosts_file): name -> address. The client knows none. */
  hosts?: Record<string, string>;
  /** Basic users (name -> password) for the `auth` port; without users there is no such port. */
  users?: Record<string, string>;
  /** Also listen for TLS (an https:// proxy) with this certificate and key (PEM text). */
  tls?: { cert: string; key: string };
}

export interface AccessLogLine {
  method: string;
  /** For CONNECT: host:port. */
  url: string;
  /** e.g. TCP_TUNNEL/200, TCP_DENIED/407. */
  result: string;
  /** The proxy user name, '-' when none. */
  user: string;
  /** The request headers as squid logs them (URL-encoded, CRLF-separated). */
  headers: string;
  raw: string;
}

export interface SquidHandle {
  /** http://127.0.0.1:PORT, no authentication. */
  url: string;
  /** http://127.0.0.1:PORT that answers 407 without valid Basic credentials (when `users` given). */
  authUrl?: string;
  /** https://127.0.0.1:PORT, no authentication (when `tls` given). */
  tlsUrl?: string;
  dir: string;
  /**
   * The access log once every request squid answered before this call is in it. Squid writes a
   * line after its reply, so a client can hold a reply (a 407) whose line is not there yet: a
   * count read at once can come up short. Use this for counts and for "no line has X".
   */
  settledLog(): Promise<AccessLogLine[]>;
  /** Resolves once `match` holds for some line (squid logs a tunnel when it closes). */
  waitForLine(match: (line: AccessLogLine) => boolean, what: string): Promise<AccessLogLine>;
  close(): Promise<void>;
}

function findExecutable(candidates: string[], what: string): string {
  const found = candidates.find((path) => existsSync(path));
  if (!found) {
    throw new Error(
      `${what} is not installed (looked in ${candidates.join(', ')}); install the Debian package "squid" (.ci/run does)`,
    );
  }
  return found;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Sends `GET <path>` (not a proxy request) to squid and waits for its answer. */
function askSquidItself(port: number, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`),
    );
    socket.resume();
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.once('close', () => resolve());
    socket.once('error', (err) => reject(new Error(`squid did not answer ${path}: ${err.message}`)));
  });
}

/** An htpasswd line squid's basic_ncsa_auth accepts (Apache MD5, `$apr1$`). */
function htpasswdLine(user: string, password: string): string {
  const hash = execFileSync('openssl', ['passwd', '-apr1', password], { encoding: 'utf8' }).trim();
  return `${user}:${hash}`;
}

function parseLine(raw: string): AccessLogLine | undefined {
  // logformat agentRuntimeTest: time client result/status method url user [headers]
  const match = /^\S+ \S+ (\S+) (\S+) (\S+) (\S+) \[(.*)\]$/.exec(raw);
  if (!match) {
    return undefined;
  }
  let headers = match[5];
  try {
    headers = decodeURIComponent(headers);
  } catch {
    // squid's escaping is not always URI escaping; keep the raw text
  }
  return { result: match[1], method: match[2], url: match[3], user: match[4], headers, raw };
}

function proxyIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) {
    return undefined;
  }
  try {
    return {
      uid: Number(execFileSync('id', ['-u', 'proxy'], { encoding: 'utf8' }).trim()),
      gid: Number(execFileSync('id', ['-g', 'proxy'], { encoding: 'utf8' }).trim()),
    };
  } catch {
    return undefined;
  }
}

export async function startSquid(options: SquidOptions = {}): Promise<SquidHandle> {
  const squid = findExecutable(SQUID_CANDIDATES, 'squid');
  const dir = await mkdtemp(join(tmpdir(), 'squid-test-'));
  // Run as root, squid drops to `proxy`, which must be able to write its logs and pid file here.
  const ids = proxyIds();
  await chmod(dir, 0o755);
  const files: Record<string, string> = {};
  const port = await freePort();
  const authPort = options.users ? await freePort() : undefined;
  const tlsPort = options.tls ? await freePort() : undefined;

  const hosts = Object.entries(options.hosts ?? {}).map(([name, address]) => `${address} ${name}`);
  files.hosts = `${hosts.join('\n')}\n`;
  const lines = [
    `http_port 127.0.0.1:${port} name=open`,
    'visible_hostname squid-test.invalid',
    `pid_filename ${join(dir, 'squid.pid')}`,
    // %>h: every request header squid received, so tests can see what reached the proxy.
    'logformat agentRuntimeTest %ts.%03tu %>a %Ss/%03>Hs %rm %ru %un [%>h]',
    `access_log stdio:${join(dir, 'access.log')} agentRuntimeTest`,
    `cache_log ${join(dir, 'cache.log')}`,
    'cache_store_log none',
    'logfile_rotate 0',
    'cache deny all',
    'cache_mem 0 MB',
    `coredump_dir ${dir}`,
    `hosts_file ${join(dir, 'hosts')}`,
    // Names outside hosts_file must fail here, not be sent to a resolver off this machine.
    'dns_nameservers 127.0.0.1',
    'pinger_enable off',
    'shutdown_lifetime 0 seconds',
    'acl CONNECT method CONNECT',
    // The test services listen on random high ports: tunnels to any port are allowed.
    'acl SSL_ports port 1-65535',
    'acl open_port myportname open',
    'http_access deny !localhost',
    'http_access deny CONNECT !SSL_ports',
    'http_access allow open_port',
  ];
  if (ids) {
    lines.push('cache_effective_user proxy');
  }
  if (tlsPort !== undefined && options.tls) {
    files['proxy-cert.pem'] = options.tls.cert;
    files['proxy-key.pem'] = options.tls.key;
    lines.unshift(
      `https_port 127.0.0.1:${tlsPort} name=tls tls-cert=${join(dir, 'proxy-cert.pem')} tls-key=${join(dir, 'proxy-key.pem')}`,
    );
    lines.push('acl tls_port myportname tls', 'http_access allow tls_port');
  }
  if (authPort !== undefined && options.users) {
    const ncsa = findExecutable(NCSA_AUTH_CANDIDATES, "squid's basic_ncsa_auth helper");
    files.passwd = `${Object.entries(options.users)
      .map(([user, password]) => htpasswdLine(user, password))
      .join('\n')}\n`;
    lines.unshift(`http_port 127.0.0.1:${authPort} name=auth`);
    lines.push(
      `auth_param basic program ${ncsa} ${join(dir, 'passwd')}`,
      'auth_param basic realm agent-runtime-test',
      'auth_param basic children 2',
      'acl authenticated proxy_auth REQUIRED',
      'http_access allow authenticated',
    );
  }
  lines.push('http_access deny all');
  files['squid.conf'] = `${lines.join('\n')}\n`;
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(dir, name), text, { mode: 0o644 });
  }
  if (ids) {
    await chown(dir, ids.uid, ids.gid);
    for (const name of Object.keys(files)) {
      await chown(join(dir, name), ids.uid, ids.gid);
    }
  }

  const child: ChildProcess = spawn(squid, ['-N', '-f', join(dir, 'squid.conf')], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );

  const stop = async (): Promise<void> => {
    if (!exited && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const killer = setTimeout(() => {
        try {
          if (child.pid !== undefined) {
            process.kill(-child.pid, 'SIGKILL');
          }
        } catch {
          // already gone
        }
      }, 5000);
      await exit;
      clearTimeout(killer);
    }
    await rm(dir, { recursive: true, force: true });
  };

  // Squid takes one to ten seconds to start.
  const ports = [port, authPort, tlsPort].filter((p): p is number => p !== undefined);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) {
      const log = await readFile(join(dir, 'cache.log'), 'utf8').catch(() => '');
      await stop();
      throw new Error(`squid exited during start:\n${stderr}\n${log.split('\n').slice(-20).join('\n')}`);
    }
    if ((await Promise.all(ports.map(accepts))).every(Boolean)) {
      break;
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`squid did not accept connections within 30 s:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const accessLog = async (): Promise<AccessLogLine[]> => {
    const text = await readFile(join(dir, 'access.log'), 'utf8').catch(() => '');
    return text
      .split('\n')
      .map(parseLine)
      .filter((line): line is AccessLogLine => line !== undefined);
  };
  const waitForLine = async (match: (line: AccessLogLine) => boolean, what: string): Promise<AccessLogLine> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = (await accessLog()).find(match);
      if (found) {
        return found;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `squid's access log has no line for ${what}:\n${(await accessLog()).map((l) => l.raw).join('\n')}`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  let markers = 0;
  const settledLog = async (): Promise<AccessLogLine[]> => {
    // A request squid answers itself (a path, not a URL: 400) after every earlier reply; squid
    // logs in the order it finishes, so once the marker's line is there the earlier ones are too.
    const marker = `/agent-runtime-test-settle-${++markers}`;
    await askSquidItself(port, marker);
    await waitForLine((l) => l.url === marker, 'the settle marker');
    return (await accessLog()).filter((l) => !l.url.startsWith('/agent-runtime-test-settle-'));
  };
  return {
    url: `http://127.0.0.1:${port}`,
    authUrl: authPort === undefined ? undefined : `http://127.0.0.1:${authPort}`,
    tlsUrl: tlsPort === undefined ? undefined : `https://127.0.0.1:${tlsPort}`,
    dir,
    settledLog,
    waitForLine,
    close: stop,
  };
}
