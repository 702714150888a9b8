// A VS Code cancellation token as the AbortSignal the API client takes: the one bridge between
// the editor's way of cancelling and the network's.

/** What this needs of VS Code's CancellationToken (this folder never imports vscode). */
export interface CancellationTokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => unknown): { dispose(): unknown };
}

/**
 * Runs `work` with a signal that aborts when `token` is cancelled (already cancelled: aborted
 * from the start); the listener is removed when the work ends, whichever way.
 */
export async function withAbortSignal<T>(
  token: CancellationTokenLike | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  if (token?.isCancellationRequested) {
    controller.abort();
  }
  const listener = token?.onCancellationRequested(() => controller.abort());
  try {
    return await work(controller.signal);
  } finally {
    listener?.dispose();
  }
}

/**
 * A signal for work that outlives the call (an event stream handed to a caller): it aborts when
 * `token` is cancelled; the listener lives as long as the token does.
 */
export function abortSignalOf(token: CancellationTokenLike | undefined): AbortSignal | undefined {
  if (!token) {
    return undefined;
  }
  const controller = new AbortController();
  if (token.isCancellationRequested) {
    controller.abort();
  } else {
    token.onCancellationRequested(() => controller.abort());
  }
  return controller.signal;
}
