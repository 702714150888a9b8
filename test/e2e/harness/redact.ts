// Keeps secrets out of everything the harness prints: each known key is replaced by a marker.
const secrets = new Set<string>();

/** Registers a value (an API key) that must never be printed. */
export function addSecret(value: string | undefined): void {
  if (value && value.length >= 4) {
    secrets.add(value);
  }
}

export function redact(text: string): string {
  let out = text;
  for (const secret of secrets) {
    out = out.split(secret).join('[redacted]');
  }
  return out;
}

/** Registers the values of environment variables named like secrets (long enough to be keys). */
export function addSecretsFromEnv(env: NodeJS.ProcessEnv = process.env): void {
  for (const [name, value] of Object.entries(env)) {
    if (/KEY|TOKEN|SECRET|PASSWORD/i.test(name) && value && value.length >= 8) {
      addSecret(value);
    }
  }
}
