// Files whose names say they hold credentials: environment files, private keys, package
// registry and netrc tokens, command-line tools' token stores (`~/.config/gh/hosts.yml`), and
// anything in a folder of keys. A folder upload would otherwise
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

/**
 * Token stores of command-line tools, known by their place (lower-case path endings): the GitHub
 * CLI's `hosts.yml`, Docker's and Kubernetes' configs, cargo, Terraform, gcloud, Azure, RubyGems.
 */
const TOKEN_STORES = [
  '.config/gh/hosts.yml',
  '.config/gh/hosts.yaml',
  'gh/hosts.yml',
  '.config/hub',
  '.docker/config.json',
  '.kube/config',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.terraformrc',
  '.terraform.d/credentials.tfrc.json',
  'gcloud/credentials.db',
  'gcloud/access_tokens.db',
  'gcloud/application_default_credentials.json',
  '.azure/accesstokens.json',
  '.azure/msal_token_cache.json',
  '.gem/credentials',
  '.config/git/credentials',
];

/**
 * True when a path (a whole one on disk, or a name) ends in a tool's token store. Used on the
 * whole path too: a file selected on its own is uploaded under its bare name (`hosts.yml`).
 */
export function isTokenStore(path: string): boolean {
  const normal = `/${path.replace(/\\/g, '/').toLowerCase()}`;
  return TOKEN_STORES.some((end) => normal.endsWith(`/${end}`));
}

/** True when the file's name (or a folder in it) says it likely holds a secret. */
export function looksSecret(name: string): boolean {
  if (isTokenStore(name)) {
    return true;
  }
  const segments = name.split(/[\\/]/).filter((s) => s !== '');
  const base = segments[segments.length - 1] ?? '';
  if (segments.slice(0, -1).some((s) => SECRET_FOLDERS.has(s.toLowerCase()))) {
    return true;
  }
  return SECRET_NAMES.has(base.toLowerCase()) || ENV_FILE.test(base) || KEY_FILE.test(base) || SSH_KEY.test(base);
}

/** A file sent under `name` that lies at `path` (on disk, or a URI's path): does it look like a secret? */
export function looksSecretFile(name: string, path?: string): boolean {
  return looksSecret(name) || (path !== undefined && isTokenStore(path));
}

/**
 * The files split into those that look like secrets and the others, each in the order given:
 * judged by the name sent, and by the whole path for the token stores.
 */
export function splitSecrets<T extends { name: string; path?: string }>(
  files: readonly T[],
): { ordinary: T[]; secret: T[] } {
  const ordinary: T[] = [];
  const secret: T[] = [];
  for (const file of files) {
    (looksSecretFile(file.name, file.path) ? secret : ordinary).push(file);
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
