// Batch delivery (subscription.batches()): every event already read comes in one step, in
// order and once, whether a chunk holds many events or an event spans several chunks; the
// per-event iterator and the batches share one path, so mixing them loses nothing.
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { RunEventSubscription } from '../../../src/api/events';
import type { RunEvent } from '../../../src/api/types';
import {
  clientFor,
  collectBatches,
  delay,
  rawServersPerTest,
  sseHead,
  sseMessage,
  stateRecorder,
  waitFor,
} from './eventsSupport';

function step(sequence: number): string {
  return sseMessage('step.started', { sequence, step_id: `s${sequence}`, title: `step ${sequence}` });
}

function written(res: ServerResponse, text: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => res.write(text, () => resolve()));
}

function sequences(events: readonly RunEvent[]): number[] {
  return events.map((e) => e.data.sequence);
}

describe('RunEventSubscription.batches()', function () {
  const startServer = rawServersPerTest();

  it('hands every event of a chunk over in one batch, in order, and ends with the terminal event', async () => {
    const COUNT = 500;
    const server = await startServer(async (_req, res) => {
      sseHead(res);
      // One write, one chunk: 500 events the client has all at once.
      let text = '';
      for (let s = 1; s <= COUNT; s++) {
        text += step(s);
      }
      await written(res, text);
      await delay(50);
      res.end(sseMessage('run.completed', { sequence: COUNT + 1, status: 'completed' }));
    });
    const recorder = stateRecorder();
    const sub = new RunEventSubscription(clientFor(server.baseUrl), 'run_many', { onState: recorder.onState });
    const batches = await collectBatches(sub);
    const all = batches.flat();
    assert.deepEqual(
      sequences(all),
      Array.from({ length: COUNT + 1 }, (_v, i) => i + 1),
    );
    assert.ok(batches.length < 20, `${COUNT + 1} events came in ${batches.length} batches`);
    assert.ok(
      batches.every((b) => b.length > 0),
      'no empty batch',
    );
    assert.equal(batches.at(-1)?.at(-1)?.event, 'run.completed');
    assert.equal(sub.lastSequence, COUNT + 1);
    assert.deepEqual(
      recorder.states.map((s) => s.state),
      ['connecting', 'live', 'ended'],
    );
  });

  it('an event split across chunks comes once, whole, in the batch after its last byte', async () => {
    const first = Buffer.from(step(1) + step(2) + step(3));
    const split = Buffer.from(
      sseMessage('observation.recorded', { sequence: 4, step_id: 's3', summary: 'naïve café — 日本語 🎉' }),
    );
    const cut = split.indexOf(Buffer.from('日')) + 1; // inside a multi-byte character
    const batches: (readonly RunEvent[])[] = [];
    const server = await startServer(async (_req, res) => {
      sseHead(res);
      // A write that completes events waits for their batch: the server shares the client's event
      // loop, and after a stall of the loop its timers run before the client reads, so two writes
      // would be read as one.
      await written(res, Buffer.concat([first, split.subarray(0, 10)]));
      await waitFor(() => batches.length >= 1, 'the batch [1, 2, 3]', 5000);
      await written(res, split.subarray(10, cut));
      await delay(30);
      await written(res, Buffer.concat([split.subarray(cut), Buffer.from(step(5))]));
      await waitFor(() => batches.length >= 2, 'the batch [4, 5]', 5000);
      res.end(sseMessage('run.completed', { sequence: 6, status: 'completed' }));
    });
    const sub = new RunEventSubscription(clientFor(server.baseUrl), 'run_split');
    for await (const batch of sub.batches()) {
      batches.push(batch);
    }
    // A batch held back until more bytes came would time the server's wait out and drop the
    // stream (the client reconnects and gets the rest): one request means no batch was held back.
    assert.equal(server.requests.length, 1, 'a batch waited for the next chunk (the server gave up on it)');
    assert.deepEqual(sequences(batches.flat()), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(batches.map(sequences), [[1, 2, 3], [4, 5], [6]]);
    assert.equal(batches[1][0].data.summary, 'naïve café — 日本語 🎉');
  });

  it('taking single events first and batches after delivers the rest of the batch, nothing twice', async () => {
    const server = await startServer(async (_req, res) => {
      sseHead(res);
      await written(res, step(1) + step(2) + step(3) + step(4));
      await delay(30);
      res.end(step(5) + sseMessage('run.completed', { sequence: 6, status: 'completed' }));
    });
    const sub = new RunEventSubscription(clientFor(server.baseUrl), 'run_mixed');
    const single = sub[Symbol.asyncIterator]();
    const one = await single.next();
    assert.equal(one.done, false);
    assert.equal(sub.lastSequence, 1, 'a single event counts as delivered when it is handed over, not its batch');
    const rest: RunEvent[] = [];
    for await (const batch of sub.batches()) {
      rest.push(...batch);
    }
    assert.deepEqual(sequences(rest), [2, 3, 4, 5, 6]);
    assert.deepEqual(sub.state, { state: 'ended', status: 'completed' });
  });

  it('close() between batches ends the batches quietly', async () => {
    const server = await startServer(async (_req, res) => {
      sseHead(res);
      await written(res, step(1) + step(2));
    });
    const sub = new RunEventSubscription(clientFor(server.baseUrl), 'run_close', { idleTimeoutMs: 0 });
    const iterator = sub.batches()[Symbol.asyncIterator]();
    const first = await iterator.next();
    assert.deepEqual(first.done ? [] : sequences(first.value), [1, 2]);
    const pending = iterator.next();
    sub.close();
    assert.deepEqual(await pending, { done: true, value: undefined });
  });
});
