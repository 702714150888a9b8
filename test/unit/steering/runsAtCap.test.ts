// The runs at their cap: the same polled list as the approvals (polledList.ts), plus what is its
// own: a row is redrawn when its run's cost moved, a server's not_supported is a failure like any
// other (runs are always offered), and a cut list says so.
import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import type { RunRecord } from '../../../src/api/types';
import { type AtCapChange, RunsAtCap } from '../../../src/steering/runsAtCap';
import { CapturingLogger } from '../api/fixtures';
import { ManualSchedule } from '../common/manualSchedule';

const run = (id: string, cost = '0.05'): RunRecord => ({
  id,
  status: 'awaiting_budget',
  budget: { amount: '0.05', currency: 'USD' },
  usage: { cost: { amount: cost, currency: 'USD' } },
});

describe('steering/runsAtCap', () => {
  function setUp(answers: { runs: RunRecord[]; cut?: boolean }[], watching = false) {
    const clock = new ManualSchedule();
    const changes: AtCapChange[] = [];
    let failWith: unknown;
    const list = new RunsAtCap({
      fetch: async () => {
        if (failWith) {
          throw failWith;
        }
        const next = answers.length > 1 ? answers.shift()! : answers[0];
        return { runs: next.runs, cut: next.cut === true };
      },
      watching: () => watching,
      log: new CapturingLogger(),
      schedule: clock.schedule,
    });
    list.onDidChange((c) => changes.push(c));
    return { clock, list, changes, fail: (err: unknown) => (failWith = err) };
  }

  it('announces the first load, then only runs that are new', async () => {
    const s = setUp([{ runs: [run('a')] }, { runs: [run('a'), run('b')] }]);
    await s.list.refresh();
    assert.equal(s.changes.length, 1);
    assert.ok(s.changes[0].firstLoad);
    assert.deepEqual(s.changes[0].added, []);
    await s.list.refresh();
    assert.deepEqual(
      s.changes[1].added.map((r) => r.id),
      ['b'],
    );
    assert.deepEqual(
      s.list.runs.map((r) => r.id),
      ['a', 'b'],
    );
  });

  it("redraws when a run's cost moved, and says nothing when nothing did", async () => {
    const s = setUp([{ runs: [run('a')] }, { runs: [run('a')] }, { runs: [run('a', '0.07')] }]);
    await s.list.refresh();
    await s.list.refresh();
    assert.equal(s.changes.length, 1, 'the same list again is no change');
    await s.list.refresh();
    assert.equal(s.changes.length, 2, 'a moved cost is one');
    assert.deepEqual(s.list.find('a')?.usage, { cost: { amount: '0.07', currency: 'USD' } });
  });

  it('keeps each run once, says when it is cut, and drops a run decided here at once', async () => {
    const s = setUp([{ runs: [run('a'), run('a'), run('b')], cut: true }]);
    await s.list.refresh();
    assert.deepEqual(
      s.list.runs.map((r) => r.id),
      ['a', 'b'],
    );
    assert.equal(s.list.cut, true);
    s.list.forget('a');
    assert.deepEqual(
      s.list.runs.map((r) => r.id),
      ['b'],
    );
    assert.equal(s.changes.length, 2);
  });

  it('a not_supported answer is a failure, not a server without the list: it keeps asking', async () => {
    const s = setUp([{ runs: [run('a')] }], true);
    s.fail(new ApiError({ kind: 'not_supported', message: 'no' }));
    await s.list.refresh();
    assert.ok(s.list.error instanceof ApiError);
    assert.equal(s.list.isUnsupported, false);
    assert.ok(s.list.polling, 'still polled');
    s.list.dispose();
  });
});
