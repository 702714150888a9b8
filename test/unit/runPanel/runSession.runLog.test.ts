// The whole log on the host, end to end over the reference runtime: a finished run longer than the
// model keeps answers `page` and `find` from every event, a restored panel reuses its log file
// and resumes appending, a damaged file is read again from the server, and without a usable
// log the answers come from the bounded model.
import * as assert from 'node:assert';
import { promises as fsp, writeFileSync } from 'node:fs';
import { matchesQuery, normalizeQuery } from '../../../src/runEvents/logQuery';
import type { RunSnapshot, WireEvent } from '../../../src/runEvents/wire';
import { logFilePath } from '../../../src/runLog/logFolder';
import { syntheticEvent } from '../../runtime/syntheticEvents';
import { tempFolder } from '../runLog/synthetic';
import { until } from './fakes';
import { SessionRig } from './sessionFixture';

const EVENTS = 3000;

describe('RunSession with the run log on disk', function () {
  this.timeout(60_000);
  const rig = new SessionRig();
  let folder: ReturnType<typeof tempFolder>;

  beforeEach(async () => {
    await rig.start({ faults: { dropStreamRandom: { seed: 3, maxEventsPerConnection: 700 } } });
    folder = tempFolder();
  });

  afterEach(async () => {
    await rig.stop();
    await new Promise((resolve) => setTimeout(resolve, 20));
    folder.remove();
  });

  function watch(runId: string, options: { restored?: RunSnapshot; logFolder?: string | null } = {}) {
    const { session, posted } = rig.watch(runId, {
      restored: options.restored,
      logFolder: options.logFolder === null ? undefined : (options.logFolder ?? folder.dir),
    });
    const ended = () => posted.some((m) => m.type === 'artifacts' && m.artifacts.state === 'loaded');
    return { session, posted, ended };
  }

  async function page(
    w: ReturnType<typeof watch>,
    sequence: number,
    direction: 'before' | 'after' | 'around',
    limit = 5,
  ) {
    const requestId = Math.floor(Math.random() * 1e9);
    await w.session.answer({ type: 'page', requestId, sequence, direction, limit, filter: {} });
    const answer = w.posted.find((m) => m.type === 'page' && m.requestId === requestId);
    assert.ok(answer?.type === 'page');
    return answer;
  }

  async function find(w: ReturnType<typeof watch>, query: string, from: number, direction: 'next' | 'prev') {
    const requestId = Math.floor(Math.random() * 1e9);
    await w.session.answer({ type: 'find', requestId, query, filter: {}, from, direction });
    const done = w.posted.find((m) => m.type === 'found' && m.requestId === requestId && m.done);
    assert.ok(done?.type === 'found');
    return done;
  }

  const seqs = (events: WireEvent[]) => events.map((e) => e.data.sequence);
  const finished = async (w: ReturnType<typeof watch>) => {
    await until(() => w.ended() && w.session.logComplete, 'run watched to the end and logged', 20);
  };

  it('a finished run of 3,000 events: pages and finds reach events the model no longer keeps', async () => {
    const runId = await rig.runtime.createSyntheticRun({ events: EVENTS, terminal: 'completed' });
    const w = watch(runId);
    await finished(w);
    const reset = w.posted.find((m) => m.type === 'reset');
    const first = await page(w, 0, 'after');
    assert.deepStrictEqual(seqs(first.events), [1, 2, 3, 4, 5]);
    assert.deepStrictEqual([first.before, first.after, first.total], [false, true, EVENTS + 1]);
    const around = await page(w, 1500, 'around', 3);
    assert.deepStrictEqual(seqs(around.events), [1499, 1500, 1501]);
    // The bounded model holds only the newest events.
    w.session.webviewReady();
    const latest = [...w.posted].reverse().find((m) => m.type === 'reset');
    assert.ok(
      reset &&
        latest?.type === 'reset' &&
        latest.snapshot.recent.length <= 1000 &&
        latest.snapshot.recent[0].data.sequence > 1500,
    );

    const q = normalizeQuery('Synthetic step 12');
    const expected: number[] = [];
    for (let s = 1; s <= EVENTS; s++) {
      const g = syntheticEvent(s, EVENTS, false);
      if (matchesQuery({ event: g.event, data: JSON.parse(g.dataJson) as WireEvent['data'] }, q)) {
        expected.push(s);
      }
    }
    const found = await find(w, 'Synthetic step 12', 0, 'next');
    assert.deepStrictEqual(
      [found.sequence, found.ordinal, found.count, found.total],
      [expected[0], 1, expected.length, EVENTS + 1],
    );
    const prev = await find(w, 'Synthetic step 12', expected[0], 'prev');
    assert.deepStrictEqual([prev.sequence, prev.ordinal], [expected[expected.length - 1], expected.length]);
    // Whole events not cut by the budget come from the log on disk.
    assert.deepStrictEqual((await w.session.fullEvent(2))?.data, JSON.parse(syntheticEvent(2, EVENTS, false).dataJson));
  });

  it('a restored panel reuses its log file and a damaged one is read again from the server', async () => {
    const runId = await rig.runtime.createSyntheticRun({ events: 1200, terminal: 'completed' });
    const first = watch(runId);
    await finished(first);
    first.session.webviewReady();
    const snapshot = [...first.posted].reverse().find((m) => m.type === 'reset');
    first.session.dispose();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const file = logFilePath(folder.dir, runId) as string;
    const size = (await fsp.stat(file)).size;
    // Restored with a snapshot at the end: nothing to read, the log is reused as it is.
    assert.ok(snapshot?.type === 'reset' && snapshot.snapshot.terminal);
    const restoredSnapshot = JSON.parse(JSON.stringify(snapshot.snapshot)) as RunSnapshot;
    const second = watch(runId, { restored: restoredSnapshot });
    await second.session.logReady;
    await until(() => second.session.logComplete, 'log reused', 20);
    assert.strictEqual((await fsp.stat(file)).size, size);
    assert.deepStrictEqual(seqs((await page(second, 0, 'after', 2)).events), [1, 2]);
    second.session.dispose();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Damaged: deleted, then filled again from sequence 0 though the model is at the end.
    writeFileSync(file, 'garbage\n');
    const third = watch(runId, { restored: restoredSnapshot });
    await third.session.logReady;
    assert.strictEqual(third.session.logComplete, false);
    await until(() => third.session.logComplete, 'log read again', 20);
    const p = await page(third, 0, 'after', 3);
    assert.deepStrictEqual([seqs(p.events), p.total], [[1, 2, 3], 1201]);
  });

  it("a run longer than the log's cap: the log stops there, the panel, find and export say so", async () => {
    const runId = await rig.runtime.createSyntheticRun({ events: EVENTS, terminal: 'completed' });
    const logLimits = { maxBytes: 60_000, maxRuns: 10 };
    const w = rig.watch(runId, { logFolder: folder.dir, logLimits });
    const ended = () => w.posted.some((m) => m.type === 'artifacts' && m.artifacts.state === 'loaded');
    await until(() => ended() && w.session.logComplete, 'run watched to the end', 20);
    const capped = w.session.logCappedAfter;
    assert.ok(capped !== undefined && capped > 10 && capped < EVENTS, `the log stops early: after ${capped}`);
    const size = (await fsp.stat(logFilePath(folder.dir, runId) as string)).size;
    assert.ok(size <= logLimits.maxBytes, `${size} bytes against a cap of ${logLimits.maxBytes}`);
    // The panel is told: an info message names the last event kept.
    const infos = w.posted.filter((m) => m.type === 'info');
    assert.strictEqual(infos[infos.length - 1]?.type === 'info' && infos[infos.length - 1].info.logCappedAfter, capped);
    // The model still saw the whole run live.
    assert.strictEqual(w.session.lastSequence, EVENTS + 1);
    // Pages and find reach the cap and no further.
    const requestId = 7;
    await w.session.answer({ type: 'page', requestId, sequence: capped, direction: 'after', limit: 5, filter: {} });
    const past = w.posted.find((m) => m.type === 'page' && m.requestId === requestId);
    assert.ok(past?.type === 'page' && past.events.length === 0 && !past.after);
    await w.session.answer({
      type: 'find',
      requestId: 8,
      query: 'run.completed',
      filter: {},
      from: 0,
      direction: 'next',
    });
    const found = w.posted.find((m) => m.type === 'found' && m.requestId === 8 && m.done);
    assert.ok(
      found?.type === 'found' && found.count === 0 && found.total === capped,
      'find searched what the log keeps',
    );
    // Export writes what it has and says where it stops.
    const target = `${folder.dir}/export.md`;
    const written = await w.session.exportLog('markdown', target);
    assert.strictEqual(written, capped);
    assert.match(
      await fsp.readFile(target, 'utf8'),
      new RegExp(`The log stops after event #${capped}: it reached its size limit`),
    );
  });

  it('without a log folder, pages and finds answer from the bounded model', async () => {
    const runId = await rig.runtime.createSyntheticRun({ events: EVENTS, terminal: 'completed' });
    const w = watch(runId, { logFolder: null });
    await until(() => w.ended(), 'ended', 20);
    const p = await page(w, 0, 'after', 3);
    assert.ok(p.events[0].data.sequence > 1000 && p.before === false && (p.total ?? 0) <= 1000);
    const found = await find(w, 'Synthetic step 12', 0, 'next');
    assert.ok(found.count < 11);
  });
});
