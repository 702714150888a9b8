// The pending approvals list: what "started waiting" means (not the first load), polling only
// while something waits or a run is watched, a server without approvals, a decision made here.
import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import type { ApprovalRecord } from '../../../src/api/types';
import { PendingApprovals, type PendingChange } from '../../../src/steering/pendingApprovals';
import { CapturingLogger } from '../api/fixtures';
import { ManualSchedule } from '../common/manualSchedule';

const approval = (id: string): ApprovalRecord => ({ id, tool: 'write_file', status: 'pending', run_id: `run_${id}` });

describe('steering/pendingApprovals', () => {
  function setUp(initial: ApprovalRecord[][], watching = false) {
    const clock = new ManualSchedule();
    const answers = [...initial];
    let fetches = 0;
    let failWith: unknown;
    const changes: PendingChange[] = [];
    let unsupported = 0;
    const list = new PendingApprovals({
      fetchPending: async () => {
        fetches++;
        if (failWith) {
          throw failWith;
        }
        return { approvals: answers.length > 1 ? answers.shift()! : answers[0], cut: false };
      },
      watching: () => watching,
      log: new CapturingLogger(),
      onUnsupported: () => unsupported++,
      schedule: clock.schedule,
    });
    list.onDidChange((c) => changes.push(c));
    return {
      clock,
      list,
      changes,
      get fetches() {
        return fetches;
      },
      get unsupported() {
        return unsupported;
      },
      fail(err: unknown) {
        failWith = err;
      },
      setWatching(w: boolean) {
        watching = w;
      },
    };
  }

  it('announces nothing as "added" on the first load, then only approvals that are new', async () => {
    const s = setUp([[approval('a')], [approval('a'), approval('b')]]);
    await s.list.refresh();
    assert.equal(s.changes.length, 1);
    assert.ok(s.changes[0].firstLoad);
    assert.deepEqual(s.changes[0].added, []);
    await s.list.refresh();
    assert.deepEqual(
      s.changes.at(-1)!.added.map((a) => a.id),
      ['b'],
    );
    assert.deepEqual(
      s.list.pending.map((a) => a.id),
      ['a', 'b'],
    );
  });

  it('polls while something waits and stops when nothing waits and no run is watched', async () => {
    const s = setUp([[approval('a')], []]);
    await s.list.refresh();
    assert.equal(s.clock.armed.length, 1, 'something waits: a poll is armed');
    await s.clock.tick();
    assert.equal(s.list.pending.length, 0);
    assert.equal(s.clock.armed.length, 0, 'nothing waits, nothing watched: no timer');
  });

  it('polls while a watched run goes even with nothing waiting', async () => {
    const s = setUp([[]], true);
    await s.list.refresh();
    assert.equal(s.clock.armed.length, 1);
    s.setWatching(false);
    s.list.update();
    assert.equal(s.clock.armed.length, 0);
  });

  it('a server without approvals: unsupported once, no more requests, no polling', async () => {
    const s = setUp([[]], true);
    s.fail(new ApiError({ kind: 'not_supported', status: 404, message: 'no' }));
    await s.list.refresh();
    assert.ok(s.list.isUnsupported);
    assert.equal(s.unsupported, 1);
    const before = s.fetches;
    await s.list.refresh();
    assert.equal(s.fetches, before);
    assert.equal(s.clock.armed.length, 0);
  });

  it('a failure is kept as the error (shown once), cleared by the next success', async () => {
    const s = setUp([[approval('a')]]);
    s.fail(new ApiError({ kind: 'server', status: 500, message: 'down' }));
    await s.list.refresh();
    assert.ok(s.list.error);
    s.fail(undefined);
    await s.list.refresh();
    assert.equal(s.list.error, undefined);
    assert.deepEqual(
      s.list.pending.map((a) => a.id),
      ['a'],
    );
  });

  it('a decision made here drops the approval at once', async () => {
    const s = setUp([[approval('a'), approval('b')]]);
    await s.list.refresh();
    s.list.forget('a');
    assert.deepEqual(
      s.list.pending.map((a) => a.id),
      ['b'],
    );
    assert.deepEqual(
      s.changes.at(-1)!.pending.map((a) => a.id),
      ['b'],
    );
  });
});
