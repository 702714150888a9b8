// The bridge from a cancellation token to an AbortSignal: cancelled before, cancelled during, and
// the listener gone once the work ends (a long-lived token must not collect listeners).
import * as assert from 'node:assert/strict';
import { abortSignalOf, type CancellationTokenLike, withAbortSignal } from '../../../src/common/abortOn';

class Token implements CancellationTokenLike {
  isCancellationRequested = false;
  readonly listeners = new Set<() => unknown>();
  onCancellationRequested(listener: () => unknown): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
  cancel(): void {
    this.isCancellationRequested = true;
    for (const listener of this.listeners) {
      listener();
    }
  }
}

describe('common/abortOn', () => {
  it('a token cancelled before the work gives a signal aborted from the start', async () => {
    const token = new Token();
    token.cancel();
    assert.equal(await withAbortSignal(token, async (signal) => signal.aborted), true);
    assert.equal(abortSignalOf(token)?.aborted, true);
  });

  it('cancelling during the work aborts its signal, and the listener is removed after', async () => {
    const token = new Token();
    let seen: AbortSignal | undefined;
    await withAbortSignal(token, async (signal) => {
      seen = signal;
      assert.equal(signal.aborted, false);
      token.cancel();
      assert.equal(signal.aborted, true);
    });
    assert.ok(seen);
    assert.equal(token.listeners.size, 0);
  });

  it('a failing work still removes its listener and passes the failure on', async () => {
    const token = new Token();
    await assert.rejects(
      withAbortSignal(token, async () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(token.listeners.size, 0);
  });

  it('no token: a signal that never aborts (withAbortSignal) or none (abortSignalOf)', async () => {
    assert.equal(await withAbortSignal(undefined, async (signal) => signal.aborted), false);
    assert.equal(abortSignalOf(undefined), undefined);
    const token = new Token();
    const signal = abortSignalOf(token);
    token.cancel();
    assert.equal(signal?.aborted, true);
  });
});
