// The webview's drawing rule, on a fake clock and fake animation frames: the first change after
// a quiet spell is drawn in the next frame, a burst costs one draw, nothing that changed is
// lost, and only costly drawing is spaced out.
import * as assert from 'node:assert';
import { DrawScheduler, type FrameClock } from '../../../src/webview/drawScheduler';
import type { Change } from '../../../src/webview/reducer';

class FakeFrames implements FrameClock {
  time = 1000;
  frames: (() => void)[] = [];
  timers: { at: number; fn: () => void }[] = [];
  requestFrame(fn: () => void): void {
    this.frames.push(fn);
  }
  setTimeout(fn: () => void, ms: number): void {
    this.timers.push({ at: this.time + ms, fn });
  }
  now(): number {
    return this.time;
  }
  /** Runs the frame callbacks requested so far (one animation frame). */
  frame(): void {
    const due = this.frames;
    this.frames = [];
    for (const fn of due) {
      fn();
    }
  }
  /** Moves time on, running the timers that fall due (not the frames). */
  advance(ms: number): void {
    this.time += ms;
    const due = this.timers.filter((t) => t.at <= this.time);
    this.timers = this.timers.filter((t) => t.at > this.time);
    for (const t of due) {
      t.fn();
    }
  }
}

function setup(drawCostMs = 0) {
  const clock = new FakeFrames();
  const draws: Change[] = [];
  const scheduler = new DrawScheduler((change) => {
    draws.push(change);
    clock.time += drawCostMs;
  }, clock);
  return { clock, draws, scheduler };
}

describe('DrawScheduler', () => {
  it('draws the first change after a quiet spell in the next frame, and the next change in the frame after', () => {
    const { clock, draws, scheduler } = setup(2);
    scheduler.schedule({ rows: true, appendedOnly: true });
    assert.strictEqual(clock.frames.length, 1, 'a frame is requested at once');
    assert.strictEqual(clock.timers.length, 0, 'no waiting before it');
    clock.frame();
    assert.strictEqual(draws.length, 1);
    // 5 ms later (well within 50 ms of the last draw) the next event arrives: drawn in the next frame too.
    clock.advance(5);
    scheduler.schedule({ rows: true, appendedOnly: true });
    assert.strictEqual(clock.frames.length, 1, 'the second change waits for no interval either');
    clock.frame();
    assert.strictEqual(draws.length, 2);
  });

  it('merges a burst of changes into one draw that carries every kind of change', () => {
    const { clock, draws, scheduler } = setup();
    scheduler.schedule({ rows: true, appendedOnly: true });
    for (let i = 0; i < 100; i++) {
      scheduler.schedule({ rows: true, appendedOnly: true });
    }
    scheduler.schedule({ header: true });
    scheduler.schedule({ artifacts: true });
    scheduler.schedule({ rows: true, appendedOnly: false });
    assert.strictEqual(clock.frames.length, 1, 'one frame for the whole burst');
    clock.frame();
    assert.deepStrictEqual(draws, [{ rows: true, header: true, artifacts: true, reset: false, appendedOnly: false }]);
    clock.frame();
    assert.strictEqual(draws.length, 1, 'nothing left to draw');
  });

  it('spaces out costly draws so that drawing takes at most half the thread, but draws user actions in the next frame', () => {
    const { clock, draws, scheduler } = setup(30);
    scheduler.schedule({ rows: true });
    clock.frame(); // took 30 ms
    scheduler.schedule({ rows: true });
    assert.strictEqual(clock.frames.length, 0, 'the next streamed draw waits');
    clock.advance(29);
    assert.strictEqual(clock.frames.length, 0);
    clock.advance(1);
    assert.strictEqual(clock.frames.length, 1, 'as long as the last draw took');
    clock.frame();
    assert.strictEqual(draws.length, 2);
    scheduler.schedule({ rows: true, reset: true });
    assert.strictEqual(clock.frames.length, 1, 'a user action is drawn in the next frame');
    clock.frame();
    assert.strictEqual(draws.length, 3);
    assert.strictEqual(draws[2].reset, true);
  });

  it('a user action (reset) waiting behind a spaced-out draw is drawn in the next frame, once', () => {
    const { clock, draws, scheduler } = setup(40);
    scheduler.schedule({ rows: true, appendedOnly: true });
    clock.frame(); // a costly draw: the next streamed one waits 40 ms
    scheduler.schedule({ rows: true, appendedOnly: true });
    assert.equal(clock.frames.length, 0, 'the streamed draw waits for its timer');
    scheduler.schedule({ rows: true, reset: true, appendedOnly: false });
    assert.equal(clock.frames.length, 1, 'the user action waited behind the spacing timer');
    clock.frame();
    assert.equal(draws.length, 2);
    assert.equal(draws[1].reset, true);
    clock.advance(100);
    clock.frame();
    assert.equal(draws.length, 2, 'the stale timer drew again');
  });
});
