// Benchmark of the web bundle (package.json "browser"): its production size (raw and gzip, what a
// browser downloads) and the time to evaluate it in a context without Node (no process, no
// Buffer, no require but a stub `vscode`), as a web worker would; median of RUNS fresh contexts.
// Run: `npx tsc -p . && node out/test/bench/webBundle.bench.js`.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import type { BuildOptions } from 'esbuild';
import * as esbuild from 'esbuild';

const RUNS = 15;
const ROOT = path.resolve(__dirname, '..', '..', '..');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** A deep stub: every property and call answers another stub. */
const stub = (): unknown =>
  new Proxy(function () {}, {
    get: (_t, k) => (k === Symbol.toPrimitive ? () => '' : k === 'prototype' ? {} : stub()),
    apply: () => stub(),
    construct: () => stub() as object,
  });

/** A `vscode` module with every top-level name of the API (as bundle.bench.ts builds it), each a deep stub. */
function vscodeStub(): Record<string, unknown> {
  const types = fs.readFileSync(path.join(ROOT, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8');
  const names = new Set(
    [...types.matchAll(/^\s+export (?:namespace|class|enum|const|function|let) (\w+)/gm)].map((m) => m[1]),
  );
  return Object.fromEntries([...names].map((n) => [n, stub()]));
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-bench-'));
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild.js is a CommonJS script without types
    const script = require(path.join(ROOT, 'esbuild.js')) as { webOptions(dir: string): BuildOptions };
    await esbuild.build({ ...script.webOptions(dir), minify: true, sourcemap: false, legalComments: 'none' });
    const code = fs.readFileSync(path.join(dir, 'extension.web.js'), 'utf8');
    const bytes = Buffer.byteLength(code);
    const gzip = gzipSync(code).length;
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const module = { exports: {} as Record<string, unknown> };
      // Only what a web worker has; no process, Buffer, setImmediate or __dirname.
      const context = vm.createContext({
        module,
        exports: module.exports,
        require: (id: string) => {
          if (id !== 'vscode') {
            throw new Error(`the web bundle required ${id}`);
          }
          return vscodeStub();
        },
        console,
        URL,
        URLSearchParams,
        TextEncoder,
        TextDecoder,
        AbortController,
        setTimeout,
        clearTimeout,
        crypto: globalThis.crypto,
        performance,
      });
      const started = performance.now();
      vm.runInContext(code, context, { filename: 'extension.web.js' });
      times.push(performance.now() - started);
      if (typeof module.exports.activate !== 'function') {
        throw new Error('no activate()');
      }
    }
    console.log(
      `dist/extension.web.js (production): ${(bytes / 1024).toFixed(1)} KB, gzip ${(gzip / 1024).toFixed(1)} KB`,
    );
    console.log(
      `evaluate without Node (${RUNS} fresh contexts): median ${median(times).toFixed(1)} ms, min ${Math.min(...times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
