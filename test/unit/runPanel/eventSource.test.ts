// The panel reads batches: a subscription's own (one array per read), or, from a source without
// batches, one event per batch; either way every event once, in order.
import * as assert from 'node:assert';
import { batchesOf, type StreamedEvent } from '../../../src/runPanel/eventSource';

const ev = (sequence: number): StreamedEvent => ({ event: 'step.started', data: { sequence } });

async function collect(source: AsyncIterable<readonly StreamedEvent[]>): Promise<number[][]> {
  const out: number[][] = [];
  for await (const batch of source) {
    out.push(batch.map((e) => e.data.sequence));
  }
  return out;
}

describe('batchesOf', () => {
  it("takes the source's batches as they come", async () => {
    const source = {
      async *[Symbol.asyncIterator]() {
        yield ev(99); // never read: the batches are
      },
      async *batches() {
        yield [ev(1), ev(2), ev(3)];
        yield [ev(4)];
      },
    };
    assert.deepStrictEqual(await collect(batchesOf(source)), [[1, 2, 3], [4]]);
  });

  it('reads a source without batches one event at a time', async () => {
    const source = {
      async *[Symbol.asyncIterator]() {
        yield ev(1);
        yield ev(2);
      },
    };
    assert.deepStrictEqual(await collect(batchesOf(source)), [[1], [2]]);
  });
});
