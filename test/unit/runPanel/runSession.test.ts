// A watched run on the host: stream -> compacted model -> batched webview messages; retry,
// sign-in failures, the end of the run with its artifacts, restore after a reload, close.
import * as assert from 'node:assert';
import type { ArtifactRecord } from '../../../src/api/types';
import { RunModel } from '../../../src/runEvents/runModel';
import { DEFAULT_UI_STRINGS, type HostMessage } from '../../../src/runPanel/protocol';
import { type RunPanelClient, RunSession } from '../../../src/runPanel/runSession';
import { recordedRun } from '../webview/fixtures';
import { ManualClock, ScriptedSource, until } from './fakes';

class AuthError extends Error {
  readonly kind = 'authentication';
}

function setup(
  opts: {
    artifacts?: ArtifactRecord[];
    restored?: ReturnType<RunModel['snapshot']>;
    objective?: string;
    artifactPages?: RunPanelClient['listRunArtifacts'];
  } = {},
) {
  const clock = new ManualClock();
  const posted: HostMessage[] = [];
  const sources: ScriptedSource[] = [];
  const statuses: string[] = [];
  const warnings: string[] = [];
  const artifacts = opts.artifacts ?? [];
  const client: RunPanelClient = {
    getRun: async (id) => ({ id, task_id: 'task_1', status: 'running', started_at: '2026-01-01T00:00:00Z' }),
    getTask: async (id) => ({ id, objective: 'Summarise the report' }),
    listRunArtifacts:
      opts.artifactPages ??
      (async (_runId, params) => {
        const start = params?.after ? Number(params.after) : 0;
        const data = artifacts.slice(start, start + 2);
        const more = start + 2 < artifacts.length;
        return { object: 'list', data, has_more: more, next_cursor: more ? String(start + 2) : null };
      }),
  };
  const session = new RunSession({
    runId: 'run_1',
    objective: opts.objective,
    restored: opts.restored,
    client: () => client,
    subscribe: (after, onState) => {
      const source = new ScriptedSource(after, onState);
      sources.push(source);
      return source;
    },
    post: (m) => posted.push(m),
    strings: DEFAULT_UI_STRINGS,
    describeError: (err) => (err instanceof Error ? err.message : String(err)),
    isSignInError: (err) => err instanceof AuthError,
    log: { debug: () => undefined, info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined },
    onStatus: (s) => statuses.push(s),
    now: clock.now,
    channel: { timers: clock, intervalMs: 20 },
  });
  const flush = () => clock.advance(100);
  const delivered = () => posted.flatMap((m) => (m.type === 'events' ? m.events.map((e) => e.data.sequence) : []));
  return { clock, posted, sources, statuses, warnings, session, flush, delivered };
}

/** Runs a one-step run to its end and waits for the artifact list the host then sends. */
async function runToEndAndListArtifacts(t: ReturnType<typeof setup>): Promise<HostMessage | undefined> {
  t.session.start();
  t.session.webviewReady();
  await until(() => t.sources.length === 1);
  t.sources[0].push(...recordedRun({ steps: 1, terminal: 'completed' }));
  t.sources[0].onState({ state: 'ended', status: 'completed' });
  t.sources[0].end();
  await until(() => {
    t.flush();
    return t.posted.some((m) => m.type === 'artifacts' && m.artifacts.state === 'loaded');
  });
  return t.posted.filter((m) => m.type === 'artifacts').pop();
}

describe('RunSession', () => {
  it('streams events to the webview after it is ready, exactly once and in order', async () => {
    const t = setup();
    t.session.start();
    await until(() => t.sources.length === 1);
    assert.strictEqual(t.sources[0].after, 0);
    const run = recordedRun({ steps: 2, terminal: null });
    t.sources[0].push(...run.slice(0, 4));
    await until(() => t.session.lastSequence === 4);
    t.session.webviewReady();
    const reset = t.posted.find((m) => m.type === 'reset');
    assert.ok(reset && reset.type === 'reset' && reset.snapshot.lastSequence === 4);
    t.sources[0].push(...run.slice(4));
    await until(() => t.session.lastSequence === run.length);
    t.flush();
    assert.deepStrictEqual(
      t.delivered(),
      run.slice(4).map((e) => e.data.sequence),
    );
    t.session.dispose();
  });

  it('shows reconnecting with its delay and live again, as the subscription reports', async () => {
    const t = setup();
    t.session.start();
    t.session.webviewReady();
    await until(() => t.sources.length === 1);
    t.sources[0].onState({ state: 'reconnecting', attempt: 2, delayMs: 4000, reason: 'connection reset' });
    t.sources[0].onState({ state: 'live' });
    t.flush();
    const states = t.posted.flatMap((m) => (m.type === 'connection' ? [m.connection.state] : []));
    assert.deepStrictEqual(states.slice(-2), ['reconnecting', 'live']);
    t.session.dispose();
  });

  it('reports a rejected key as needing sign-in, and Retry resumes after the last sequence', async () => {
    const t = setup();
    t.session.start();
    t.session.webviewReady();
    await until(() => t.sources.length === 1);
    t.sources[0].push(...recordedRun({ steps: 1, terminal: null }));
    await until(() => t.session.lastSequence === 7);
    t.sources[0].fail(new AuthError('The API key was rejected'));
    await until(() => t.session.connectionState.state === 'failed');
    const failed = t.session.connectionState;
    assert.ok(failed.state === 'failed' && failed.signInNeeded && failed.message === 'The API key was rejected');
    t.session.retry();
    assert.strictEqual(t.sources.length, 2);
    assert.strictEqual(t.sources[1].after, 7);
    assert.strictEqual(t.sources[0].closed, true);
    t.session.dispose();
  });

  it('at the end of the run lists every artifact page, reports the status once, and keeps the records for Open/Save', async () => {
    const artifacts = [1, 2, 3, 4, 5].map((i) => ({ id: `art_${i}`, name: `out${i}.md`, bytes: i }));
    const t = setup({ artifacts });
    const loaded = await runToEndAndListArtifacts(t);
    assert.ok(loaded?.type === 'artifacts' && loaded.artifacts.state === 'loaded');
    assert.deepStrictEqual(
      loaded.artifacts.artifacts.map((a) => a.name),
      artifacts.map((a) => a.name),
    );
    assert.deepStrictEqual(t.statuses, ['completed']);
    assert.strictEqual(t.session.artifact('art_3')?.name, 'out3.md');
    assert.strictEqual(t.session.connectionState.state, 'ended');
    t.session.dispose();
  });

  it('stops listing artifacts at an empty page that claims more, and skips items without an id', async () => {
    let calls = 0;
    const t = setup({
      artifactPages: async () => {
        calls++;
        // A broken server: first a page with a bad item, then empty pages that always say "more".
        const data =
          calls === 1 ? ([{ id: 'art_1', name: 'ok.md' }, null, { id: 7 }] as unknown as ArtifactRecord[]) : [];
        return { object: 'list', data, has_more: true, next_cursor: `c${calls}` };
      },
    });
    const loaded = await runToEndAndListArtifacts(t);
    assert.ok(loaded?.type === 'artifacts' && loaded.artifacts.state === 'loaded');
    assert.deepStrictEqual(
      loaded.artifacts.artifacts.map((a) => a.name),
      ['ok.md'],
    );
    assert.strictEqual(calls, 2, 'the empty page ends the listing');
    t.session.dispose();
  });

  it("fills in the objective from the run's task when not given", async () => {
    const t = setup();
    t.session.start();
    t.session.webviewReady();
    await until(() => {
      t.flush();
      return t.posted.some((m) => m.type === 'info' && m.info.objective === 'Summarise the report');
    });
    t.session.dispose();
  });

  it('restored from a snapshot, resumes after its last sequence and shows it at once', async () => {
    const model = new RunModel('run_1');
    const run = recordedRun({ steps: 3, terminal: null });
    model.apply(run.slice(0, 7));
    const t = setup({ restored: model.snapshot() });
    t.session.start();
    t.session.webviewReady();
    await until(() => t.sources.length === 1);
    assert.strictEqual(t.sources[0].after, 7);
    const reset = t.posted.find((m) => m.type === 'reset');
    assert.ok(reset?.type === 'reset' && reset.snapshot.recent.length === 7);
    // A server that repeats the boundary event must not make a duplicate.
    t.sources[0].push(...run.slice(6));
    await until(() => t.session.lastSequence === run.length);
    t.flush();
    assert.deepStrictEqual(
      t.delivered(),
      run.slice(7).map((e) => e.data.sequence),
    );
    t.session.dispose();
  });

  it('closing stops the stream and posts nothing more', async () => {
    const t = setup();
    t.session.start();
    t.session.webviewReady();
    await until(() => t.sources.length === 1);
    t.session.dispose();
    assert.strictEqual(t.sources[0].closed, true);
    const count = t.posted.length;
    t.sources[0].push(...recordedRun({ steps: 1 }));
    t.flush();
    assert.strictEqual(t.posted.length, count);
    assert.strictEqual(t.clock.pending, 0);
  });
});
