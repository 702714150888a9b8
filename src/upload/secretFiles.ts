// Files whose names say they hold credentials: environment files, private keys, package
// registry and netrc tokens, and anything in a folder of keys. A folder upload would otherwise
// send them along with the documents around them; the upload flow leaves them out unless the
// person ticks them. Judged by the name the file is uploaded under (its path below the selected
// folder's parent), case-insensitively. Pure, so the rule is unit-tested.

/** Exact file names (lower-case). */
const SECRET_NAMES = new Set([
  '.npmrc',
  '.pypirc',
  '.netrc',
  '_netrc',
  '.git-credentials',
  '.pgpass',
  '.htpasswd',
  '.dockercfg',
  '.s3cfg',
  '.vault-token',
  'credentials',
  'credentials.json',
  'secrets.json',
  'secrets.yaml',
  'secrets.yml',
]);

/** `.env`, `.env.local`, `.envrc`, `production.env`. */
const ENV_FILE = /^\.env|\.env$/i;
/** Private keys and key stores. */
const KEY_FILE = /\.(pem|key|p12|pfx|jks|keystore|ppk|kdbx|gpg)$/i;
/** SSH key pairs, private and public (`id_rsa`, `id_ed25519.pub`). */
const SSH_KEY = /^id_(rsa|dsa|ecdsa|ed25519)/i;
/** Folders whose every file is a credential or near one. */
const SECRET_FOLDERS = new Set(['.ssh', '.gnupg', '.aws', '.docker', '.kube']);

/** True when the file's name (or a folder in it) says it likely holds a secret. */
export function looksSecret(name: string): boolean {
  const segments = name.split(/[\\/]/).filter((s) => s !== '');
  const base = segments[segments.length - 1] ?? '';
  if (segments.slice(0, -1).some((s) => SECRET_FOLDERS.has(s.toLowerCase()))) {
    return true;
  }
  return SECRET_NAMES.has(base.toLowerCase()) || ENV_FILE.test(base) || KEY_FILE.test(base) || SSH_KEY.test(base);
}

/** The files split into those that look like secrets and the others, each in the order given. */
export function splitSecrets<T extends { name: string }>(files: readonly T[]): { ordinary: T[]; secret: T[] } {
  const ordinary: T[] = [];
  const secret: T[] = [];
  for (const file of files) {
    (looksSecret(file.name) ? secret : ordinary).push(file);
  }
  return { ordinary, secret };
}

/**
 * At most `shown` of the names, then how many more there are: what a bounded dialog lists.
 * Every name is cut to `maxChars` so the list stays readable whatever the names.
 */
export function listedNames(
  names: readonly string[],
  shown: number,
  maxChars = 160,
): { listed: string[]; more: number } {
  const listed = names.slice(0, shown).map((n) =>
    Array.from(n).length > maxChars
      ? `${Array.from(n)
          .slice(0, maxChars - 1)
          .join('')}…`
      : n,
  );
  return { listed, more: Math.max(0, names.length - shown) };
}
