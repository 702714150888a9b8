// A run session built as the extension host builds it, against the reference runtime over real
// HTTP: the real client and resumable subscription, with what it posts kept for the test to read.
import { ApiClient } from '../../../src/api/client';
import { isApiError } from '../../../src/api/errors';
import { describeError } from '../../../src/api/errorSentences';
import { RunEventSubscription } from '../../../src/api/events';
import { silentLogger } from '../../../src/common/logger';
import { DEFAULT_UI_STRINGS, type HostMessage } from '../../../src/runPanel/protocol';
import { RunSession, type RunSessionDeps } from '../../../src/runPanel/runSession';
import { type RuntimeHandle, type RuntimeOptions, startRuntime } from '../../runtime';

/** What a test may set beyond the wiring every session here shares. */
export type SessionOptions = Partial<Omit<RunSessionDeps, 'runId' | 'client' | 'subscribe' | 'post'>>;

export interface WatchedSession {
  session: RunSession;
  posted: HostMessage[];
}

/** A started session whose webview has said it is ready; the caller disposes it. */
function watchSession(client: ApiClient, runId: string, options: SessionOptions = {}): WatchedSession {
  const posted: HostMessage[] = [];
  const session = new RunSession({
    runId,
    client: () => client,
    subscribe: (after, onState, signal) =>
      new RunEventSubscription(client, runId, { after, signal, onState, logger: silentLogger }),
    post: (m) => posted.push(m),
    strings: DEFAULT_UI_STRINGS,
    describeError,
    isSignInError: (err) => isApiError(err, 'authentication'),
    log: silentLogger,
    // A short batching interval keeps the end-to-end tests quick.
    channel: { intervalMs: 5 },
    ...options,
  });
  session.start();
  session.webviewReady();
  return { session, posted };
}

/**
 * A reference runtime, a client of it and the sessions watched through it, torn down together
 * (sessions first, so no stream outlives its server).
 */
export class SessionRig {
  private handle: RuntimeHandle | undefined;
  private apiClient: ApiClient | undefined;
  private readonly sessions: RunSession[] = [];

  get runtime(): RuntimeHandle {
    if (!this.handle) {
      throw new Error('SessionRig: start() first');
    }
    return this.handle;
  }

  get client(): ApiClient {
    if (!this.apiClient) {
      throw new Error('SessionRig: start() first');
    }
    return this.apiClient;
  }

  async start(options?: RuntimeOptions): Promise<void> {
    const runtime = await startRuntime(options);
    this.handle = runtime;
    this.apiClient = new ApiClient({ baseUrl: runtime.baseUrl, getApiKey: async () => runtime.apiKey });
  }

  watch(runId: string, options?: SessionOptions): WatchedSession {
    const watched = watchSession(this.client, runId, options);
    this.sessions.push(watched.session);
    return watched;
  }

  async stop(): Promise<void> {
    // The runtime closes even when a session's dispose or the client's throws: no server left behind.
    try {
      for (const s of this.sessions.splice(0)) {
        s.dispose();
      }
      await this.apiClient?.dispose();
    } finally {
      this.apiClient = undefined;
      const handle = this.handle;
      this.handle = undefined;
      await handle?.close();
    }
  }
}
