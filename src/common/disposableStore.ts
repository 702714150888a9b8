// A base for classes that own registrations: each is added once and all are disposed together,
// last first, so nothing the sidebar registers outlives it.
import type * as vscode from 'vscode';

export class DisposableStore implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private isDisposed = false;

  protected get disposed(): boolean {
    return this.isDisposed;
  }

  /** Takes ownership; disposes at once when the owner is already gone. */
  protected own<T extends vscode.Disposable>(disposable: T): T {
    if (this.isDisposed) {
      disposable.dispose();
    } else {
      this.owned.push(disposable);
    }
    return disposable;
  }

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this.isDisposed = true;
    for (const d of this.owned.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // One failing disposal must not keep the others alive.
      }
    }
  }
}
