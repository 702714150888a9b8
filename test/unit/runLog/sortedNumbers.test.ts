// The two growable number lists behind the filter index (positions) and find (sequences): they
// grow past their first allocation without losing a value, their searches are exact at the edges,
// sequences past 2^32 stay exact, and join keeps each part's order or reverses it.
import * as assert from 'node:assert';
import { PositionList } from '../../../src/runLog/filterIndex';
import { SequenceList } from '../../../src/runLog/logFind';

function positions(values: number[]): PositionList {
  const list = new PositionList();
  for (const v of values) {
    list.push(v);
  }
  return list;
}

function sequences(values: number[]): SequenceList {
  const list = new SequenceList();
  for (const v of values) {
    list.push(v);
  }
  return list;
}

const all = (list: { length: number; at(i: number): number }): number[] =>
  Array.from({ length: list.length }, (_, i) => list.at(i));

describe('sorted number lists (runLog/sortedNumbers)', () => {
  it('grow past their first allocation and keep every value in order', () => {
    const many = Array.from({ length: 1025 * 3 }, (_, i) => i * 2);
    assert.deepStrictEqual(all(positions(many)), many);
    assert.deepStrictEqual(positions(many).slice(1020, 1030), many.slice(1020, 1030));
    const seqs = Array.from({ length: 257 * 5 }, (_, i) => i + 1);
    assert.deepStrictEqual(all(sequences(seqs)), seqs);
  });

  it('keep a sequence past 2^32 exact (positions are 32-bit, sequences are not)', () => {
    const big = 2 ** 40 + 3;
    assert.strictEqual(sequences([1, big]).at(1), big);
  });

  it('search at the edges: empty, below the first, above the last, and runs of equal values', () => {
    const empty = positions([]);
    assert.strictEqual(empty.lowerBound(5), 0);
    assert.strictEqual(empty.upperBound(5), 0);
    const list = positions([2, 4, 4, 4, 9]);
    assert.strictEqual(list.lowerBound(1), 0);
    assert.strictEqual(list.upperBound(1), 0);
    assert.strictEqual(list.lowerBound(4), 1);
    assert.strictEqual(list.upperBound(4), 4);
    assert.strictEqual(list.lowerBound(5), 4);
    assert.strictEqual(list.upperBound(9), 5);
    assert.strictEqual(list.lowerBound(10), 5);
  });

  it('join parts in order, each kept or reversed as asked', () => {
    const list = sequences([10, 20, 30, 40, 50]);
    const joined = SequenceList.join([
      { list, from: 3, to: 5, reverse: false },
      { list, from: 0, to: 3, reverse: true },
    ]);
    assert.deepStrictEqual(all(joined), [40, 50, 30, 20, 10]);
    const many = sequences(Array.from({ length: 600 }, (_, i) => i));
    assert.deepStrictEqual(all(SequenceList.join([{ list: many, from: 0, to: 600, reverse: false }])), all(many));
  });
});
