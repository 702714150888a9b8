// A watched run end to end on the host side: the reference runtime over HTTP, the real client
// and subscription, streams dropped at random; every event reaches the webview exactly once.
import * as assert from 'node:assert';
import { RunModel } from '../../../src/runEvents/runModel';
import type { RunSnapshot } from '../../../src/runEvents/wire';
import { until } from './fakes';
import { SessionRig } from './sessionFixture';

describe('RunSession against the reference runtime', function () {
  this.timeout(60_000);
  const rig = new SessionRig();

  beforeEach(() => rig.start({ faults: { dropStreamRandom: { seed: 7, maxEventsPerConnection: 60 } } }));
  afterEach(() => rig.stop());

  function watch(runId: string, restored?: RunSnapshot) {
    const { session, posted } = rig.watch(runId, { restored });
    const shown = () =>
      posted
        .flatMap((m) => (m.type === 'reset' ? m.snapshot.recent : m.type === 'events' ? m.events : []))
        .map((e) => e.data.sequence);
    const ended = () => posted.some((m) => m.type === 'artifacts' && m.artifacts.state === 'loaded');
    return { session, posted, shown, ended };
  }

  it('delivers the whole log once, in order, through dropped streams, then lists the artifacts', async () => {
    const { runtime } = rig;
    const runId = await runtime.createSyntheticRun({
      events: 400,
      terminal: 'completed',
      unknownKinds: true,
      taskObjective: 'Check the figures',
    });
    const w = watch(runId);
    await until(() => w.ended(), 'artifacts listed', 50);
    const log = runtime.eventLog(runId).map((e) => e.sequence);
    assert.deepStrictEqual(w.shown(), log);
    assert.strictEqual(w.session.connectionState.state, 'ended');
    await until(
      () => w.posted.some((m) => m.type === 'info' && m.info.objective === 'Check the figures'),
      'objective',
      50,
    );
  });

  it('restored from a snapshot, resumes after its last sequence with nothing missing or repeated', async () => {
    const { runtime } = rig;
    const runId = await runtime.createSyntheticRun({ events: 300, terminal: 'completed' });
    const first = watch(runId);
    await until(() => first.ended(), 'first watch done', 50);
    first.session.dispose();
    // What a webview would have saved part way through.
    const model = new RunModel(runId);
    const log = runtime.eventLog(runId);
    const events = first.posted.flatMap((m) =>
      m.type === 'reset' ? m.snapshot.recent : m.type === 'events' ? m.events : [],
    );
    model.apply(events.slice(0, 120));
    const second = watch(runId, JSON.parse(JSON.stringify(model.snapshot({ recent: 50, steps: 100 }))) as RunSnapshot);
    await until(() => second.ended(), 'second watch done', 50);
    const reset = second.posted.find((m) => m.type === 'reset');
    assert.ok(reset?.type === 'reset' && reset.snapshot.lastSequence === log[119].sequence);
    const resumed = second.posted.flatMap((m) => (m.type === 'events' ? m.events : [])).map((e) => e.data.sequence);
    assert.deepStrictEqual(
      resumed,
      log.slice(120).map((e) => e.sequence),
    );
  });
});
