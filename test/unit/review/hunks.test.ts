// Per-hunk review: stable ids, and any subset of hunks in any order gives the same text.
import * as assert from 'node:assert';
import { applyHunks, computeHunks } from '../../../src/review/hunks';

const base = ['title', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'end'].join('\n') + '\n';
const target =
  ['Title', 'one', 'two', 'three', 'five', 'six', 'inserted', 'seven', 'eight', 'end', 'appended'].join('\n') + '\n';

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) {
    return [items];
  }
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

function subsets<T>(items: T[]): T[][] {
  return items.reduce<T[][]>((all, item) => [...all, ...all.map((s) => [...s, item])], [[]]);
}

describe('review hunks', () => {
  it('finds each separate change as its own hunk with ranges on both sides', () => {
    const hunks = computeHunks(base, target);
    assert.deepStrictEqual(
      hunks.map((h) => [h.old, h.new, h.removed, h.added]),
      [
        [{ start: 1, count: 1 }, { start: 1, count: 1 }, ['title\n'], ['Title\n']],
        [{ start: 5, count: 1 }, { start: 5, count: 0 }, ['four\n'], []],
        [{ start: 8, count: 0 }, { start: 7, count: 1 }, [], ['inserted\n']],
        [{ start: 11, count: 0 }, { start: 11, count: 1 }, [], ['appended\n']],
      ],
    );
    assert.strictEqual(new Set(hunks.map((h) => h.id)).size, hunks.length);
  });

  it('applying no hunk gives the base, all of them the target', () => {
    const hunks = computeHunks(base, target);
    assert.strictEqual(applyHunks(base, hunks, []), base);
    assert.strictEqual(
      applyHunks(
        base,
        hunks,
        hunks.map((h) => h.id),
      ),
      target,
    );
    assert.strictEqual(applyHunks(base, hunks, ['unknown-id']), base);
  });

  it('gives the same text for a subset whatever the order it is chosen in', () => {
    const hunks = computeHunks(base, target);
    for (const subset of subsets(hunks.map((h) => h.id))) {
      const expected = applyHunks(base, hunks, subset);
      for (const order of permutations(subset)) {
        assert.strictEqual(applyHunks(base, hunks, order), expected);
      }
    }
  });

  it('one hunk at a time (re-diffing after each) in any order ends where all at once does', () => {
    const ids = computeHunks(base, target).map((h) => h.id);
    for (const order of permutations(ids)) {
      let text = base;
      for (const id of order) {
        const now = computeHunks(text, target);
        assert.ok(
          now.some((h) => h.id === id),
          `hunk ${id} keeps its id after others were applied`,
        );
        text = applyHunks(text, now, [id]);
      }
      assert.strictEqual(text, target);
      assert.deepStrictEqual(computeHunks(text, target), []);
    }
  });

  it('keeps a missing final newline missing when the other hunks are applied', () => {
    const noEol = 'a\nb\nlast';
    const changed = 'A\nb\nlast';
    const hunks = computeHunks(noEol, changed);
    assert.strictEqual(hunks.length, 1);
    assert.strictEqual(applyHunks(noEol, hunks, [hunks[0].id]), 'A\nb\nlast');
  });

  it('adds the final newline only through the hunk that changes it', () => {
    const noEol = 'a\nb\nlast';
    const agent = 'A\nb\nlast\n';
    const hunks = computeHunks(noEol, agent);
    assert.strictEqual(hunks.length, 2);
    assert.strictEqual(applyHunks(noEol, hunks, [hunks[0].id]), 'A\nb\nlast');
    assert.strictEqual(applyHunks(noEol, hunks, [hunks[1].id]), 'a\nb\nlast\n');
  });

  it('numbers a repeated identical change so every id is unique', () => {
    const hunks = computeHunks('x\na\nx\nb\n', 'y\na\ny\nb\n');
    assert.strictEqual(hunks.length, 2);
    assert.notStrictEqual(hunks[0].id, hunks[1].id);
    assert.strictEqual(applyHunks('x\na\nx\nb\n', hunks, [hunks[1].id]), 'x\na\ny\nb\n');
  });

  it('handles empty texts on either side', () => {
    const added = computeHunks('', 'a\nb\n');
    assert.deepStrictEqual(
      added.map((h) => [h.old, h.new]),
      [
        [
          { start: 1, count: 0 },
          { start: 1, count: 2 },
        ],
      ],
    );
    assert.strictEqual(applyHunks('', added, [added[0].id]), 'a\nb\n');
    const removed = computeHunks('a\nb\n', '');
    assert.strictEqual(applyHunks('a\nb\n', removed, [removed[0].id]), '');
  });
});
