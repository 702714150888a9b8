// Benchmark of applying a patch part (src/review/hunkFit.ts through applyPatchPart and the
// hunk-by-hunk plan of a project patch): a 6,000-hunk part on a 24,000-line file whose last hunk
// does not match, and 500 hunks on a 150,000-line file of which every tenth does not match.
// Recorded: wall time and the longest event-loop block (a setImmediate gap probe). Peer, in the
// same run: the code before (jsdiff's applyPatch on every prefix of the hunks; the kept hunks
// applied again with each next one), synchronous, so its block is its whole time.
// Run: npm run bench -- patchApply   (or node out/test/bench/patchApply.bench.js [--new-only])
import { performance } from 'node:perf_hooks';
import { applyPatch, type StructuredPatch } from 'diff';
import { fitHunks } from '../../src/review/hunkFit';
import { applyPatchPart, parsePatchText } from '../../src/review/patchFile';

const newOnly = process.argv.includes('--new-only');

/** `count` lines; a change every `every` lines (one line of context); every `missEvery`th hunk's context is elsewhere. */
function patchOf(count: number, every: number, missEvery: (k: number, hunks: number) => boolean) {
  const lines = Array.from({ length: count }, (_, i) => `row ${i}`);
  const hunks: string[] = [];
  const total = Math.floor((count - 2) / every) + 1;
  for (let r = 1, k = 0; r < count - 1; r += every, k++) {
    const before = missEvery(k, total) ? 'row elsewhere' : lines[r - 1];
    hunks.push(`@@ -${r},3 +${r},3 @@\n ${before}\n-${lines[r]}\n+${lines[r]} (agent)\n ${lines[r + 1]}\n`);
  }
  const parsed = parsePatchText(`--- a/f.txt\n+++ b/f.txt\n${hunks.join('')}`);
  if (!parsed.ok) {
    throw new Error(parsed.message);
  }
  return { text: lines.join('\n') + '\n', part: parsed.parts[0] };
}

const tryApply = (text: string, patch: StructuredPatch) => {
  try {
    return applyPatch(text, patch, { fuzzFactor: 0 });
  } catch {
    return false;
  }
};

/** The code before: every prefix until one fails (review/patchFile.ts). */
function prefixesBefore(text: string, patch: StructuredPatch): number {
  if (tryApply(text, patch) !== false) {
    return -1;
  }
  for (let n = 1; n <= patch.hunks.length; n++) {
    if (tryApply(text, { ...patch, hunks: patch.hunks.slice(0, n) }) === false) {
      return n;
    }
  }
  return 0;
}

/** The code before: the kept hunks again with each next one (projects/patchAtBase.ts). */
function oneByOneBefore(text: string, patch: StructuredPatch): number {
  if (tryApply(text, patch) !== false) {
    return patch.hunks.length;
  }
  const kept: StructuredPatch['hunks'] = [];
  for (const hunk of patch.hunks) {
    if (tryApply(text, { ...patch, hunks: [...kept, hunk] }) !== false) {
      kept.push(hunk);
    }
  }
  tryApply(text, { ...patch, hunks: kept });
  return kept.length;
}

async function probed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; maxGapMs: number }> {
  let running = true;
  let maxGap = 0;
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
    if (running) {
      setImmediate(tick);
    }
  };
  setImmediate(tick);
  const start = performance.now();
  const result = await work();
  const ms = performance.now() - start;
  // One more turn, so a block that lasted to the end is measured too.
  await new Promise((resolve) => setImmediate(resolve));
  running = false;
  return { result, ms, maxGapMs: maxGap };
}

const f = (ms: number) => `${ms.toFixed(0)} ms`;

async function main(): Promise<void> {
  console.log(
    `node ${process.version}, load ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );

  const a = patchOf(24_000, 4, (k, total) => k === total - 1);
  const after = await probed(() => applyPatchPart(a.part, a.text));
  console.log(
    `patch part, ${a.part.hunkCount} hunks on 24,000 lines, last does not match: after ${f(after.ms)}, longest block ${f(after.maxGapMs)} (${after.result.ok ? 'applied' : after.result.message})`,
  );
  if (!newOnly) {
    const before = await probed(async () => prefixesBefore(a.text, a.part.patch));
    console.log(
      `  before: ${f(before.ms)}, longest block ${f(before.maxGapMs)} (first failing prefix ${before.result})`,
    );
  }

  const b = patchOf(150_000, 300, (k) => k % 10 === 9);
  const fitted = await probed(() => fitHunks(b.text, b.part.patch, { stopAtMisfit: false }));
  const kept = fitted.result.kind === 'fitted' ? fitted.result.applied : fitted.result.kind;
  console.log(
    `project plan, ${b.part.hunkCount} hunks on 150,000 lines, every tenth elsewhere: after ${f(fitted.ms)}, longest block ${f(fitted.maxGapMs)} (${kept} applied)`,
  );
  if (!newOnly) {
    const before = await probed(async () => oneByOneBefore(b.text, b.part.patch));
    console.log(`  before: ${f(before.ms)}, longest block ${f(before.maxGapMs)} (${before.result} applied)`);
  }
}

void main();
