// Status polling: the backoff schedule and when the timer runs, on a manual clock.
import * as assert from 'node:assert/strict';
import { PollBackoff, StatusPoller } from '../../../src/common/statusPoller';
import { ManualSchedule } from './manualSchedule';

describe('views/statusPoller', () => {
  it('doubles the delay from 2 s up to 30 s and starts over on reset', () => {
    const b = new PollBackoff();
    assert.deepEqual(
      [b.next(), b.next(), b.next(), b.next(), b.next(), b.next()],
      [2000, 4000, 8000, 16000, 30000, 30000],
    );
    b.reset();
    assert.equal(b.next(), 2000);
  });

  it('backs off while nothing changes and starts over when something does', async () => {
    const clock = new ManualSchedule();
    const answers = [false, false, true, false];
    let polls = 0;
    const poller = new StatusPoller({
      poll: async () => answers[polls++] ?? false,
      wanted: () => true,
      schedule: clock.schedule,
    });
    poller.kick();
    const delays = [await clock.tick(), await clock.tick(), await clock.tick(), await clock.tick(), await clock.tick()];
    assert.deepEqual(delays, [2000, 4000, 8000, 2000, 4000]);
    assert.equal(polls, 5);
    poller.dispose();
  });

  it('does not poll while nothing is wanted (e.g. the view is hidden) and stops when that changes', async () => {
    const clock = new ManualSchedule();
    let wanted = false;
    let polls = 0;
    const poller = new StatusPoller({
      poll: async () => (polls++, false),
      wanted: () => wanted,
      schedule: clock.schedule,
    });
    poller.kick();
    assert.deepEqual(clock.armed, []);
    wanted = true;
    poller.update();
    assert.deepEqual(clock.armed, [2000]);
    wanted = false;
    poller.update();
    assert.deepEqual(clock.armed, [], 'the timer is cancelled');
    assert.equal(polls, 0);
  });

  it('keeps one timer however often it is kicked', () => {
    const clock = new ManualSchedule();
    const poller = new StatusPoller({ poll: async () => false, wanted: () => true, schedule: clock.schedule });
    poller.kick();
    poller.kick();
    poller.update();
    assert.deepEqual(clock.armed, [2000]);
    assert.ok(poller.scheduled);
  });

  it('is not put off by kicks that come faster than its first delay', async () => {
    const clock = new ManualSchedule();
    let armings = 0;
    let polls = 0;
    const poller = new StatusPoller({
      poll: async () => (polls++, false),
      wanted: () => true,
      schedule: (run, ms) => (armings++, clock.schedule(run, ms)),
    });
    poller.kick();
    poller.kick();
    poller.kick();
    assert.equal(armings, 1, 'the timer due after the first delay was kept, not set again');
    await clock.tick();
    await clock.tick();
    assert.deepEqual(clock.armed, [4000], 'the delay started over at the last kick');
    poller.kick();
    assert.deepEqual(clock.armed, [2000], 'a longer wait is cut short by a kick');
    assert.equal(polls, 2);
    poller.dispose();
  });

  it('goes on after a failed poll, with a longer delay, and reports the failure', async () => {
    const clock = new ManualSchedule();
    const errors: unknown[] = [];
    const poller = new StatusPoller({
      poll: async () => {
        throw new Error('offline');
      },
      wanted: () => true,
      schedule: clock.schedule,
      onError: (e) => errors.push(e),
    });
    poller.kick();
    await clock.tick();
    assert.equal(errors.length, 1);
    assert.deepEqual(clock.armed, [4000]);
  });

  it('arms nothing after dispose, even from a poll that was running', async () => {
    const clock = new ManualSchedule();
    let finish: (v: boolean) => void = () => undefined;
    const poller = new StatusPoller({
      poll: () => new Promise<boolean>((r) => (finish = r)),
      wanted: () => true,
      schedule: clock.schedule,
    });
    poller.kick();
    await clock.tick();
    poller.dispose();
    finish(true);
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setImmediate(r));
    }
    assert.deepEqual(clock.armed, []);
    poller.kick();
    assert.deepEqual(clock.armed, []);
  });
});
