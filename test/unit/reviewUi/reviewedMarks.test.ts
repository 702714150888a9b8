// Mark File as Reviewed: a mark holds for the content it saw, carries to a later revision that
// leaves the file the same, and is gone once a revision changes the file again.
import * as assert from 'node:assert';
import {
  contentHash,
  isReviewed,
  MAX_REVIEWED_MARKS,
  REVIEWED_MARKS_KEY,
  type ReviewedMark,
  ReviewedMarks,
} from '../../../src/reviewUi/reviewedMarks';

const h1 = contentHash(new TextEncoder().encode('one\n'));
const h2 = contentHash(new TextEncoder().encode('two\n'));
const APP = 'file:///ws/app.txt';

function memento(initial?: unknown) {
  const state = new Map<string, unknown>(initial === undefined ? [] : [[REVIEWED_MARKS_KEY, initial]]);
  return {
    state,
    get: <T>(key: string) => state.get(key) as T | undefined,
    update: async (key: string, value: unknown) => void state.set(key, value),
  };
}

const mark = (runId: string, hash: string, reviewed = true, at = 1): ReviewedMark => ({
  runId,
  fileKey: APP,
  hash,
  reviewed,
  at,
});

describe('reviewed marks', () => {
  it('holds for the run and content it was made on', () => {
    assert.strictEqual(isReviewed([mark('run_1', h1)], ['run_1'], APP, h1), true);
    assert.strictEqual(isReviewed([mark('run_1', h1)], ['run_1'], 'file:///ws/other.txt', h1), false);
  });

  it('carries to a later revision that leaves the file as it was marked', () => {
    assert.strictEqual(isReviewed([mark('run_1', h1)], ['run_2', 'run_1'], APP, h1), true);
  });

  it('is reset when a later revision changes the file again', () => {
    assert.strictEqual(isReviewed([mark('run_1', h1)], ['run_2', 'run_1'], APP, h2), false);
  });

  it('lets the nearest revision decide: unmarked there is unmarked, whatever came before', () => {
    const marks = [mark('run_1', h1), mark('run_2', h1, false, 2)];
    assert.strictEqual(isReviewed(marks, ['run_2', 'run_1'], APP, h1), false);
    assert.strictEqual(isReviewed(marks, ['run_3', 'run_2', 'run_1'], APP, h1), false);
  });

  it('keeps marks across a reload of the state, dropping entries that are not marks', async () => {
    const m = memento();
    await new ReviewedMarks(m).set('run_1', APP, h1, true);
    const stored = m.state.get(REVIEWED_MARKS_KEY) as unknown[];
    m.state.set(REVIEWED_MARKS_KEY, [...stored, { runId: 5 }, null, 'x']);
    const again = new ReviewedMarks(m);
    assert.strictEqual(again.isReviewed(['run_1'], APP, h1), true);
    assert.strictEqual(new ReviewedMarks(memento({ not: 'a list' })).isReviewed(['run_1'], APP, h1), false);
  });

  it('keeps at most MAX_REVIEWED_MARKS, the oldest going first', async () => {
    const many = Array.from({ length: MAX_REVIEWED_MARKS }, (_, i) => ({ ...mark(`run_${i}`, h1), at: i }));
    const m = memento(many);
    await new ReviewedMarks(m).set('run_new', APP, h1, true);
    const stored = m.state.get(REVIEWED_MARKS_KEY) as ReviewedMark[];
    assert.strictEqual(stored.length, MAX_REVIEWED_MARKS);
    assert.ok(!stored.some((s) => s.runId === 'run_0'), 'the oldest mark was kept');
    assert.ok(stored.some((s) => s.runId === 'run_new'));
  });
});
