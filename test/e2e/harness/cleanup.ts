// One place that stops everything a runner started, in reverse order, on success, failure,
// timeout or Ctrl+C.
type Disposer = { name: string; dispose: () => Promise<void> | void };

export class Cleanup {
  private readonly disposers: Disposer[] = [];
  private running: Promise<void> | undefined;

  add(name: string, dispose: () => Promise<void> | void): void {
    this.disposers.push({ name, dispose });
  }

  /** Runs every disposer once (latest first); a failing one does not stop the others. */
  run(): Promise<void> {
    this.running ??= (async () => {
      while (this.disposers.length) {
        const d = this.disposers.pop() as Disposer;
        try {
          await d.dispose();
        } catch (err) {
          console.error(`cleanup: stopping ${d.name} failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    })();
    return this.running;
  }
}

/** Stops everything in `cleanup` and exits when the process is interrupted. */
export function exitOnSignals(cleanup: Cleanup, onSignal?: (signal: NodeJS.Signals) => void): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (stopping) {
        return;
      }
      stopping = true;
      onSignal?.(signal);
      void cleanup.run().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
}

/** Rejects after `ms` with a message; the timer does not keep the process alive. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${Math.round(ms / 1000)} s`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
