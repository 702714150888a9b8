// Benchmark of loading the extension: the production bundle's size, the
// largest inputs in it (esbuild's metafile), and the time to require it in a fresh Node process
// with a stub `vscode` module (median of RUNS processes; wall and CPU time of the require alone),
// then the time to require dist/undici.js, which the first request loads, and dist/review.js
// (with dist/diff.js), which the first review loads.
// Activation to the views' first data in code-server is measured separately (BENCHMARKS.md).
// Run: `npm run bench -- bundle` (or `node out/test/bench/bundle.bench.js` after `npm run compile:tests`).
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const RUNS = 15;
const ROOT = path.resolve(__dirname, '..', '..', '..');
const TARGET_BYTES = 250 * 1024;
const TARGET_REQUIRE_MS = 25;

/** A `vscode` module with every top-level name of the API, each a callable, constructible, deep stub. */
const STUB = `
const d = require('fs').readFileSync(${JSON.stringify(path.join(ROOT, 'node_modules', '@types', 'vscode', 'index.d.ts'))}, 'utf8');
const names = new Set([...d.matchAll(/^\\s+export (?:namespace|class|enum|const|function|let) (\\w+)/gm)].map((m) => m[1]));
const make = () => new Proxy(function () {}, { get: (t, k) => (k === Symbol.toPrimitive ? () => '' : k === 'prototype' ? {} : make()), apply: () => make(), construct: () => make() });
module.exports = Object.fromEntries([...names].map((n) => [n, make()]));
`;

// Runs in the fresh process: resolve `vscode` to the stub, then time the require.
const PROBE = `
const Module = require('module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? process.env.VSCODE_STUB : resolve.call(this, request, ...rest); };
require(process.env.VSCODE_STUB);
const cpu = process.cpuUsage();
const t = process.hrtime.bigint();
const ext = require(process.env.BUNDLE);
const ms = Number(process.hrtime.bigint() - t) / 1e6;
const c = process.cpuUsage(cpu);
if (typeof ext.activate !== 'function') throw new Error('no activate()');
// What the first request adds: undici.js, loaded beside the bundle (esbuild.js).
const t2 = process.hrtime.bigint();
require(require('path').join(require('path').dirname(process.env.BUNDLE), 'undici.js'));
const undiciMs = Number(process.hrtime.bigint() - t2) / 1e6;
// What the first review adds: review.js, then jsdiff as its first diff does.
const t3 = process.hrtime.bigint();
require(require('path').join(require('path').dirname(process.env.BUNDLE), 'review.js'));
require(require('path').join(require('path').dirname(process.env.BUNDLE), 'diff.js'));
const reviewMs = Number(process.hrtime.bigint() - t3) / 1e6;
console.log(JSON.stringify({ ms, cpuMs: (c.user + c.system) / 1000, undiciMs, reviewMs }));
`;

interface Sample {
  ms: number;
  cpuMs: number;
  undiciMs: number;
  reviewMs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function listFiles(dir: string, base = dir): { file: string; bytes: number }[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return listFiles(full, base);
    }
    return entry.name.endsWith('.js') ? [{ file: path.relative(base, full), bytes: fs.statSync(full).size }] : [];
  });
}

function main(): void {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-bench-'));
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'esbuild.js'), '--production', '--metafile', `--outdir=${out}`], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    const stub = path.join(out, 'vscode-stub.js');
    fs.writeFileSync(stub, STUB);
    const bundle = path.join(out, 'extension.js');
    const samples: Sample[] = [];
    for (let i = 0; i < RUNS; i++) {
      const res = spawnSync(process.execPath, ['-e', PROBE], {
        env: { ...process.env, VSCODE_STUB: stub, BUNDLE: bundle },
        encoding: 'utf8',
      });
      if (res.status !== 0) {
        throw new Error(`requiring the bundle failed: ${res.stderr.slice(0, 2000)}`);
      }
      samples.push(JSON.parse(res.stdout.trim()) as Sample);
    }
    const files = listFiles(out).filter((f) => f.file !== 'vscode-stub.js' && f.file !== 'webview.js');
    const main = files.find((f) => f.file === 'extension.js')?.bytes ?? NaN;
    const total = files.reduce((sum, f) => sum + f.bytes, 0);
    const meta = JSON.parse(fs.readFileSync(path.join(out, 'meta-extension.json'), 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
    };
    const inputs = Object.values(meta.outputs).flatMap((o) => Object.entries(o.inputs));
    const top = inputs.sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput).slice(0, 10);
    const requireMs = median(samples.map((s) => s.ms));
    const lines = [
      `Extension bundle, ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)}; require time: median of ${RUNS} fresh processes, a stub vscode module.`,
      '',
      '| file (production build) | size |',
      '|---|---|',
      ...files.map((f) => `| dist/${f.file} | ${kb(f.bytes)} |`),
      `| all host-side files | ${kb(total)} |`,
      '',
      '| require(dist/extension.js) | median | min | max |',
      '|---|---|---|---|',
      `| wall time | ${requireMs.toFixed(1)} ms | ${Math.min(...samples.map((s) => s.ms)).toFixed(1)} ms | ${Math.max(...samples.map((s) => s.ms)).toFixed(1)} ms |`,
      `| CPU time | ${median(samples.map((s) => s.cpuMs)).toFixed(1)} ms | ${Math.min(...samples.map((s) => s.cpuMs)).toFixed(1)} ms | ${Math.max(...samples.map((s) => s.cpuMs)).toFixed(1)} ms |`,
      `| then require(dist/undici.js) (the first request) | ${median(samples.map((s) => s.undiciMs)).toFixed(1)} ms | ${Math.min(...samples.map((s) => s.undiciMs)).toFixed(1)} ms | ${Math.max(...samples.map((s) => s.undiciMs)).toFixed(1)} ms |`,
      `| then require(dist/review.js, dist/diff.js) (the first review) | ${median(samples.map((s) => s.reviewMs)).toFixed(1)} ms | ${Math.min(...samples.map((s) => s.reviewMs)).toFixed(1)} ms | ${Math.max(...samples.map((s) => s.reviewMs)).toFixed(1)} ms |`,
      '',
      'Largest inputs of extension.js:',
      ...top.map(([file, v]) => `- ${kb(v.bytesInOutput)} ${file.replace(/^.*node_modules\//, '')}`),
      '',
      `Targets: extension.js <= 250 KB: ${main <= TARGET_BYTES ? 'met' : 'NOT met'} (${kb(main)}); require <= ${TARGET_REQUIRE_MS} ms: ${requireMs <= TARGET_REQUIRE_MS ? 'met' : 'NOT met'} (${requireMs.toFixed(1)} ms).`,
    ];
    console.log(lines.join('\n'));
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

main();
