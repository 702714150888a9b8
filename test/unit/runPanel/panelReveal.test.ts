// The run panel's reveal of a linked event: posted after the page's reset (its `ready`, or its
// coming back into view), at once to a page in view, never to a hidden one, and replaced by a
// newer reveal. A fake panel stands in for RunPanel (which posts the reset in its own listener,
// added first, so the fake's `reset` marker goes out before anything this posts).
import * as assert from 'node:assert/strict';
import { PendingReveals, type RevealablePanel } from '../../../src/runPanel/panelReveal';

class Emitter<T> {
  private listeners: Array<(e: T) => unknown> = [];
  readonly event = (listener: (e: T) => unknown) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) {
      l(e);
    }
  }
  get count(): number {
    return this.listeners.length;
  }
}

function fakePanel(visible: boolean) {
  const posted: unknown[] = [];
  const messages = new Emitter<unknown>();
  const viewState = new Emitter<{ webviewPanel: { visible: boolean } }>();
  const disposed = new Emitter<void>();
  const state = { visible };
  const panel: RevealablePanel = {
    panel: {
      get visible() {
        return state.visible;
      },
      webview: { postMessage: async (m: unknown) => posted.push(m) > 0, onDidReceiveMessage: messages.event },
      onDidChangeViewState: viewState.event,
    },
    onDidDispose: disposed.event,
  };
  // What RunPanel does first on these events: post a reset.
  messages.event((m) => (m as { type?: string }).type === 'ready' && posted.push('reset'));
  viewState.event(({ webviewPanel }) => webviewPanel.visible && posted.push('reset'));
  return {
    panel,
    posted,
    ready: () => messages.fire({ type: 'ready' }),
    show: () => ((state.visible = true), viewState.fire({ webviewPanel: { visible: true } })),
    hide: () => ((state.visible = false), viewState.fire({ webviewPanel: { visible: false } })),
    dispose: () => disposed.fire(),
    listeners: () => messages.count + viewState.count + disposed.count,
  };
}

const reveal = (sequence: number) => ({ type: 'reveal', sequence });

describe('runPanel/panelReveal', () => {
  it('a new panel: reveals after the page says ready, after its reset', () => {
    const reveals = new PendingReveals();
    const p = fakePanel(true);
    reveals.reveal(p.panel, 7, false);
    assert.deepEqual(p.posted, [], 'nothing before the page is there');
    p.ready();
    assert.deepEqual(p.posted, ['reset', reveal(7)]);
  });

  it('a panel in view: reveals at once (and again after a reload of its page)', () => {
    const reveals = new PendingReveals();
    const p = fakePanel(true);
    reveals.reveal(p.panel, 3, true);
    assert.deepEqual(p.posted, [reveal(3)]);
    p.ready();
    assert.deepEqual(p.posted, [reveal(3), 'reset', reveal(3)]);
  });

  it('a panel in view that only gains focus again is not scrolled back to the event', () => {
    const reveals = new PendingReveals();
    const p = fakePanel(true);
    reveals.reveal(p.panel, 8, true);
    p.show();
    assert.deepEqual(p.posted, [reveal(8), 'reset']);
  });

  it('a hidden panel: reveals when it comes into view, after the reset', () => {
    const reveals = new PendingReveals();
    const p = fakePanel(false);
    reveals.reveal(p.panel, 4, false);
    p.show();
    assert.deepEqual(p.posted, ['reset', reveal(4)]);
  });

  it('stops once the panel is hidden or closed: a later visit is not scrolled back', () => {
    const reveals = new PendingReveals();
    const p = fakePanel(true);
    const base = p.listeners();
    reveals.reveal(p.panel, 5, true);
    p.hide();
    p.show();
    p.ready();
    assert.deepEqual(p.posted, [reveal(5), 'reset', 'reset']);
    assert.equal(p.listeners(), base, 'its listeners are gone');
    assert.equal(reveals.size, 0);
    const q = fakePanel(true);
    reveals.reveal(q.panel, 6, false);
    q.dispose();
    q.ready();
    assert.deepEqual(q.posted, ['reset']);
    assert.equal(reveals.size, 0);
  });

  it('a newer reveal replaces the older; a sequence that is not one is ignored', () => {
    const reveals = new PendingReveals();
    const p = fakePanel(true);
    reveals.reveal(p.panel, 1, false);
    reveals.reveal(p.panel, 2, false);
    reveals.reveal(p.panel, 0, false);
    reveals.reveal(p.panel, 1.5, false);
    p.ready();
    assert.deepEqual(p.posted, ['reset', reveal(2)]);
    reveals.dispose();
    p.ready();
    assert.deepEqual(p.posted, ['reset', reveal(2), 'reset']);
  });
});
