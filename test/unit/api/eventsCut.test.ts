// A connection cut inside its chunked body, and one ended cleanly without a terminal event, while
// the consumer is busy with the events before. A response body that fails discards what it had
// received but not yet handed to a read (fetch: the stream's queue is dropped when it errors; a
// browser may drop bytes that came with the cut), so the subscription keeps a read waiting: the
// events that arrived before the cut are kept, and the reconnect asks for what follows them.
// This folder runs on undici and again on Node's own fetch (transportUnderTest.ts).
import * as assert from 'node:assert/strict';
import type * as http from 'node:http';
import { CUT_BACKOFF_STEPS, RunEventSubscription } from '../../../src/api/events';
import {
  afterOf,
  clientFor,
  collect,
  rawServersPerTest,
  sseHead,
  sseMessage,
  stateRecorder,
  waitFor,
} from './eventsSupport';
import { TRANSPORT } from './transportUnderTest';

const QUICK = { baseMs: 2, capMs: 10 };

/** The rest of the run after `after`, ending with its terminal event, then a clean close. */
function finish(res: http.ServerResponse, after: number): void {
  for (let sequence = after + 1; sequence <= 3; sequence++) {
    res.write(sseMessage('observation.recorded', { sequence, summary: `event ${sequence}` }));
  }
  res.end(sseMessage('run.completed', { sequence: 4, status: 'completed' }));
}

describe(`RunEventSubscription: streams cut or ended before the run (${TRANSPORT})`, () => {
  const startServer = rawServersPerTest();

  for (const ending of ['cut inside the chunked body', 'a clean end without the terminal event'] as const) {
    it(`${ending}: the event that arrived before it is delivered once and the reconnect resumes after it`, async () => {
      let sendRest: (() => void) | undefined;
      let connectionGone = false;
      const server = await startServer((req, res, index) => {
        sseHead(res);
        if (index > 0) {
          finish(res, Number(afterOf(req.url ?? '') ?? 0));
          return;
        }
        res.write(sseMessage('plan.created', { sequence: 1, steps: 1, strategy: 'test' }));
        sendRest = () => {
          res.once('close', () => (connectionGone = true));
          // Event 2, then (as its own TCP segment) half a message, then the end.
          res.write(sseMessage('step.started', { sequence: 2, step_id: 's1', title: 'one' }));
          setImmediate(() => {
            if (ending === 'cut inside the chunked body') {
              res.write('id: 3\nevent: observation.recorded\ndata: {"seq');
              // EOF inside the chunked body: no terminating chunk.
              setImmediate(() => res.socket?.end());
            } else {
              res.end();
            }
          });
        };
      });
      const { states, onState } = stateRecorder();
      const sub = new RunEventSubscription(clientFor(server.baseUrl), 'run_cut', { backoff: QUICK, onState });
      const events = await collect(sub, async (event) => {
        if (event.data.sequence === 1) {
          // Busy with event 1 while event 2 and the end arrive.
          sendRest?.();
          await waitFor(() => connectionGone, 'the first connection to be gone');
        }
      });

      assert.deepEqual(
        events.map((e) => e.data.sequence),
        [1, 2, 3, 4],
      );
      assert.equal(server.requests.length, 2, server.requests.map((r) => r.url).join(', '));
      assert.equal(
        afterOf(server.requests[1].url),
        '2',
        'the reconnect asks for what follows the event before the end',
      );
      const reconnecting = states.filter((s) => s.state === 'reconnecting');
      assert.equal(reconnecting.length, 1);
      assert.equal(reconnecting[0].state === 'reconnecting' && reconnecting[0].attempt, 1);
    });
  }

  it('a stream cut at once, again and again, is asked again soon: the backoff stops growing at its cut step', async () => {
    const cuts = 6;
    const server = await startServer((req, res, index) => {
      sseHead(res);
      if (index >= cuts) {
        finish(res, Number(afterOf(req.url ?? '') ?? 0));
        return;
      }
      // What a browser makes of a batch that came with the cut: nothing readable, then the error.
      res.write('id: 1\nevent: plan.cre');
      setImmediate(() => res.socket?.end());
    });
    const policy = { baseMs: 5, capMs: 30_000 };
    const { states, onState } = stateRecorder();
    const sub = new RunEventSubscription(clientFor(server.baseUrl), 'run_cuts', { backoff: policy, onState });
    const events = await collect(sub);

    assert.deepEqual(
      events.map((e) => e.data.sequence),
      [1, 2, 3, 4],
    );
    const reconnecting = states.flatMap((s) => (s.state === 'reconnecting' ? [s] : []));
    assert.deepEqual(
      reconnecting.map((s) => s.attempt),
      [1, 2, 3, 4, 5, 6],
      'each cut connection brought nothing: the attempts are counted',
    );
    const longest = policy.baseMs * 2 ** CUT_BACKOFF_STEPS;
    for (const s of reconnecting) {
      assert.ok(s.delayMs <= longest, `attempt ${s.attempt} waited ${s.delayMs} ms, more than ${longest} ms`);
    }
  });
});
