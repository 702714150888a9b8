// Test doubles for the run panel's host logic: hand-driven timers, a scripted event source.
import type { WireEvent } from '../../../src/runEvents/wire';
import type { Timers } from '../../../src/runPanel/panelChannel';
import type { EventSource, SubscriptionState } from '../../../src/runPanel/runSession';

export class ManualClock implements Timers {
  time = 1000;
  private tasks: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  now = (): number => this.time;
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.tasks.push({ at: this.time + ms, fn, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.tasks = this.tasks.filter((t) => t.id !== handle);
  }
  get pending(): number {
    return this.tasks.length;
  }
  /** Moves time forward, running what falls due in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      this.tasks.sort((a, b) => a.at - b.at);
      const next = this.tasks[0];
      if (!next || next.at > end) {
        break;
      }
      this.tasks.shift();
      this.time = next.at;
      next.fn();
    }
    this.time = end;
  }
}

/** An event source the test pushes into; ends or fails on demand, records close(). */
export class ScriptedSource implements EventSource {
  closed = false;
  private queue: WireEvent[] = [];
  private waiting: (() => void) | undefined;
  private ended = false;
  private error: unknown;

  constructor(
    readonly after: number,
    readonly onState: (s: SubscriptionState) => void,
  ) {}

  push(...events: WireEvent[]): void {
    this.queue.push(...events);
    this.wake();
  }
  end(): void {
    this.ended = true;
    this.wake();
  }
  fail(error: unknown): void {
    this.error = error;
    this.wake();
  }
  close(): void {
    this.closed = true;
    this.ended = true;
    this.wake();
  }
  private wake(): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.();
  }
  async *[Symbol.asyncIterator](): AsyncIterator<{ event: string; data: WireEvent['data'] }> {
    for (;;) {
      const next = this.queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.error !== undefined) {
        throw this.error;
      }
      if (this.ended) {
        return;
      }
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}

/**
 * Resolves once `check` holds, polling between turns of the event loop (or every `pollMs` for
 * real I/O); the suite's timeout bounds the wait.
 */
export async function until(check: () => boolean, what = 'condition', pollMs = 0): Promise<void> {
  for (let i = 0; pollMs > 0 || i < 2000; i++) {
    if (check()) {
      return;
    }
    await new Promise((resolve) => (pollMs > 0 ? setTimeout(resolve, pollMs) : setImmediate(resolve)));
  }
  throw new Error(`never happened: ${what}`);
}
