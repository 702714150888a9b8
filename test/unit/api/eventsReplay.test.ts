// Duplicate filtering: a server that ignores `after` and replays the whole run from sequence 1
// after a mid-run drop still gives the consumer each event once, in order.
import * as assert from 'node:assert/strict';
import { RunEventSubscription } from '../../../src/api/events';
import { collect, DELIVERY_PATHS } from './eventsSupport';
import { QUICK_BACKOFF, startRecordingServer } from './fixtures';
import { ApiClient } from './transportUnderTest';

function message(sequence: number, last: number): string {
  const event = sequence === last ? 'run.completed' : 'step.started';
  const data =
    sequence === last
      ? { sequence, status: 'completed' }
      : { sequence, step_id: `s${sequence}`, title: `step ${sequence}` };
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

describe('api/events duplicate filtering', () => {
  for (const via of DELIVERY_PATHS) {
    it(`delivers each event once and in order when the server replays from 1 after a drop (${via})`, async () => {
      const LAST = 6;
      const server = await startRecordingServer((_req, res, index) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        if (index === 0) {
          // Three events, then the connection dies mid-run.
          res.write([1, 2, 3].map((s) => message(s, LAST)).join(''), () => res.destroy());
          return;
        }
        // Every later connection ignores `after` and starts again from the beginning.
        const all = [1, 2, 3, 4, 5, 6].map((s) => message(s, LAST)).join('');
        res.end(all);
      });
      const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k-1234' });
      try {
        const sub = new RunEventSubscription(client, 'run_1', { idleTimeoutMs: 0, backoff: QUICK_BACKOFF });
        const seen = (await collect(sub, undefined, via)).map((event) => event.data.sequence);
        assert.deepEqual(seen, [1, 2, 3, 4, 5, 6]);
        assert.ok(server.requests.length >= 2, 'the stream was not dropped and reopened');
        assert.match(server.requests[1].url, /after=3/);
        assert.deepEqual(sub.state, { state: 'ended', status: 'completed' });
      } finally {
        await client.dispose();
        await server.close();
      }
    });
  }
});
