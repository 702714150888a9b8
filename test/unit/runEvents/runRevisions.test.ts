// Revisions of one piece of work: a run and its follow-ups numbered along `follow_up_of`.
import * as assert from 'node:assert';
import { MAX_REVISIONS, revisionNumbers, sourceRunOf } from '../../../src/runEvents/runRevisions';

const links = (pairs: Record<string, string>) => (id: string) => pairs[id];

describe('revisions of a run and its follow-ups', () => {
  it('numbers a chain from the run first commented on, newest first as listed', () => {
    const numbers = revisionNumbers(
      ['run_c', 'run_other', 'run_b', 'run_a'],
      links({ run_c: 'run_b', run_b: 'run_a' }),
    );
    assert.deepEqual(Object.fromEntries(numbers), { run_c: 3, run_b: 2, run_a: 1 });
  });

  it('leaves a run that is neither followed up nor a follow-up unnumbered', () => {
    const numbers = revisionNumbers(['run_b', 'run_x', 'run_a'], links({ run_b: 'run_a' }));
    assert.strictEqual(numbers.has('run_x'), false);
  });

  it('numbers two follow-ups of one run both 2', () => {
    const numbers = revisionNumbers(['run_c', 'run_b', 'run_a'], links({ run_c: 'run_a', run_b: 'run_a' }));
    assert.deepEqual(Object.fromEntries(numbers), { run_c: 2, run_b: 2, run_a: 1 });
  });

  it('ignores a link to a run not listed and a run naming itself', () => {
    const numbers = revisionNumbers(['run_b', 'run_a'], links({ run_b: 'run_elsewhere', run_a: 'run_a' }));
    assert.strictEqual(numbers.size, 0);
  });

  it('numbers nothing in a circle of links', () => {
    const numbers = revisionNumbers(['run_b', 'run_a'], links({ run_b: 'run_a', run_a: 'run_b' }));
    assert.strictEqual(numbers.size, 0);
  });

  it(`stops numbering past ${MAX_REVISIONS} revisions`, () => {
    const ids = Array.from({ length: MAX_REVISIONS + 3 }, (_, i) => `run_${i}`);
    const numbers = revisionNumbers(ids, (id) => {
      const n = Number(id.slice(4));
      return n > 0 ? `run_${n - 1}` : undefined;
    });
    assert.strictEqual(numbers.get(`run_${MAX_REVISIONS - 1}`), MAX_REVISIONS);
    assert.strictEqual(numbers.has(`run_${MAX_REVISIONS}`), false);
  });

  it('one rule for the run a run continues: follow_up_of, else forked_from, else resumed_from', () => {
    assert.equal(sourceRunOf({ follow_up_of: 'run_a', forked_from: { run_id: 'run_b' } }), 'run_a');
    assert.equal(sourceRunOf({ forked_from: { run_id: 'run_b' }, resumed_from: 'run_c' }), 'run_b');
    assert.equal(sourceRunOf({ resumed_from: 'run_c' }), 'run_c');
    assert.equal(sourceRunOf({ follow_up_of: 'not an id', forked_from: null, resumed_from: 42 }), undefined);
    assert.equal(sourceRunOf(undefined), undefined);
  });
});
