// Placing a part's hunks: the same text as jsdiff's applyPatch (fuzz 0) and as applying the hunks
// that fit one by one, with each hunk placed once (offsets carried, a line index for the hunks
// that moved), and the work bounded: hunks, work units, turns of the event loop, a signal.
import * as assert from 'node:assert/strict';
import { applyPatch, type StructuredPatch, structuredPatch } from 'diff';
import { FIT_SLICE, fitBudget, fitHunks, MAX_FIT_WORK, MAX_PART_HUNKS } from '../../../src/review/hunkFit';

const tryApply = (text: string, patch: StructuredPatch): string | false => {
  try {
    return applyPatch(text, patch, { fuzzFactor: 0 });
  } catch {
    return false;
  }
};

/** A deterministic generator, so a failing case can be run again. */
function random(seed: number) {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  return { next, pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] };
}

/**
 * `count` lines `row 0`, `row 1`, ...; a change to every `every`th line with `context` lines
 * around it. The hunks are written out here: jsdiff's diff of such files takes seconds.
 */
function manyHunks(count: number, every: number, context = 1) {
  const lines = Array.from({ length: count }, (_, i) => `row ${i}`);
  const changed = (i: number) => i % every === 0;
  const before = lines.join('\n') + '\n';
  const after = lines.map((l, i) => (changed(i) ? `${l} (agent)` : l)).join('\n') + '\n';
  const hunks: StructuredPatch['hunks'] = [];
  for (let r = 0; r < count; r += every) {
    const from = Math.max(0, r - context);
    const to = Math.min(count - 1, r + context);
    const body: string[] = [];
    for (let i = from; i <= to; i++) {
      body.push(...(i === r ? [`-${lines[i]}`, `+${lines[i]} (agent)`] : [` ${lines[i]}`]));
    }
    const size = to - from + 1;
    hunks.push({ oldStart: from + 1, oldLines: size, newStart: from + 1, newLines: size, lines: body });
  }
  const patch: StructuredPatch = { oldFileName: 'a', newFileName: 'b', oldHeader: '', newHeader: '', hunks };
  return { lines, before, after, patch, changed };
}

/** Units spent by one fit. */
async function spent(text: string, patch: StructuredPatch, stopAtMisfit: boolean) {
  const budget = fitBudget();
  const fitted = await fitHunks(text, patch, { stopAtMisfit, budget, pause: async () => {} });
  return { fitted, units: MAX_FIT_WORK - budget.left };
}

describe('review/hunkFit: placing hunks once each', () => {
  it('gives the same text as jsdiff whole, and as the hunks that fit tried one by one', async () => {
    const { next, pick } = random(20261128);
    let cases = 0;
    for (let n = 0; n < 400; n++) {
      const vocab = ['a', 'b', '', '}', `x${Math.floor(next() * 4)}`];
      const eol = next() < 0.2 ? '\r\n' : '\n';
      const lines = Array.from({ length: Math.floor(next() * 40) }, () => pick(vocab) + (next() < 0.5 ? '' : n % 7));
      const before = lines.join(eol) + (lines.length && next() < 0.8 ? eol : '');
      const changed = lines.map((l) => (next() < 0.15 ? `${l}!` : l)).filter(() => next() > 0.05);
      const after = changed.join(eol) + (changed.length && next() < 0.8 ? eol : '');
      const patch = structuredPatch('a', 'b', before, after, '', '', { context: Math.floor(next() * 4) });
      if (patch.hunks.length === 0) {
        continue;
      }
      cases++;
      // The text it is applied to moved on a little: lines added, dropped, changed.
      const target = before.split('\n');
      for (let m = Math.floor(next() * 4); m > 0 && target.length > 0; m--) {
        const k = Math.floor(next() * target.length);
        const r = next();
        if (r < 0.3) {
          target.splice(k, 0, pick(vocab));
        } else if (r < 0.6) {
          target.splice(k, 1);
        } else {
          target[k] += '?';
        }
      }
      const text = next() < 0.7 ? target.join('\n') : before;
      const label = JSON.stringify({ text, hunks: patch.hunks });

      const whole = tryApply(text, patch);
      const stopped = await fitHunks(text, patch, { stopAtMisfit: true });
      if (whole !== false) {
        assert.deepEqual(stopped, { kind: 'fitted', text: whole, applied: patch.hunks.length, misfits: [] }, label);
      } else {
        const first = patch.hunks.findIndex(
          (_, i) => tryApply(text, { ...patch, hunks: patch.hunks.slice(0, i + 1) }) === false,
        );
        assert.deepEqual(stopped, { kind: 'stopped', misfit: first }, label);
      }

      const kept: StructuredPatch['hunks'] = [];
      const left: number[] = [];
      patch.hunks.forEach((hunk, i) => {
        if (tryApply(text, { ...patch, hunks: [...kept, hunk] }) !== false) {
          kept.push(hunk);
        } else {
          left.push(i);
        }
      });
      const each = await fitHunks(text, patch, { stopAtMisfit: false });
      assert.deepEqual(
        each,
        {
          kind: 'fitted',
          text: kept.length > 0 ? tryApply(text, { ...patch, hunks: kept }) : text,
          applied: kept.length,
          misfits: left,
        },
        label,
      );
    }
    assert.ok(cases > 300, `${cases} cases`);
  });

  it('6,000 hunks on a 24,000-line file: the right text, each hunk compared once where it is expected', async () => {
    const { before, after, patch } = manyHunks(24_000, 4);
    assert.equal(patch.hunks.length, 6_000);
    const oldLines = patch.hunks.reduce((sum, h) => sum + h.oldLines, 0);
    const clean = await spent(before, patch, true);
    assert.deepEqual(clean.fitted, { kind: 'fitted', text: after, applied: 6_000, misfits: [] });
    assert.ok(clean.units <= oldLines + patch.hunks.length, `${clean.units} units for ${oldLines} old lines`);

    // The last hunk was made against a text the file never had: it is named, after one pass.
    const last = patch.hunks[5_999];
    const broken = {
      ...patch,
      hunks: [
        ...patch.hunks.slice(0, -1),
        { ...last, lines: last.lines.map((l) => (l === ' row 23997' ? ' row elsewhere' : l)) },
      ],
    };
    const misfit = await spent(before, broken, true);
    assert.deepEqual(misfit.fitted, { kind: 'stopped', misfit: 5_999 });
    assert.ok(misfit.units <= oldLines + patch.hunks.length + 24_001, `${misfit.units} units`);
  });

  it('carries the offset: when every hunk moved by the same lines, only the first is looked for', async () => {
    const { before, after, patch } = manyHunks(24_000, 4);
    const header = Array.from({ length: 500 }, (_, i) => `header ${i}`).join('\n') + '\n';
    const { fitted, units } = await spent(header + before, patch, true);
    assert.deepEqual(fitted, { kind: 'fitted', text: header + after, applied: 6_000, misfits: [] });
    const oldLines = patch.hunks.reduce((sum, h) => sum + h.oldLines, 0);
    // The old lines once, the line index once (24,501 lines), a few places tried for the first.
    assert.ok(units <= oldLines + 24_501 + 100, `${units} units for ${oldLines} old lines`);
  });

  it('a 150,000-line file with 3,000 hunks, a third of which fit nowhere: a look-up each, not a scan', async () => {
    const { before, patch } = manyHunks(150_000, 50);
    assert.equal(patch.hunks.length, 3_000);
    const hunks = patch.hunks.map((h, i) =>
      i % 3 === 1 ? { ...h, lines: h.lines.map((l) => (l.startsWith(' ') ? `${l} (elsewhere)` : l)) } : h,
    );
    const { fitted, units } = await spent(before, { ...patch, hunks }, false);
    assert.equal(fitted.kind, 'fitted');
    if (fitted.kind !== 'fitted') {
      return;
    }
    assert.equal(fitted.applied, 2_000);
    assert.deepEqual(
      fitted.misfits,
      hunks.map((_, i) => i).filter((i) => i % 3 === 1),
    );
    const expected =
      before
        .split('\n')
        .slice(0, -1)
        .map((l, i) => (i % 50 === 0 && Math.floor(i / 50) % 3 !== 1 ? `${l} (agent)` : l))
        .join('\n') + '\n';
    assert.equal(fitted.text, expected);
    // Each hunk's own lines, the index once; a scan per misfit would be 1,000 x 150,000.
    assert.ok(units <= 3 * 3_000 + 3_000 + 150_001 + 1_000, `${units} units`);
  });

  it('gives the event loop a turn every slice of work', async () => {
    const { before, patch } = manyHunks(150_000, 50);
    const hunks = patch.hunks.map((h, i) => (i === 0 ? { ...h, oldStart: h.oldStart + 7 } : h));
    let turns = 0;
    const budget = fitBudget();
    const fitted = await fitHunks(
      before,
      { ...patch, hunks },
      {
        stopAtMisfit: false,
        budget,
        pause: async () => {
          turns++;
        },
      },
    );
    assert.equal(fitted.kind, 'fitted');
    const units = MAX_FIT_WORK - budget.left;
    assert.ok(units > FIT_SLICE, `${units} units`);
    assert.ok(turns >= 1 && turns >= Math.floor(units / FIT_SLICE) - 1, `${turns} turns for ${units} units`);

    // With the real pause, a macrotask queued before the fit runs before it ends.
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    let endedFirst = false;
    await fitHunks(before, { ...patch, hunks }, { stopAtMisfit: false }).then(() => {
      endedFirst = !ran;
    });
    assert.equal(endedFirst, false);
  });

  it('refuses a part of more than MAX_PART_HUNKS hunks, and stops at the work budget', async () => {
    const { before, patch } = manyHunks((MAX_PART_HUNKS + 1) * 2, 2, 0);
    assert.equal(patch.hunks.length, MAX_PART_HUNKS + 1);
    assert.deepEqual(await fitHunks(before, patch, { stopAtMisfit: false }), {
      kind: 'tooManyHunks',
      hunks: MAX_PART_HUNKS + 1,
    });

    // Every line common, no place right: each try goes a line deep before it fails.
    const text = Array.from({ length: 20_000 }, (_, i) => (i % 2 ? 'b' : 'a')).join('\n') + '\n';
    const hostile: StructuredPatch = {
      ...patch,
      hunks: Array.from({ length: 50 }, (_, i) => ({
        oldStart: i * 10 + 1,
        oldLines: 2,
        newStart: i * 10 + 1,
        newLines: 2,
        lines: [' a', '-a', '+c'],
      })),
    };
    const budget = fitBudget(100_000);
    const fitted = await fitHunks(text, hostile, { stopAtMisfit: false, budget });
    assert.equal(fitted.kind, 'tooMuchWork');
    assert.ok(fitted.kind === 'tooMuchWork' && fitted.hunk < 10, JSON.stringify(fitted));
  });

  it('stops when its signal is aborted between slices', async () => {
    const { before, patch } = manyHunks(150_000, 50);
    const hunks = patch.hunks.map((h) => ({ ...h, oldStart: h.oldStart + 3 }));
    const stop = new AbortController();
    let turns = 0;
    const fitted = await fitHunks(
      before,
      { ...patch, hunks: [hunks[0], ...patch.hunks.slice(1)] },
      {
        stopAtMisfit: false,
        signal: stop.signal,
        pause: async () => {
          turns++;
          stop.abort();
        },
      },
    );
    assert.deepEqual(fitted, { kind: 'cancelled' });
    assert.equal(turns, 1);
  });
});
