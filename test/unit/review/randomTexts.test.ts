// The hunk and merge rules checked on many seeded random edits (same texts on every run), with
// and without final newlines, so the line bookkeeping is tried beyond the hand-picked cases.
import * as assert from 'node:assert';
import type { LineRange } from '../../../src/review/hunks';
import { applyHunks, computeHunks } from '../../../src/review/hunks';
import { splitLines } from '../../../src/review/textCodec';
import { mergeThreeWay } from '../../../src/review/threeWay';

/** A small deterministic generator (LCG) so a failure names a seed that reproduces it. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)];

function randomText(next: () => number): string {
  const count = Math.floor(next() * 12);
  const lines = Array.from({ length: count }, () => pick(next, ['a', 'b', 'c', 'd', 'e', '', 'long line']));
  return lines.join('\n') + (count > 0 && next() < 0.7 ? '\n' : '');
}

function edit(next: () => number, text: string, tag: string): string {
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const finalNewline = text.endsWith('\n');
  const edits = 1 + Math.floor(next() * 3);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * (lines.length + 1));
    const kind = next();
    if (kind < 0.35 && at < lines.length) {
      lines[at] = `${tag}${i}`;
    } else if (kind < 0.6 && at < lines.length) {
      lines.splice(at, 1);
    } else {
      lines.splice(at, 0, `${tag}${i}`);
    }
  }
  const flip = next() < 0.15;
  return lines.join('\n') + (lines.length > 0 && finalNewline !== flip ? '\n' : '');
}

const slice = (text: string, range: LineRange) =>
  splitLines(text).slice(range.start - 1, range.start - 1 + range.count);

describe('review rules on seeded random texts', () => {
  it('any subset of hunks in any order gives one text; none gives the base, all the target', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const base = randomText(next);
      const target = edit(next, base, 'x');
      const hunks = computeHunks(base, target);
      assert.strictEqual(applyHunks(base, hunks, []), base, `seed ${seed}`);
      assert.strictEqual(
        applyHunks(
          base,
          hunks,
          hunks.map((h) => h.id),
        ),
        target,
        `seed ${seed}`,
      );
      const subset = hunks.filter(() => next() < 0.5).map((h) => h.id);
      const shuffled = [...subset].sort(() => next() - 0.5);
      assert.strictEqual(applyHunks(base, hunks, shuffled), applyHunks(base, hunks, subset), `seed ${seed}`);
      for (const hunk of hunks) {
        assert.deepStrictEqual(slice(base, hunk.old), hunk.removed, `seed ${seed}: old range`);
        assert.deepStrictEqual(slice(target, hunk.new), hunk.added, `seed ${seed}: new range`);
      }
    }
  });

  it('applying whichever hunk is left, one at a time, reaches the target', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const base = randomText(next);
      const target = edit(next, base, 'x');
      let text = base;
      let steps = 0;
      for (let hunks = computeHunks(text, target); hunks.length > 0; hunks = computeHunks(text, target)) {
        text = applyHunks(text, hunks, [pick(next, hunks).id]);
        assert.ok(++steps <= 50, `seed ${seed}: does not converge`);
      }
      assert.strictEqual(text, target, `seed ${seed}`);
    }
  });

  it('merges: one side unchanged gives the other; both the same is clean; conflict ranges match each text', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const base = randomText(next);
      const workspace = edit(next, base, 'w');
      const agent = edit(next, base, 'g');
      assert.deepStrictEqual(
        [mergeThreeWay(base, base, agent).text, mergeThreeWay(base, base, agent).clean],
        [agent, true],
        `seed ${seed}`,
      );
      assert.deepStrictEqual(
        [mergeThreeWay(base, workspace, base).text, mergeThreeWay(base, workspace, base).clean],
        [workspace, true],
        `seed ${seed}`,
      );
      assert.deepStrictEqual(
        [mergeThreeWay(base, agent, agent).text, mergeThreeWay(base, agent, agent).clean],
        [agent, true],
        `seed ${seed}`,
      );
      const ours = mergeThreeWay(base, workspace, agent);
      const theirs = mergeThreeWay(base, workspace, agent, { conflictStyle: 'agent' });
      assert.strictEqual(ours.conflicts.length, theirs.conflicts.length, `seed ${seed}`);
      for (const conflict of ours.conflicts) {
        assert.deepStrictEqual(slice(base, conflict.base), conflict.baseLines, `seed ${seed}: base range`);
        assert.deepStrictEqual(
          slice(workspace, conflict.workspace),
          conflict.workspaceLines,
          `seed ${seed}: workspace range`,
        );
        assert.deepStrictEqual(slice(agent, conflict.agent), conflict.agentLines, `seed ${seed}: agent range`);
        assert.deepStrictEqual(
          slice(ours.text, conflict.merged),
          conflict.workspaceLines,
          `seed ${seed}: merged range`,
        );
        assert.notDeepStrictEqual(
          conflict.workspaceLines,
          conflict.agentLines,
          `seed ${seed}: a conflict has two different sides`,
        );
      }
      for (const conflict of theirs.conflicts) {
        assert.deepStrictEqual(
          slice(theirs.text, conflict.merged),
          conflict.agentLines,
          `seed ${seed}: merged range (agent)`,
        );
      }
      if (ours.clean) {
        assert.strictEqual(ours.text, theirs.text, `seed ${seed}: a clean merge does not depend on the conflict style`);
      }
    }
  });
});
