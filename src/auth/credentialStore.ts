// Where the API key lives: VS Code's SecretStorage (one key per base URL), a key kept for this
// session only when the keyring is unavailable, and AGENT_RUNTIME_API_KEY for headless use.
// The environment key is bound to one origin: AGENT_RUNTIME_BASE_URL when set, else the base URL
// the user (not a workspace) configured, so a workspace pointing the setting elsewhere never
// receives it. Keys are never written to settings or logs.
import * as vscode from 'vscode';

export const API_KEY_ENV = 'AGENT_RUNTIME_API_KEY';
/** Names the one service the environment key belongs to. */
export const API_KEY_URL_ENV = 'AGENT_RUNTIME_BASE_URL';

export type CredentialSource = 'secretStorage' | 'session' | 'environment';

/** Thrown when SecretStorage cannot store (no keyring): the caller may keep the key for the session. */
export class SecretStorageUnavailableError extends Error {
  override readonly name = 'SecretStorageUnavailableError';
}

export class CredentialStore implements vscode.Disposable {
  private readonly sessionKeys = new Map<string, string>();
  /**
   * What SecretStorage answered per base URL, kept until a key changes (here or in another
   * window): every request asks for the key, and in a browser-hosted VS Code each read is a
   * round trip to the workbench that waits behind whatever it is doing.
   */
  private readonly storedKeys = new Map<string, Promise<string | undefined>>();
  /** The "environment key not used here" line is logged once, not on every request. */
  private warnedEnvKey = false;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;
  /** Fires when a key is stored or removed, here or in another window. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: vscode.LogOutputChannel,
    /** The user-level base URL (never a workspace's): where the environment key may go without AGENT_RUNTIME_BASE_URL. */
    private readonly userBaseUrl: () => string,
    private readonly env: NodeJS.ProcessEnv = typeof process === 'undefined' ? {} : process.env,
  ) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key.startsWith(SECRET_PREFIX)) {
        this.storedKeys.clear();
        this.changed.fire();
      }
    });
  }

  /** The key for `baseUrl` and where it came from, or undefined when the user has none. */
  async find(baseUrl: string): Promise<{ key: string; source: CredentialSource } | undefined> {
    const session = this.sessionKeys.get(baseUrl);
    if (session) {
      return { key: session, source: 'session' };
    }
    try {
      const stored = await this.storedKey(baseUrl);
      if (stored) {
        return { key: stored, source: 'secretStorage' };
      }
    } catch (err) {
      // A broken keyring must not stop headless use through the environment variable.
      this.log.warn(`Secret storage could not be read: ${errorName(err)}`);
    }
    const fromEnv = this.env[API_KEY_ENV]?.trim();
    if (!fromEnv) {
      return undefined;
    }
    if (!this.environmentKeyMayGoTo(baseUrl)) {
      if (!this.warnedEnvKey) {
        this.log.warn(
          `${API_KEY_ENV} is set but not used for this service: it belongs to ${this.envKeyOrigin() ?? 'another origin'} (set ${API_KEY_URL_ENV} to choose).`,
        );
      }
      this.warnedEnvKey = true;
      return undefined;
    }
    return { key: fromEnv, source: 'environment' };
  }

  private storedKey(baseUrl: string): Promise<string | undefined> {
    let read = this.storedKeys.get(baseUrl);
    if (!read) {
      read = Promise.resolve(this.secrets.get(secretName(baseUrl)));
      this.storedKeys.set(baseUrl, read);
      // A failed read is not kept: the next request asks again.
      void read.catch(() => this.storedKeys.get(baseUrl) === read && this.storedKeys.delete(baseUrl));
    }
    return read;
  }

  /** The origin the environment key is bound to. */
  envKeyOrigin(): string | undefined {
    return originOf(this.env[API_KEY_URL_ENV]?.trim() || this.userBaseUrl());
  }

  private environmentKeyMayGoTo(baseUrl: string): boolean {
    const allowed = this.envKeyOrigin();
    return allowed !== undefined && allowed === originOf(baseUrl);
  }

  async get(baseUrl: string): Promise<string | undefined> {
    return (await this.find(baseUrl))?.key;
  }

  async store(baseUrl: string, key: string): Promise<void> {
    this.storedKeys.delete(baseUrl);
    try {
      await this.secrets.store(secretName(baseUrl), key);
    } catch (err) {
      throw new SecretStorageUnavailableError(`Secret storage is unavailable (${errorName(err)}).`);
    }
    this.sessionKeys.delete(baseUrl);
    this.storedKeys.delete(baseUrl);
    this.changed.fire();
  }

  storeForSession(baseUrl: string, key: string): void {
    this.sessionKeys.set(baseUrl, key);
    this.changed.fire();
  }

  async delete(baseUrl: string): Promise<void> {
    this.sessionKeys.delete(baseUrl);
    this.storedKeys.delete(baseUrl);
    try {
      await this.secrets.delete(secretName(baseUrl));
    } catch (err) {
      this.log.warn(`Secret storage could not delete the key: ${errorName(err)}`);
    }
    this.storedKeys.delete(baseUrl);
    this.changed.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

const SECRET_PREFIX = 'agentRuntime.apiKey:';

/** scheme://host:port, lower-cased, default ports dropped; undefined for an unparsable URL. */
function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

function secretName(baseUrl: string): string {
  return SECRET_PREFIX + baseUrl;
}

/** Only the error's name/message, never an object that could carry the key. */
function errorName(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
