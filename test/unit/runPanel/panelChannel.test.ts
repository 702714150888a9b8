// The host's wire to a webview: nothing before `ready`, a reset first, then rate-limited batches.
import * as assert from 'node:assert';
import { PanelChannel } from '../../../src/runPanel/panelChannel';
import type { HostMessage } from '../../../src/runPanel/protocol';
import { DEFAULT_UI_STRINGS } from '../../../src/runPanel/protocol';
import { ev } from '../webview/fixtures';
import { emptySnapshot } from '../webview/fixtures';
import { ManualClock } from './fakes';

function setup(options: { intervalMs?: number; maxEventsPerMessage?: number } = {}) {
  const clock = new ManualClock();
  const posted: HostMessage[] = [];
  let resets = 0;
  const channel = new PanelChannel(
    (m) => posted.push(m),
    () => {
      resets++;
      return {
        type: 'reset',
        snapshot: emptySnapshot('run_x'),
        info: { runId: 'run_x' },
        connection: { state: 'live' },
        artifacts: { state: 'none' },
        strings: DEFAULT_UI_STRINGS,
      };
    },
    clock.now,
    { ...options, timers: clock },
  );
  return { clock, posted, channel, resets: () => resets };
}

describe('PanelChannel', () => {
  it('posts nothing until the webview is ready, then a reset that carries the state', () => {
    const { clock, posted, channel, resets } = setup();
    channel.events([ev('step.started', 1)]);
    channel.send({ type: 'connection', connection: { state: 'live' } });
    clock.advance(1000);
    assert.strictEqual(posted.length, 0);
    assert.strictEqual(clock.pending, 0, 'no timer left behind');
    channel.markReady();
    assert.deepStrictEqual(
      posted.map((m) => m.type),
      ['reset'],
    );
    assert.strictEqual(resets(), 1);
  });

  it('merges events arriving within an interval into one message', () => {
    const { clock, posted, channel } = setup({ intervalMs: 32 });
    channel.markReady();
    for (let i = 1; i <= 100; i++) {
      channel.events([ev('tool.called', i)]);
      clock.advance(0.2);
    }
    clock.advance(40);
    const batches = posted.filter((m) => m.type === 'events');
    assert.strictEqual(batches.length, 1);
    assert.strictEqual(batches[0].type === 'events' && batches[0].events.length, 100);
  });

  it('posts event batches at most once per interval', () => {
    const { clock, posted, channel } = setup({ intervalMs: 32 });
    channel.markReady();
    const times: number[] = [];
    const originalLength = () => posted.length;
    let seen = originalLength();
    for (let i = 1; i <= 500; i++) {
      channel.events([ev('tool.called', i)]);
      clock.advance(1);
      if (posted.length !== seen) {
        seen = posted.length;
        times.push(clock.time);
      }
    }
    for (let i = 1; i < times.length; i++) {
      assert.ok(times[i] - times[i - 1] >= 32, `gap ${times[i] - times[i - 1]} ms`);
    }
    clock.advance(100);
    const delivered = posted.flatMap((m) => (m.type === 'events' ? m.events.map((e) => e.data.sequence) : []));
    assert.deepStrictEqual(
      delivered,
      Array.from({ length: 500 }, (_, i) => i + 1),
    );
  });

  it('posts the first event after a quiet spell at once, and merges a burst into one post a frame later', () => {
    const { clock, posted, channel } = setup({ intervalMs: 16 });
    channel.markReady();
    clock.advance(1000); // quiet
    channel.events([ev('tool.called', 1)]);
    assert.deepStrictEqual(
      posted.map((m) => m.type),
      ['reset', 'events'],
      'the first event goes without waiting for any timer',
    );
    // A burst: 99 events within the frame after that post.
    for (let i = 2; i <= 100; i++) {
      channel.events([ev('tool.called', i)]);
      clock.advance(0.1);
    }
    assert.strictEqual(posted.length, 2, 'the burst waits for the frame');
    clock.advance(16);
    assert.strictEqual(posted.length, 3, 'one post for the whole burst');
    const delivered = posted.flatMap((m) => (m.type === 'events' ? m.events.map((e) => e.data.sequence) : []));
    assert.deepStrictEqual(
      delivered,
      Array.from({ length: 100 }, (_, i) => i + 1),
      'nothing dropped, in order',
    );
    // Quiet again: the next event goes at once again.
    clock.advance(500);
    channel.events([ev('tool.called', 101)]);
    assert.strictEqual(posted.length, 4);
  });

  it('while a run streams, posts at most every 50 ms (each post is a draw); the first after a quiet spell goes at once', () => {
    const { clock, posted, channel } = setup();
    channel.markReady();
    channel.ack(1); // the reset
    clock.advance(1000);
    // 100 events a second for a second, each post acknowledged at once by a quick webview.
    let acked = 1;
    for (let i = 1; i <= 100; i++) {
      channel.events([ev('tool.called', i)]);
      if (i === 1) {
        assert.strictEqual(posted.length, 2, 'the first event after a quiet spell goes at once');
      }
      for (const m of posted) {
        if (m.type === 'events' && (m.batch ?? 0) > acked) {
          acked = m.batch ?? 0;
          channel.ack(acked);
        }
      }
      clock.advance(10);
    }
    clock.advance(100);
    const lastPost = posted[posted.length - 1];
    channel.ack(lastPost.type === 'events' ? (lastPost.batch ?? 0) : 0);
    const posts = posted.filter((m) => m.type === 'events');
    assert.ok(posts.length <= 21, `at most 20 posts a second, not ${posts.length}`);
    assert.deepStrictEqual(
      posts.flatMap((m) => (m.type === 'events' ? m.events.map((e) => e.data.sequence) : [])),
      Array.from({ length: 100 }, (_, i) => i + 1),
      'nothing dropped, in order',
    );
    // 10 events a second: each one goes at once.
    clock.advance(1000);
    for (let i = 101; i <= 105; i++) {
      const before = posted.length;
      channel.events([ev('tool.called', i)]);
      assert.strictEqual(posted.length, before + 1, `event ${i} goes at once`);
      const last = posted[posted.length - 1];
      channel.ack(last.type === 'events' ? (last.batch ?? 0) : 0);
      clock.advance(100);
    }
  });

  it('merges events while a post is in flight and posts them when it is acknowledged', () => {
    const { clock, posted, channel } = setup({ intervalMs: 16 });
    channel.markReady();
    channel.ack(1); // the reset
    clock.advance(100);
    channel.events([ev('tool.called', 1)]);
    assert.strictEqual(posted.length, 2, 'quiet: posted at once');
    clock.advance(20); // a frame has passed, but the post is not acknowledged yet
    channel.events([ev('tool.called', 2)]);
    channel.events([ev('tool.called', 3)]);
    assert.strictEqual(posted.length, 2, 'waits while a post is in flight');
    clock.advance(2);
    const first = posted[1];
    channel.ack(first.type === 'events' ? (first.batch ?? 0) : 0);
    assert.strictEqual(posted.length, 3, 'the ack lets what waited go at once');
    const last = posted[2];
    assert.deepStrictEqual(last.type === 'events' && last.events.map((e) => e.data.sequence), [2, 3]);
    // No ack for that one: what comes next waits past a frame, and goes after two at the latest.
    clock.advance(20);
    channel.events([ev('tool.called', 4)]);
    clock.advance(20);
    assert.strictEqual(posted.length, 3, 'a frame is not enough while a post is in flight');
    clock.advance(12);
    assert.strictEqual(posted.length, 4, 'without an ack it goes after the in-flight wait');
  });

  it('takes a huge array of events onto a queued message without throwing', () => {
    const { clock, posted, channel } = setup({ intervalMs: 16 });
    channel.markReady();
    channel.events([ev('tool.called', 1)]); // queued: within a frame of the reset
    const huge = Array.from({ length: 300_000 }, (_, i) => ev('tool.called', i + 2));
    channel.events(huge); // past the cap: collapses into a reset, but must not throw first
    clock.advance(100);
    assert.strictEqual(posted[posted.length - 1].type, 'reset');
  });

  it('a webview that falls behind gets one fresh reset instead of an ever-growing queue', () => {
    const { clock, posted, channel, resets } = setup({ maxEventsPerMessage: 1000 });
    channel.markReady();
    let most = 0;
    let sequence = 0;
    // 300,000 events arrive faster than one interval: nothing can be posted meanwhile.
    for (let batch = 0; batch < 300; batch++) {
      channel.events(Array.from({ length: 1000 }, () => ev('tool.called', ++sequence)));
      most = Math.max(most, channel.pendingEvents);
    }
    assert.ok(most <= 20_000, `${most} events waited at once`);
    clock.advance(1000);
    assert.strictEqual(resets(), 2, 'the initial reset, then one fresh one instead of the backlog');
    const delivered = posted.flatMap((m) => (m.type === 'events' ? m.events : []));
    assert.ok(delivered.length <= 20_000, `${delivered.length} queued events were still posted`);
  });

  it('once the webview acknowledges, posts wait for its acks and a silent webview costs no more than the cap', () => {
    const { clock, posted, channel, resets } = setup({ maxEventsPerMessage: 100 });
    channel.markReady();
    channel.ack(0);
    let sequence = 0;
    let most = 0;
    for (let round = 0; round < 200; round++) {
      channel.events(Array.from({ length: 500 }, () => ev('tool.called', ++sequence)));
      most = Math.max(most, channel.pendingEvents);
      clock.advance(40);
    }
    // The reset went before the first ack; then 4 unacknowledged messages, and nothing more.
    assert.strictEqual(posted.length, 1 + 4, `${posted.length} messages posted without acks`);
    assert.ok(most <= 20_000, `${most} events waited at once`);
    assert.ok(channel.pendingEvents <= 20_000);
    assert.ok(channel.collapses >= 1);
    const last = posted[posted.length - 1];
    channel.ack(last.type === 'events' || last.type === 'reset' ? (last.batch ?? 0) : 0);
    clock.advance(40);
    assert.strictEqual(posted[posted.length - 1].type, 'reset', 'caught up, it gets one fresh reset');
    assert.strictEqual(resets(), 2);
    channel.events([ev('tool.called', ++sequence)]);
    clock.advance(40);
    // The reset is not acknowledged yet but the window has room: live events follow it.
    const after = posted[posted.length - 1];
    assert.ok(after.type === 'events' && after.events[0].data.sequence === sequence);
  });

  it("answers to the webview's requests go at once, past a full window and a pending reset, and only while it listens", () => {
    const { posted, channel } = setup({ maxEventsPerMessage: 100 });
    const answer: HostMessage = {
      type: 'page',
      requestId: 7,
      events: [ev('tool.called', 1)],
      before: false,
      after: false,
      total: 1,
    };
    channel.reply(answer);
    assert.strictEqual(posted.length, 0, 'nothing before ready');
    channel.markReady();
    channel.ack(0);
    let sequence = 0;
    // Unacknowledged messages fill the window and the backlog collapses into a reset that waits.
    for (let round = 0; round < 50; round++) {
      channel.events(Array.from({ length: 1000 }, () => ev('tool.called', ++sequence)));
    }
    assert.ok(channel.collapses >= 1);
    const before = posted.length;
    channel.reply(answer);
    channel.reply({ type: 'found', requestId: 8, count: 0, scanned: 0, total: 0, done: true });
    assert.deepStrictEqual(
      posted.slice(before).map((m) => m.type),
      ['page', 'found'],
    );
    channel.markGone();
    channel.reply(answer);
    assert.strictEqual(posted.length, before + 2);
  });

  it('numbers the messages it posts so that the webview can acknowledge them', () => {
    const { clock, posted, channel } = setup({ intervalMs: 16 });
    channel.markReady();
    channel.events([ev('x', 1)]);
    clock.advance(40);
    channel.events([ev('x', 2)]);
    clock.advance(40);
    const batches = posted.map((m) => (m.type === 'reset' || m.type === 'events' ? m.batch : undefined));
    assert.deepStrictEqual(batches, [1, 2, 3]);
  });

  it('splits a backlog into messages of bounded size, in order', () => {
    const { clock, posted, channel } = setup({ maxEventsPerMessage: 10 });
    channel.markReady();
    channel.events(Array.from({ length: 35 }, (_, i) => ev('x', i + 1)));
    channel.send({ type: 'connection', connection: { state: 'ended', status: 'completed' } });
    clock.advance(1000);
    const sizes = posted.map((m) => (m.type === 'events' ? m.events.length : m.type));
    assert.deepStrictEqual(sizes, ['reset', 10, 10, 10, 5, 'connection']);
  });

  it('keeps other messages in their place among the events', () => {
    const { clock, posted, channel } = setup();
    channel.markReady();
    channel.events([ev('a', 1)]);
    channel.send({
      type: 'connection',
      connection: { state: 'reconnecting', attempt: 1, delayMs: 500, reason: 'drop' },
    });
    channel.events([ev('a', 2)]);
    clock.advance(100);
    assert.deepStrictEqual(
      posted.map((m) => m.type),
      ['reset', 'events', 'connection', 'events'],
    );
  });

  it('drops what was queued when the page goes away and sends a fresh reset when it is back', () => {
    const { clock, posted, channel, resets } = setup();
    channel.markReady();
    channel.events([ev('a', 1)]);
    channel.markGone();
    clock.advance(100);
    assert.deepStrictEqual(
      posted.map((m) => m.type),
      ['reset'],
    );
    channel.events([ev('a', 2)]);
    channel.markReady();
    clock.advance(100);
    assert.deepStrictEqual(
      posted.map((m) => m.type),
      ['reset', 'reset'],
    );
    assert.strictEqual(resets(), 2);
  });

  it('posts nothing after dispose and leaves no timer', () => {
    const { clock, posted, channel } = setup();
    channel.markReady();
    channel.events([ev('a', 1)]);
    channel.dispose();
    clock.advance(100);
    assert.strictEqual(posted.length, 1);
    assert.strictEqual(clock.pending, 0);
  });
});
