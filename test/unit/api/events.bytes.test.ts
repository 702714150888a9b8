// The run event subscription against a raw SSE server that controls every byte: splits at
// every offset (inside multi-byte characters and CRLF pairs), cuts mid-message, silence,
// backpressure, and the socket freed by close().
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { ApiError } from '../../../src/api/errors';
import { RunEventSubscription } from '../../../src/api/events';
import type { RunEvent } from '../../../src/api/types';
import {
  afterOf,
  clientFor,
  collect,
  delay,
  DELIVERY_PATHS,
  rawServersPerTest,
  sseHead,
  sseMessage,
  stateRecorder,
  waitFor,
} from './eventsSupport';

const SUMMARY = 'naïve café — 日本語 🎉 done';

function write(res: ServerResponse, bytes: Uint8Array | string): Promise<void> {
  return new Promise((resolve) => {
    if (res.write(bytes)) {
      resolve();
    } else {
      res.once('drain', resolve);
    }
  });
}

describe('RunEventSubscription, byte by byte (raw SSE server)', function () {
  const startServer = rawServersPerTest();

  for (const [label, eol, via] of [
    ['LF', '\n', 'events'],
    ['CRLF', '\r\n', 'events'],
    ['CR', '\r', 'events'],
    ['LF', '\n', 'batches'],
    ['CR', '\r', 'batches'],
  ] as const) {
    it(`decodes messages split at every byte offset, inside multi-byte characters too (${label} line endings, ${via})`, async () => {
      const template = Buffer.from(
        sseMessage('observation.recorded', { sequence: 1, step_id: 'step_1', summary: SUMMARY }, eol),
      );
      const count = template.length + 1;
      const server = await startServer(async (_req, res) => {
        sseHead(res);
        for (let offset = 0; offset < count; offset++) {
          const message = Buffer.from(
            sseMessage('observation.recorded', { sequence: offset + 1, step_id: 'step_1', summary: SUMMARY }, eol),
          );
          await write(res, message.subarray(0, offset));
          await delay(1); // a separate TCP segment, so the client reads it as a separate chunk
          await write(res, message.subarray(offset));
        }
        res.end(sseMessage('run.completed', { sequence: count + 1, status: 'completed' }, eol));
      });
      const events = await collect(new RunEventSubscription(clientFor(server.baseUrl), 'run_bytes'), undefined, via);
      assert.equal(events.length, count + 1);
      events.slice(0, count).forEach((e, i) => {
        assert.equal(e.event, 'observation.recorded');
        assert.equal(e.known, true);
        assert.equal(e.data.sequence, i + 1);
        assert.equal(e.data.summary, SUMMARY);
      });
      assert.equal(events[count].event, 'run.completed');
    });
  }

  it('writes one byte at a time and still decodes every multi-byte character', async () => {
    const stream = Buffer.from(
      sseMessage('step.started', { sequence: 1, step_id: 'é', title: SUMMARY }) +
        sseMessage('observation.recorded', { sequence: 2, step_id: '日', summary: SUMMARY }, '\r\n') +
        sseMessage('run.completed', { sequence: 3, status: 'completed' }),
    );
    const server = await startServer(async (_req, res) => {
      sseHead(res);
      for (let i = 0; i < stream.length; i++) {
        await write(res, stream.subarray(i, i + 1));
        if (i % 8 === 0) {
          await delay(0);
        }
      }
      res.end();
    });
    const events = await collect(new RunEventSubscription(clientFor(server.baseUrl), 'run_bytes'));
    assert.deepEqual(
      events.map((e) => [e.event, e.data.sequence]),
      [
        ['step.started', 1],
        ['observation.recorded', 2],
        ['run.completed', 3],
      ],
    );
    assert.equal(events[0].data.title, SUMMARY);
    assert.equal(events[1].data.summary, SUMMARY);
  });

  it('joins multi-line data as the SSE spec says and ignores comments', async () => {
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.end(
        ': hello\n\nevent: plan.created\ndata: {"sequence": 1,\ndata:  "steps": 3, "strategy": "split"}\n\n: keep-alive\n\nevent: run.completed\ndata: {"sequence": 2}\n\n',
      );
    });
    const events = await collect(new RunEventSubscription(clientFor(server.baseUrl), 'run_lines'));
    assert.equal(events.length, 2);
    assert.equal(events[0].event, 'plan.created');
    assert.equal(events[0].known, true);
    assert.equal(events[0].data.steps, 3);
    assert.equal(events[1].event, 'run.completed');
  });

  for (const via of DELIVERY_PATHS) {
    it(`asks for text/event-stream and, after a cut inside a data line, resumes after the last whole message (${via})`, async () => {
      const server = await startServer((req, res, index) => {
        sseHead(res);
        if (index === 0) {
          const third = sseMessage('step.started', { sequence: 3, step_id: 's3', title: 'third' });
          res.write(
            sseMessage('plan.created', { sequence: 1, steps: 2, strategy: 's' }) +
              sseMessage('step.started', { sequence: 2, step_id: 's2', title: 'second' }) +
              third.slice(0, third.indexOf('"title"') + 4),
          );
          setTimeout(() => res.socket?.destroy(), 20);
          return;
        }
        const after = Number(afterOf(req.url ?? '') ?? 0);
        const rest = [
          sseMessage('step.started', { sequence: 3, step_id: 's3', title: 'third' }),
          sseMessage('run.completed', { sequence: 4, status: 'completed' }),
        ].filter((_m, i) => i + 3 > after);
        res.end(rest.join(''));
      });
      const recorder = stateRecorder();
      const events = await collect(
        new RunEventSubscription(clientFor(server.baseUrl), 'run_cut', { onState: recorder.onState }),
        undefined,
        via,
      );
      assert.deepEqual(
        events.map((e) => e.data.sequence),
        [1, 2, 3, 4],
      );
      assert.equal(events[2].data.title, 'third');
      assert.equal(server.requests[0].headers.accept, 'text/event-stream');
      assert.equal(afterOf(server.requests[0].url), undefined);
      assert.equal(afterOf(server.requests[1].url), '2');
      assert.ok(recorder.states.some((s) => s.state === 'reconnecting'));
    });
  }

  it('reconnects after silence longer than the idle timeout, resuming after the last event', async () => {
    const server = await startServer((req, res, index) => {
      sseHead(res);
      if (index === 0) {
        res.write(sseMessage('plan.created', { sequence: 1, steps: 1, strategy: 's' })); // then nothing at all
        return;
      }
      assert.equal(afterOf(req.url ?? ''), '1');
      res.end(sseMessage('run.completed', { sequence: 2, status: 'completed' }));
    });
    const recorder = stateRecorder();
    const sub = new RunEventSubscription(clientFor(server.baseUrl), 'run_idle', {
      idleTimeoutMs: 200,
      onState: recorder.onState,
    });
    const started = Date.now();
    const events = await collect(sub);
    assert.ok(Date.now() - started >= 190, 'waited about the idle timeout');
    assert.deepEqual(
      events.map((e) => e.data.sequence),
      [1, 2],
    );
    const reconnect = recorder.states.find((s) => s.state === 'reconnecting');
    assert.ok(reconnect && reconnect.state === 'reconnecting' && /no data for 200 ms/.test(reconnect.reason));
    assert.equal(server.requests.length, 2);
  });

  it('a terminal event with unexpected field types is delivered as unknown and still ends the subscription', async () => {
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.write(
        sseMessage('plan.created', { sequence: 1, steps: 1, strategy: 's' }) +
          sseMessage('run.completed', { sequence: 2, status: 3 }),
      );
      // the connection stays open: the subscription must end on the event, not on the close
    });
    const sub = new RunEventSubscription(clientFor(server.baseUrl), 'run_odd_end');
    const events = await collect(sub);
    assert.deepEqual(events[1], { event: 'run.completed', known: false, data: { sequence: 2, status: 3 } });
    assert.deepEqual(sub.state, { state: 'ended', status: 'completed' });
    assert.equal(server.requests.length, 1);
  });

  it('a 200 answer that is not an event stream, or a 204, fails with a protocol error instead of retrying', async () => {
    const server = await startServer((_req, res, index) => {
      if (index === 0) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>sign in to the proxy</html>');
      } else {
        res.writeHead(204);
        res.end();
      }
    });
    const baseUrl = server.baseUrl;
    for (const expected of [200, 204]) {
      const sub = new RunEventSubscription(clientFor(baseUrl), 'run_html');
      await assert.rejects(
        collect(sub),
        (err: unknown) => err instanceof ApiError && err.kind === 'protocol' && err.status === expected,
      );
      assert.equal(sub.state.state, 'failed');
    }
    assert.equal(server.requests.length, 2);
  });

  it('idleTimeoutMs Infinity switches the watchdog off instead of firing at once', async () => {
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.write(sseMessage('plan.created', { sequence: 1, steps: 1, strategy: 's' }));
    });
    const recorder = stateRecorder();
    const sub = new RunEventSubscription(clientFor(server.baseUrl), 'run_no_watchdog', {
      idleTimeoutMs: Infinity,
      onState: recorder.onState,
    });
    const iterator = sub[Symbol.asyncIterator]();
    assert.equal((await iterator.next()).done, false);
    const pending = iterator.next();
    await delay(300);
    sub.close();
    assert.equal((await pending).done, true);
    assert.deepEqual(
      recorder.states.map((s) => s.state),
      ['connecting', 'live'],
    );
  });

  it('close() mid-stream ends the iteration at once and frees the socket', async () => {
    let serverSideClosed = false;
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.on('close', () => (serverSideClosed = true));
      res.write(sseMessage('plan.created', { sequence: 1, steps: 1, strategy: 's' }));
    });
    const sub = new RunEventSubscription(clientFor(server.baseUrl), 'run_close');
    const iterator = sub[Symbol.asyncIterator]();
    const first = await iterator.next();
    assert.equal(first.done, false);
    const pending = iterator.next(); // waits for bytes that never come
    await delay(20);
    sub.close();
    assert.deepEqual(await pending, { done: true, value: undefined });
    await waitFor(() => serverSideClosed && server?.sockets.size === 0, 'the server to see the socket closed');
    assert.equal(server.requests.length, 1, 'no reconnect after close()');
  });

  it('an aborted signal stops the subscription and frees the socket', async () => {
    let serverSideClosed = false;
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.on('close', () => (serverSideClosed = true));
      res.write(sseMessage('plan.created', { sequence: 1, steps: 1, strategy: 's' }));
    });
    const controller = new AbortController();
    const sub = new RunEventSubscription(clientFor(server.baseUrl), 'run_abort', { signal: controller.signal });
    const seen: RunEvent[] = [];
    const done = collect(sub, (e) => {
      seen.push(e);
      controller.abort();
    });
    assert.equal((await done).length, 1);
    await waitFor(() => serverSideClosed, 'the server to see the socket closed');
  });

  it('a slow consumer holds the server back instead of buffering the stream', async () => {
    const total = 256 * 1024 * 1024;
    let written = 0;
    let blockedSince: number | undefined;
    const server = await startServer(async (_req, res) => {
      sseHead(res);
      let sequence = 0;
      while (written < total && !res.destroyed) {
        let batch = '';
        for (let i = 0; i < 200; i++) {
          batch += sseMessage('observation.recorded', { sequence: ++sequence, step_id: 's', summary: 'x'.repeat(200) });
        }
        written += Buffer.byteLength(batch);
        if (!res.write(batch)) {
          blockedSince = Date.now();
          await new Promise<void>((resolve) => {
            const go = () => {
              res.off('drain', go);
              res.off('close', go);
              resolve();
            };
            res.on('drain', go);
            res.on('close', go);
          });
          blockedSince = undefined;
        }
      }
    });
    const sub = new RunEventSubscription(clientFor(server.baseUrl), 'run_slow');
    const iterator = sub[Symbol.asyncIterator]();
    assert.equal((await iterator.next()).done, false); // then the consumer pauses
    await waitFor(() => blockedSince !== undefined && Date.now() - blockedSince > 300, 'the server to be held back');
    assert.ok(written < 32 * 1024 * 1024, `the server wrote only ${written} bytes, not the whole ${total}`);
    const next = await iterator.next();
    assert.equal(next.done, false);
    assert.equal(next.value?.data.sequence, 2);
    sub.close();
  });

  it("asks the run for its status when a server keeps closing a finished run's stream with nothing new", async () => {
    let opened = 0;
    const server = await startServer((_req, res) => {
      opened++;
      sseHead(res);
      res.end(); // a server that never re-sends the terminal event
    });
    const client = clientFor(server.baseUrl);
    // The real client opens the stream; the run status comes from a stand-in, as this raw server has no runs.
    const source = {
      openEventStream: client.openEventStream.bind(client),
      getRun: async () => ({ status: 'completed' }),
    };
    const recorder = stateRecorder();
    const sub = new RunEventSubscription(source, 'run_done', {
      after: 5,
      backoff: { baseMs: 1, capMs: 5 },
      onState: recorder.onState,
    });
    const events = await collect(sub);
    assert.deepEqual(events, []);
    assert.deepEqual(sub.state, { state: 'ended', status: 'completed' });
    assert.ok(opened >= 2 && opened <= 3, `opened ${opened} times before asking`);
  });
});
