// The run store: the one owner of run facts. It polls only what somebody wants and nobody
// streams, announces a change only when what is shown differs, and a run's end exactly once.
import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import type { RunRecord } from '../../../src/api/types';
import { type RunChange, RunStore } from '../../../src/runs/runStore';
import { CapturingLogger } from '../api/fixtures';
import { ManualSchedule } from '../common/manualSchedule';

function store(records: Map<string, RunRecord | Error>) {
  const clock = new ManualSchedule();
  const fetched: string[] = [];
  const changes: RunChange[] = [];
  const runs = new RunStore({
    fetchRun: async (id) => {
      fetched.push(id);
      const r = records.get(id);
      if (r instanceof Error) {
        throw r;
      }
      if (!r) {
        throw new ApiError({ kind: 'not_found', message: 'no' });
      }
      return { ...r };
    },
    log: new CapturingLogger(),
    schedule: clock.schedule,
  });
  runs.onDidChange((c) => void changes.push(c));
  return { runs, clock, fetched, changes };
}

describe('runs/runStore', () => {
  it('polls nothing until a row shows a run or the run was started here', async () => {
    const { runs, clock } = store(new Map([['run_1', { id: 'run_1', status: 'running' }]]));
    runs.noteRecord({ id: 'run_1', status: 'running' });
    assert.equal(clock.armed.length, 0, 'known but wanted by nobody');
    const shown = runs.show('run_1');
    assert.equal(clock.armed.length, 1);
    shown.dispose();
    assert.equal(clock.armed.length, 0, 'the row went away: polling stops');
    runs.dispose();
  });

  it('with a runs list, looks at it at a flat cadence however many rows are shown meanwhile', async () => {
    const clock = new ManualSchedule();
    let lists = 0;
    const runs = new RunStore({
      fetchRun: async () => assert.fail('no request per run'),
      listRuns: async () => (lists++, { object: 'list', data: [], has_more: false, next_cursor: null }),
      log: new CapturingLogger(),
      schedule: clock.schedule,
    });
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      runs.show(`run_${i}`); // rows shown one after another, between looks
      delays.push(await clock.tick());
    }
    assert.deepEqual(delays, [2000, 4000, 8000, 8000, 8000], 'shown rows do not keep the looks at 2 s');
    assert.equal(lists, 5, 'one list a look');
    runs.follow('run_new');
    assert.deepEqual(clock.armed, [2000], 'a run started here is looked at soon');
    runs.dispose();
  });

  it('reads a run followed after the runs list showed it, which the list will not show again', async () => {
    const clock = new ManualSchedule();
    const fetched: string[] = [];
    const ended = { id: 'run_ended', status: 'failed', updated_at: '2026-01-01T00:00:00.000Z' };
    const runs = new RunStore({
      fetchRun: async (id) => (
        fetched.push(id),
        id === ended.id ? { ...ended } : { id, status: 'running', updated_at: '2026-01-01T00:00:01.000Z' }
      ),
      listRuns: async (params) => ({
        object: 'list',
        data: params.updated_after ? [] : [ended],
        has_more: false,
        next_cursor: null,
      }),
      log: new CapturingLogger(),
      schedule: clock.schedule,
    });
    runs.show('run_other');
    await clock.tick(); // the first look lists run_ended (nobody here knows it yet)
    runs.follow('run_ended');
    await clock.tick();
    assert.deepEqual(fetched, ['run_other', 'run_ended'], 'each read on its own once: neither had a record');
    assert.equal(runs.get('run_ended')?.terminal, true, 'its end is known');
    runs.dispose();
  });

  it('cuts a first page longer than it asked for', async () => {
    const { ChangeFeed, CHANGE_PAGE_LIMIT } = await import('../../../src/runs/changeFeed');
    const many = Array.from({ length: 5_000 }, (_, i) => ({ id: `run_${i}` }));
    const feed = new ChangeFeed<{ id: string }>({
      list: async () => ({ object: 'list', data: many, has_more: false, next_cursor: null }),
    });
    const look = await feed.read();
    assert.equal(look.changed.length, CHANGE_PAGE_LIMIT);
    assert.ok(!look.covers('run_4999'));
  });

  it('does not poll a run a panel streams, and takes its status from the stream', async () => {
    const { runs, clock, fetched, changes } = store(new Map([['run_1', { id: 'run_1', status: 'running' }]]));
    runs.noteRecord({ id: 'run_1', status: 'queued', task_id: 'task_1' });
    runs.show('run_1');
    const stream = runs.stream('run_1');
    assert.equal(clock.armed.length, 0, 'the stream covers it');
    runs.noteStreamEvents('run_1', 3, 'approval.requested');
    assert.equal(runs.get('run_1')?.status, 'awaiting_approval');
    assert.equal(runs.get('run_1')?.record?.status, 'awaiting_approval', 'the record shown carries the fresher status');
    runs.noteStreamEvents('run_1', 5, 'step.started');
    assert.equal(runs.get('run_1')?.status, 'running');
    assert.equal(runs.get('run_1')?.lastSequence, 5);
    assert.deepEqual(fetched, [], 'no request while streaming');
    assert.ok(changes.every((c) => !c.finished));
    stream.dispose();
    assert.equal(clock.armed.length, 1, 'the panel closed: the shown row is polled again');
    runs.dispose();
  });

  it("announces a run's end exactly once, whether the stream or a poll saw it first", async () => {
    const records = new Map<string, RunRecord | Error>([['run_1', { id: 'run_1', status: 'running' }]]);
    const { runs, clock, changes } = store(records);
    runs.follow('run_1', 'task_1');
    assert.equal(runs.activeFollowed, 1);
    records.set('run_1', { id: 'run_1', status: 'completed' });
    runs.noteStreamEvents('run_1', 9, 'run.completed');
    await clock.tick().catch(() => undefined);
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setImmediate(r));
    }
    const finished = changes.filter((c) => c.finished);
    assert.equal(finished.length, 1);
    assert.equal(finished[0].facts.status, 'completed');
    assert.ok(finished[0].facts.followed);
    assert.equal(runs.activeFollowed, 0);
    assert.equal(clock.armed.length, 0, 'an ended run is not polled');
    runs.dispose();
  });

  it('keeps a run the stream saw complete completed when an older running record comes after (a poll or a page), and polls it no more', async () => {
    // The server's record lags the stream: every GET still says running.
    const { runs, clock, changes } = store(new Map([['run_1', { id: 'run_1', status: 'running' }]]));
    runs.follow('run_1', 'task_1');
    runs.show('run_1');
    const stream = runs.stream('run_1');
    runs.noteStreamEvents('run_1', 9, 'run.completed');
    // The one re-read after the end brings the older record.
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setImmediate(r));
    }
    runs.noteRecord({ id: 'run_1', status: 'running', task_id: 'task_1' });
    stream.dispose();
    assert.equal(runs.get('run_1')?.status, 'completed');
    assert.equal(runs.get('run_1')?.terminal, true);
    assert.equal(runs.get('run_1')?.record?.status, 'completed', "the record shown carries the stream's status");
    assert.equal(clock.armed.length, 0, 'an ended run is not polled, though a row shows it');
    assert.equal(runs.activeFollowed, 0);
    assert.deepEqual(
      changes.filter((c) => c.finished).map((c) => c.facts.status),
      ['completed'],
      'announced once, never taken back',
    );
    runs.dispose();
  });

  it('says nothing when a poll brings the same record again', async () => {
    const { runs, clock, changes } = store(new Map([['run_1', { id: 'run_1', status: 'running' }]]));
    runs.noteRecord({ id: 'run_1', status: 'running' });
    runs.show('run_1');
    const before = changes.length;
    await clock.tick();
    assert.equal(changes.length, before, 'an unchanged run redraws nothing');
    assert.equal(clock.armed.length, 1, 'still unfinished: polled again later');
    runs.dispose();
  });

  it('stops asking about a run the server no longer has', async () => {
    const { runs, clock, fetched } = store(new Map());
    runs.follow('run_gone');
    await clock.tick();
    assert.deepEqual(fetched, ['run_gone']);
    assert.equal(runs.get('run_gone'), undefined);
    assert.equal(clock.armed.length, 0);
    runs.dispose();
  });

  it('forgets everything when the service changes', () => {
    const { runs, clock } = store(new Map());
    runs.follow('run_1');
    runs.reset();
    assert.equal(runs.get('run_1'), undefined);
    assert.equal(runs.activeFollowed, 0);
    assert.equal(clock.armed.length, 0);
    runs.dispose();
  });
});
