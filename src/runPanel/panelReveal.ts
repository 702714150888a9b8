// Shows one event in a run panel once its page can take it: the protocol's `reveal` is posted
// after each `reset` the page gets (its `ready`: a new or reloaded page; or its coming back into
// view) until the panel is next hidden, and at once when the page is in view already. A newer
// reveal for the same panel replaces the older. No vscode import: the panel is taken by shape.
import { isSequence } from '../links/runLink';
import { type HostMessage, parseWebviewMessage } from './protocol';

interface Disposable {
  dispose(): void;
}
type Listen<T> = (listener: (event: T) => unknown) => Disposable;

/** What of a RunPanel this needs (RunPanel satisfies it). */
export interface RevealablePanel {
  readonly panel: {
    readonly visible: boolean;
    readonly webview: {
      postMessage(message: unknown): PromiseLike<boolean>;
      readonly onDidReceiveMessage: Listen<unknown>;
    };
    readonly onDidChangeViewState: Listen<{ webviewPanel: { readonly visible: boolean } }>;
  };
  readonly onDidDispose: Listen<void>;
}

export class PendingReveals implements Disposable {
  private readonly pending = new Map<RevealablePanel, () => void>();

  /**
   * `inView`: the page was shown before this call (so it has had its reset). The caller's
   * listeners that post the reset must have been added before these (RunPanel adds its own
   * in its constructor), so the reset always goes first.
   */
  reveal(panel: RevealablePanel, sequence: number, inView: boolean): void {
    if (!isSequence(sequence)) {
      return;
    }
    this.pending.get(panel)?.();
    const message: HostMessage = { type: 'reveal', sequence };
    const post = () => void panel.panel.webview.postMessage(message);
    if (inView) {
      post();
    }
    const subs: Disposable[] = [];
    const done = () => {
      for (const sub of subs.splice(0)) {
        sub.dispose();
      }
      if (this.pending.get(panel) === done) {
        this.pending.delete(panel);
      }
    };
    subs.push(
      panel.panel.webview.onDidReceiveMessage((raw) => {
        if (parseWebviewMessage(raw)?.type === 'ready') {
          post();
        }
      }),
      panel.panel.onDidChangeViewState(({ webviewPanel }) => {
        if (!webviewPanel.visible) {
          return done();
        }
        if (!inView) {
          post();
        }
        inView = true;
      }),
      panel.onDidDispose(() => done()),
    );
    this.pending.set(panel, done);
  }

  /** Panels waiting for a page, for tests. */
  get size(): number {
    return this.pending.size;
  }

  dispose(): void {
    for (const done of [...this.pending.values()]) {
      done();
    }
  }
}
