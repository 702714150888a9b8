// Certificates from a private CA made for one test run (openssl), and a TLS front that puts the
// plain-HTTP reference runtime behind HTTPS: what a company's internal service looks like.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type SecureVersion, type Server } from 'node:tls';

export interface IssuedCertificate {
  cert: string;
  key: string;
}

export interface PrivateCa {
  /** The CA certificate, PEM. */
  cert: string;
  /** A file holding it (for NODE_EXTRA_CA_CERTS). */
  certFile: string;
  /** A server certificate for these names (DNS names and IP addresses). */
  issue(commonName: string, altNames: string[]): Promise<IssuedCertificate>;
  remove(): Promise<void>;
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

export async function makePrivateCa(name: string): Promise<PrivateCa> {
  const dir = await mkdtemp(join(tmpdir(), 'private-ca-'));
  const caKey = join(dir, 'ca-key.pem');
  const caCert = join(dir, 'ca.pem');
  openssl([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout',
    caKey,
    '-out',
    caCert,
  ]);
  let serial = 0;
  return {
    cert: await readFile(caCert, 'utf8'),
    certFile: caCert,
    async issue(commonName, altNames) {
      serial++;
      const key = join(dir, `leaf${serial}-key.pem`);
      const csr = join(dir, `leaf${serial}.csr`);
      const cert = join(dir, `leaf${serial}.pem`);
      const ext = join(dir, `leaf${serial}.ext`);
      const sans = altNames.map((n) => (/^[\d.]+$|:/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
      await writeFile(ext, `subjectAltName=${sans}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
      openssl([
        'req',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-subj',
        `/CN=${commonName}`,
        '-keyout',
        key,
        '-out',
        csr,
      ]);
      openssl([
        'x509',
        '-req',
        '-in',
        csr,
        '-CA',
        caCert,
        '-CAkey',
        caKey,
        '-set_serial',
        String(1000 + serial),
        '-days',
        '1',
        '-extfile',
        ext,
        '-out',
        cert,
      ]);
      return { cert: await readFile(cert, 'utf8'), key: await readFile(key, 'utf8') };
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export interface TlsFront {
  port: number;
  /** TLS handshakes completed (requests that got past certificate checks). */
  handshakes(): number;
  close(): Promise<void>;
}

/** Terminates TLS on a free loopback port and relays the plain bytes to 127.0.0.1:targetPort. */
export async function startTlsFront(
  targetPort: number,
  certificate: IssuedCertificate,
  versions: { min: SecureVersion; max: SecureVersion } = { min: 'TLSv1.3', max: 'TLSv1.3' },
): Promise<TlsFront> {
  let handshakes = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer(
    { ...certificate, minVersion: versions.min, maxVersion: versions.max },
    (secure) => {
      handshakes++;
      const plain = connect(targetPort, '127.0.0.1');
      sockets.add(secure).add(plain);
      secure.pipe(plain).pipe(secure);
      const end = (): void => {
        secure.destroy();
        plain.destroy();
        sockets.delete(secure);
        sockets.delete(plain);
      };
      secure.on('error', end).on('close', end);
      plain.on('error', end).on('close', end);
    },
  );
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    handshakes: () => handshakes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

export interface RecordedConnect {
  /** host:port asked for. */
  target: string;
  headers: Record<string, string | string[] | undefined>;
  /** Every byte the client sent into the tunnel. */
  tunnelBytes: Buffer;
}

export interface RecordingTunnelProxy {
  url: string;
  connects: RecordedConnect[];
  close(): Promise<void>;
}

/** A minimal CONNECT proxy that records what it is shown; every tunnel leads to 127.0.0.1:targetPort. */
export async function startRecordingTunnelProxy(targetPort: number): Promise<RecordingTunnelProxy> {
  const { createServer: createHttpServer } = await import('node:http');
  const connects: RecordedConnect[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((_req, res) => {
    res.writeHead(405).end();
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const record: RecordedConnect = {
      target: req.url ?? '',
      headers: { ...req.headers },
      tunnelBytes: Buffer.from(head),
    };
    connects.push(record);
    const upstream = connect(targetPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) {
        upstream.write(head);
      }
      client.on('data', (chunk: Buffer) => {
        record.tunnelBytes = Buffer.concat([record.tunnelBytes, chunk]);
      });
      client.pipe(upstream).pipe(client);
    });
    sockets.add(client).add(upstream);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connects,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
