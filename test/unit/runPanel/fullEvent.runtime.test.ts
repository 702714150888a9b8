// "Copy event" / "Open event as JSON" for an event the panel keeps cut: the whole event is read
// again from the reference runtime's resumable log, exactly as the server sent it.
import * as assert from 'node:assert';
import { RunEventSubscription } from '../../../src/api/events';
import { silentLogger } from '../../../src/common/logger';
import { RunModel } from '../../../src/runEvents/runModel';
import { fullEvent } from '../../../src/runPanel/fullEvent';
import { type RuntimeWithClient, startRuntimeWithClient } from '../api/fixtures';

describe('fullEvent against the reference runtime', function () {
  this.timeout(30_000);
  let rt: RuntimeWithClient;

  beforeEach(async () => {
    rt = await startRuntimeWithClient();
  });

  afterEach(async () => {
    await rt.close();
  });

  const subscribe = (runId: string) => (after: number, signal: AbortSignal) =>
    new RunEventSubscription(rt.client, runId, { after, signal, logger: silentLogger });

  it('reads the whole event the model cut to its budget, and nothing for a sequence the log does not have', async () => {
    const runId = await rt.runtime.createSyntheticRun({ events: 2, terminal: null });
    const summary = `${'é'.repeat(600_000)}<b>end</b>`;
    const big = rt.runtime.appendEvent(runId, 'observation.recorded', {
      step_id: 'step_1',
      summary,
      extra: { nested: [1, 2, 3] },
    });
    rt.runtime.appendEvent(runId, 'tool.called', { step_id: 'step_1', tool: 'search' });
    rt.runtime.endRun(runId, 'completed');

    const model = new RunModel(runId);
    for await (const event of subscribe(runId)(0, AbortSignal.timeout(20_000))) {
      model.apply([{ event: event.event, data: event.data }]);
    }
    const kept = model.snapshot().recent.find((e) => e.data.sequence === big);
    assert.ok(kept?.truncatedBytes !== undefined && kept.truncatedBytes > 1_200_000, 'the model keeps it cut');
    assert.ok(String(kept.data.summary).length < 20_000);

    const whole = await fullEvent(subscribe(runId), big);
    assert.strictEqual(whole?.event, 'observation.recorded');
    assert.strictEqual(whole?.data.summary, summary);
    assert.deepStrictEqual(whole?.data.extra, { nested: [1, 2, 3] });

    assert.strictEqual(await fullEvent(subscribe(runId), 0), undefined);
    assert.strictEqual(await fullEvent(subscribe(runId), big + 100), undefined, 'past the end of a finished run');
  });
});
