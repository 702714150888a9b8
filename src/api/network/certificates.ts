// The certificate authorities the transport trusts beyond Node's bundled roots, gathered the ways
// VS Code users already trust a private CA:
//   - NODE_EXTRA_CA_CERTS: Node reads it once at process start, and only into its default store,
//     which an explicit `ca` replaces; so the file it names is read here again, when the client is
//     built, and a variable set after VS Code started still counts if it reaches `env`.
//   - http.systemCertificates (default true): the operating system's store. Where Node offers
//     tls.getCACertificates('system') (Node 22.15+, VS Code 1.101+) that is used on every OS
//     (Windows certificate store, macOS keychains, Linux OpenSSL paths). On an older Node only
//     Linux is covered, by reading the distribution bundle VS Code reads (the first that exists
//     of the paths below); on older Windows and macOS hosts the OS store is not reachable from
//     plain Node, so NODE_EXTRA_CA_CERTS is the way there.
//   - the `ca` client option (tests, embedders).
import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';
import type { NetworkSettings } from './settings';

export const LINUX_CA_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt', // Debian, Ubuntu, Alpine, Arch
  '/etc/ssl/certs/ca-bundle.crt', // Fedora
  '/etc/ssl/ca-bundle.pem', // openSUSE
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem', // RHEL, CentOS, Fedora 43+
];

export interface TrustedCertificates {
  /** Node's roots plus every extra CA; undefined when there is nothing to add. */
  ca?: string[];
  /** What was added, for the log. */
  notes: string[];
  /** What was asked for but could not be read, for the log. */
  warnings: string[];
}

export interface CertificateSources {
  readText?: (path: string) => string;
  platform?: NodeJS.Platform;
  /** Node's tls.getCACertificates('system') by default; null: as on a Node without it. */
  systemStore?: (() => readonly string[]) | null;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export function pemCertificates(text: string): string[] {
  return text.match(PEM_CERTIFICATE) ?? [];
}

function nodeSystemStore(): (() => readonly string[]) | undefined {
  const get = (tls as { getCACertificates?: (type: 'system') => string[] }).getCACertificates;
  return typeof get === 'function' ? () => get('system') : undefined;
}

function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : String(err);
}

/** The CAs to trust under these settings (no settings: only `extraCa`, as before networking existed). */
export function trustedCertificates(
  settings: NetworkSettings | undefined,
  extraCa: string | Buffer | undefined,
  sources: CertificateSources = {},
): TrustedCertificates {
  const readText = sources.readText ?? ((path: string) => readFileSync(path, 'utf8'));
  const platform = sources.platform ?? process.platform;
  const extras: string[] = [];
  const notes: string[] = [];
  const warnings: string[] = [];
  if (extraCa !== undefined) {
    const text = extraCa.toString();
    const found = pemCertificates(text);
    extras.push(...(found.length > 0 ? found : [text]));
  }
  if (settings) {
    const env = settings.env ?? process.env;
    const file = env.NODE_EXTRA_CA_CERTS?.trim();
    if (file) {
      try {
        const found = pemCertificates(readText(file));
        extras.push(...found);
        notes.push(`${found.length} from NODE_EXTRA_CA_CERTS (${file})`);
        if (found.length === 0) {
          warnings.push(`NODE_EXTRA_CA_CERTS names ${file}, which holds no PEM certificate.`);
        }
      } catch (err) {
        warnings.push(
          `NODE_EXTRA_CA_CERTS names ${file}, which could not be read (${errorCode(err)}); its CAs are not trusted.`,
        );
      }
    }
    if (settings.systemCertificates !== false) {
      const store = sources.systemStore === undefined ? nodeSystemStore() : (sources.systemStore ?? undefined);
      if (store) {
        const found = store();
        extras.push(...found);
        notes.push(`${found.length} from the system store`);
      } else if (platform === 'linux') {
        for (const bundle of LINUX_CA_BUNDLES) {
          try {
            const found = pemCertificates(readText(bundle));
            extras.push(...found);
            notes.push(`${found.length} from ${bundle}`);
            break;
          } catch {
            // Not this distribution's path; try the next.
          }
        }
      }
    }
  }
  if (extras.length === 0) {
    return { notes, warnings };
  }
  return { ca: [...new Set([...tls.rootCertificates, ...extras])], notes, warnings };
}
