// The reference runtime of a test that walks a list over HTTP: started before each test of the
// calling describe block and closed after it, counting the list requests it names. Past three
// times the pager's page cap the walk's signal aborts, so a walk that does not end makes a red
// test instead of a hang.
import { DEFAULT_MAX_PAGES } from '../../../src/api/pagination';
import { type RuntimeWithClient, startRuntimeWithClient } from './fixtures';

export interface WalkedRuntime {
  /** This test's runtime and client. */
  readonly ctx: RuntimeWithClient;
  /** Give it to the walk: aborts once the list requests pass 3 * DEFAULT_MAX_PAGES. */
  readonly signal: AbortSignal;
  /** The list requests the runtime answered since the test began or `resetCount`. */
  requests(): number;
  resetCount(): void;
}

/** Call in a describe block; `isListRequest` picks the runtime's log lines to count. */
export function walkedRuntime(isListRequest: (line: string) => boolean): WalkedRuntime {
  let ctx: RuntimeWithClient | undefined;
  let guard = new AbortController();
  let count = 0;
  beforeEach(async () => {
    count = 0;
    guard = new AbortController();
    ctx = await startRuntimeWithClient({
      log: (line) => {
        if (!isListRequest(line)) {
          return;
        }
        count++;
        if (count > 3 * DEFAULT_MAX_PAGES) {
          guard.abort(new Error(`the walk did not end: ${count} list requests`));
        }
      },
    });
  });
  afterEach(() => ctx?.close());
  return {
    get ctx() {
      if (!ctx) {
        throw new Error('the runtime starts in beforeEach');
      }
      return ctx;
    },
    get signal() {
      return guard.signal;
    },
    requests: () => count,
    resetCount: () => {
      count = 0;
    },
  };
}
