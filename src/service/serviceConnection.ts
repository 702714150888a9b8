// The API service the views and commands share: one ApiClient for the configured base URL,
// backed by the credential store, replaced when the base URL changes, and the signed-in state
// (published as the `agentRuntime.signedIn` context key for welcome views and menus).
import * as vscode from 'vscode';
import { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { type CredentialSource, type CredentialStore } from '../auth/credentialStore';
import { ContextKeys } from '../common/ids';
import { NETWORK_SECTION, readNetworkSettings, readSettings, SETTINGS_SECTION } from './settings';

export class ServiceConnection implements vscode.Disposable {
  private current: ApiClient | undefined;
  private configError: ApiError | undefined;
  private baseUrl = '';
  /** An unusable setting as we may show and log it: the client's copy, without any user:password. */
  private shownUrl = '';
  private signedIn = false;
  /** An http.* setting changed since the client was made. */
  private networkChanged = false;
  private source: CredentialSource | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Fires when the base URL, the key or the signed-in state changes: views refresh on it. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly credentials: CredentialStore,
    private readonly log: vscode.LogOutputChannel,
    readonly userAgent: string,
  ) {
    this.disposables.push(
      this.changed,
      credentials.onDidChange(() => void this.update()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        // A proxy or certificate setting changed: a new client (new connections) at once, no reload.
        if (e.affectsConfiguration(NETWORK_SECTION)) {
          this.networkChanged = true;
        }
        if (e.affectsConfiguration(`${SETTINGS_SECTION}.baseUrl`) || e.affectsConfiguration(NETWORK_SECTION)) {
          void this.update();
        }
      }),
    );
  }

  /** Reads settings and credentials; call once at activation, then it follows changes itself. */
  async update(): Promise<void> {
    const { baseUrl } = readSettings();
    if (baseUrl !== this.baseUrl || this.networkChanged || (!this.current && !this.configError)) {
      this.replaceClient(baseUrl);
      // The connection's set-up runs while the key is read (in code-server that read waits on the
      // starting workbench), not in front of the first request.
      const fresh = this.current;
      setTimeout(() => fresh?.prepare(), 0);
    }
    const found = this.current ? await this.credentials.find(this.current.baseUrl) : undefined;
    this.source = found?.source;
    this.setSignedIn(found !== undefined);
    this.changed.fire();
  }

  /** The client for the configured service; throws the settings problem when the URL is unusable. */
  get client(): ApiClient {
    if (this.current) {
      return this.current;
    }
    throw this.configError ?? new ApiError({ kind: 'validation', message: 'The Agent Runtime base URL is not set.' });
  }

  /** The normalised base URL the client talks to (what keys are stored under). */
  get serviceUrl(): string {
    return this.current?.baseUrl ?? this.shownUrl;
  }

  get isSignedIn(): boolean {
    return this.signedIn;
  }

  get credentialSource(): CredentialSource | undefined {
    return this.source;
  }

  private replaceClient(baseUrl: string): void {
    const old = this.current;
    this.networkChanged = false;
    this.baseUrl = baseUrl;
    this.current = undefined;
    this.configError = undefined;
    const client: ApiClient = new ApiClient({
      baseUrl,
      // Read on every request so a new key applies at once; the store never logs it.
      getApiKey: () => this.credentials.get(client.baseUrl),
      logger: this.log,
      userAgent: this.userAgent,
      network: readNetworkSettings(),
    });
    this.shownUrl = client.baseUrl;
    if (client.configError) {
      this.configError = client.configError;
      this.log.warn(`The agentRuntime.baseUrl setting is not usable: ${client.configError.message}`);
      void client.dispose();
    } else {
      this.current = client;
      this.log.info(`Using the Agent Runtime service at ${client.baseUrl}`);
    }
    if (old) {
      void old.dispose();
    }
  }

  private setSignedIn(value: boolean): void {
    this.signedIn = value;
    void vscode.commands.executeCommand('setContext', ContextKeys.signedIn, value);
  }

  dispose(): void {
    for (const d of this.disposables) {
      d.dispose();
    }
    void this.current?.dispose();
  }
}
