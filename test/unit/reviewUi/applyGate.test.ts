// Apply Changes asked for by a command (a link, another extension) for a run whose changes were
// never shown in this window: outside the test run (trusted automation) the review is shown
// instead and nothing is applied; once shown, Apply goes on as asked.
import * as assert from 'node:assert/strict';
import { createReview } from '../../../src/reviewUi/reviewCommands';
import type { ReviewContent } from '../../../src/reviewUi/reviewContent';
import { QUICK_BACKOFF, type RuntimeWithClient, startRuntimeWithClient } from '../api/fixtures';
import { commandDeps, prompts } from '../commandSupport/commandHarness';
import * as stub from '../views/vscodeStub';

const NOTHING_TO_REVIEW = /did not produce a new version/;

describe('reviewUi: Apply for a run never reviewed here', () => {
  let ctx: RuntimeWithClient;
  const p = prompts();
  const errors: unknown[] = [];
  const warnings: string[] = [];
  let trusted = false;
  let unpatch = (): void => undefined;
  let restoreProgress = (): void => undefined;

  before(async () => {
    ctx = await startRuntimeWithClient({}, { backoff: QUICK_BACKOFF });
    unpatch = p.install();
    const withProgress = stub.window.withProgress;
    Object.assign(stub.window, {
      withProgress: async <R>(_options: unknown, task: (progress: unknown, token: unknown) => Promise<R>) =>
        task({ report: () => undefined }, { onCancellationRequested: () => ({ dispose: () => undefined }) }),
    });
    restoreProgress = () => Object.assign(stub.window, { withProgress });
  });
  after(async () => {
    restoreProgress();
    unpatch();
    await ctx.close();
  });
  beforeEach(() => {
    p.reset();
    errors.length = 0;
    warnings.length = 0;
  });

  function review() {
    const deps = Object.assign(commandDeps(ctx.client, { trusted: () => trusted, errors, warnings }), {
      ensureSignedIn: async () => true,
      localFiles: { origin: () => undefined, taskFiles: () => undefined, refresh: async () => undefined },
    });
    const state = new Map<string, unknown>();
    const memento = {
      get: <T>(k: string) => state.get(k) as T | undefined,
      update: async (k: string, v: unknown) => void state.set(k, v),
    };
    return createReview(deps, { forgetRun: () => undefined } as unknown as ReviewContent, memento);
  }

  it('shows the review instead of applying; once shown, Apply goes on', async () => {
    trusted = false;
    const runId = await ctx.runtime.createSyntheticRun({ events: 2, terminal: 'completed' });
    const handlers = review();
    const outcome = await handlers.applyCommand({ runId });
    assert.deepEqual(outcome, { applied: false, files: [], skipped: [] });
    assert.ok(
      p.notices.some((n) => NOTHING_TO_REVIEW.test(n.message)),
      `the review was not shown first: ${JSON.stringify(p.notices)}`,
    );
    assert.ok(warnings.some((w) => /never shown here/.test(w)));
    assert.ok(
      p.executed.some(([command]) => command === 'setContext'),
      'no review was loaded',
    );

    p.reset();
    warnings.length = 0;
    await handlers.applyCommand({ runId });
    assert.deepEqual(p.notices, [], 'a reviewed run was reviewed again instead of applied');
    assert.deepEqual(warnings, []);
  });

  it('the test run applies as asked, without showing the review', async () => {
    trusted = true;
    const runId = await ctx.runtime.createSyntheticRun({ events: 2, terminal: 'completed' });
    await review().applyCommand({ runId });
    assert.deepEqual(p.notices, []);
    assert.deepEqual(warnings, []);
  });
});
