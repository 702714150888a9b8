// Builds the extension host bundle (Node, CommonJS, `vscode` external), the files it loads only
// when needed, and the run panel's webview script (browser). `--production` minifies and drops
// source maps; `--watch` rebuilds on change; `--outdir=<dir>` builds elsewhere than dist/ (the
// activation benchmark); `--metafile` writes <outdir>/meta-extension.json for `esbuild --analyze`.
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const outdirArg = process.argv.find((a) => a.startsWith('--outdir='));
const outdir = outdirArg ? path.resolve(outdirArg.slice('--outdir='.length)) : path.join(__dirname, 'dist');
const writeMetafile = process.argv.includes('--metafile');

/** Copies the codicon font and stylesheet next to the webview bundle (nothing from the network). */
function copyCodicons() {
  const from = path.join(__dirname, 'node_modules', '@vscode', 'codicons', 'dist');
  const to = path.join(outdir, 'codicons');
  fs.mkdirSync(to, { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(from, file), path.join(to, file));
}

/** Prints build errors in the format the VS Code problem matcher understands. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log(`[watch] build finished (${build.initialOptions.outfile})`);
    });
  },
};

// undici parts the extension loads only when it needs them, as files beside extension.js:
// - llhttp (about 70 KB of base64 WebAssembly each, two variants): undici compiles one on the
//   first connection; bundled, both would be parsed and kept at every activation.
// - fetch/body.js (with webidl, FormData and fetch utilities, about 40 KB and node:zlib,
//   node:worker_threads): undici needs it only for a FormData request body, which we never send.
// Each is reached through a small module that says which file is missing instead of crashing
// with a bare "Cannot find module".
const LAZY_UNDICI = [
  { request: /^\.\.\/llhttp\/llhttp_simd-wasm\.js$/, file: 'llhttp/llhttp_simd-wasm.js', source: 'node_modules/undici/lib/llhttp/llhttp_simd-wasm.js', copy: true },
  { request: /^\.\.\/llhttp\/llhttp-wasm\.js$/, file: 'llhttp/llhttp-wasm.js', source: 'node_modules/undici/lib/llhttp/llhttp-wasm.js', copy: true },
  { request: /^\.\.\/web\/fetch\/body\.js$/, file: 'undici-fetch-body.js', source: 'node_modules/undici/lib/web/fetch/body.js', copy: false },
];

/** The guard module for a file beside the bundle: loads it, or says the install is incomplete. */
function guardModule(file) {
  return {
    contents: [
      'let loaded;',
      `try { loaded = require('./lazy-file/${file}'); }`,
      `catch (err) { throw new Error('The Agent Runtime extension is incomplete: dist/${file} is missing or broken (' + (err && err.message) + '). Reinstall the extension.'); }`,
      'module.exports = loaded;',
    ].join('\n'),
    loader: 'js',
  };
}

// undici as a whole (the slice of it src/api/network/undiciParts.ts gathers) is dist/undici.js,
// loaded at the first request through src/api/network/undici.ts. Nothing else of src is in it,
// so no module of ours exists twice; the test in test/unit/build checks that on the output.
const UNDICI_FILE = 'undici.js';
const UNDICI_ENTRY = 'src/api/network/undiciParts.ts';

/** Resolves undici.ts's require('./undiciParts') to the guard for dist/undici.js (extension.js only). */
const lazyUndiciFile = {
  name: 'lazy-undici-file',
  setup(build) {
    build.onResolve({ filter: /^\.\/undiciParts$/ }, (args) =>
      (args.importer.endsWith(path.join('src', 'api', 'network', 'undici.ts')) ? { path: UNDICI_FILE, namespace: 'lazy-file' } : undefined));
  },
};

/** Resolves the LAZY_UNDICI requests to a guard module that requires the file beside the bundle. */
const lazyUndici = {
  name: 'lazy-undici',
  setup(build) {
    for (const lazy of LAZY_UNDICI) {
      build.onResolve({ filter: lazy.request }, (args) => (args.importer.includes(`${path.sep}undici${path.sep}`) ? { path: lazy.file, namespace: 'lazy-file' } : undefined));
    }
    build.onResolve({ filter: /^\.\/lazy-file\// }, (args) => ({ path: `./${args.path.slice('./lazy-file/'.length)}`, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-file' }, (args) => guardModule(args.path));
  },
};

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: production ? 'none' : 'inline',
  plugins: [problemMatcher],
};

/** The llhttp modules are data only (a Buffer of WebAssembly): copied as they are. */
function copyLazyUndici() {
  copyLazyUndiciTo(outdir);
}

function copyLazyUndiciTo(dir) {
  for (const lazy of LAZY_UNDICI.filter((l) => l.copy)) {
    const to = path.join(dir, lazy.file);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(path.join(__dirname, lazy.source), to);
  }
}

/** Writes a bundle's metafile as <outdir>/meta-<name>.json for `npx esbuild --analyze` (see BENCHMARKS.md). */
function metafileWriter(name) {
  return {
    name: `metafile-writer-${name}`,
    setup(build) {
      build.onEnd((result) => {
        if (writeMetafile && result.metafile) fs.writeFileSync(path.join(outdir, `meta-${name}.json`), JSON.stringify(result.metafile));
      });
    },
  };
}

const node = { ...common, platform: 'node', target: 'node20', format: 'cjs', external: ['vscode'] };

async function main() {
  fs.rmSync(outdir, { recursive: true, force: true });
  copyCodicons();
  copyLazyUndici();
  const contexts = await Promise.all([
    esbuild.context({
      ...node,
      entryPoints: ['src/extension.ts'],
      outfile: path.join(outdir, 'extension.js'),
      plugins: [...common.plugins, lazyUndiciFile, lazyUndici, metafileWriter('extension')],
      metafile: writeMetafile,
      define: { 'process.env.EXTENSION_VERSION': JSON.stringify(require('./package.json').version) },
    }),
    esbuild.context({
      ...node,
      entryPoints: [UNDICI_ENTRY],
      outfile: path.join(outdir, UNDICI_FILE),
      plugins: [...common.plugins, lazyUndici, metafileWriter('undici')],
      metafile: writeMetafile,
    }),
    // Only what the guard above loads; a copy of the undici modules it shares is harmless there (never reached in practice).
    ...LAZY_UNDICI.filter((l) => !l.copy).map((lazy) =>
      esbuild.context({ ...node, entryPoints: [lazy.source], outfile: path.join(outdir, lazy.file) }),
    ),
    esbuild.context({
      ...common,
      entryPoints: ['src/webview/main.ts'],
      outfile: path.join(outdir, 'webview.js'),
      platform: 'browser',
      target: 'es2022',
      format: 'iife',
    }),
  ]);
  if (watch) {
    await Promise.all(contexts.map((c) => c.watch()));
    return;
  }
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
}

// Required (not run) by the bundle benchmark, which builds a probe with the same undici cuts.
if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

module.exports = { lazyUndici, lazyUndiciFile, UNDICI_FILE, UNDICI_ENTRY, copyLazyUndici: (dir) => copyLazyUndiciTo(dir) };
