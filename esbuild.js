// Builds the extension host bundle (Node, CommonJS, `vscode` external), the files it loads only
// when needed, the web bundle (extension.web.js: VS Code for the Web's web worker, CommonJS,
// only `vscode` external) and the run panel's webview script (browser). `--production` minifies and drops
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

/**
 * The declaration file of the API other extensions get from activate() (src/extensionApi), shipped
 * as dist/agentRuntimeApi.d.ts (package.json "types"): the package holds only dist/ and media/.
 */
function copyApiTypes() {
  fs.copyFileSync(
    path.join(__dirname, 'src', 'extensionApi', 'agentRuntimeApi.d.ts'),
    path.join(outdir, 'agentRuntimeApi.d.ts'),
  );
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

// Everything the extension loads on first use from a file beside extension.js, instead of at
// every activation. ONE list: each entry is a request that, made from the module `from` (a file,
// or a folder ending in /), resolves to a small guard module requiring `dist/<file>` that says
// which file is missing ("Reinstall the extension") instead of crashing with a bare "Cannot find
// module". `entry` files are bundles of their own built with the same plugin; `copy` files are
// data copied as they are. Under tsc (unit tests) the same requires are plain modules.
// - undici (the slice src/api/network/undiciParts.ts gathers, about 120 KB): at the first request,
//   through src/api/network/undici.ts. undiciParts.ts imports nothing of ours, so no module of
//   ours is in both files; test/unit/build/lazyBundles.test.ts checks that on the output.
// - yazl with buffer-crc32 (about 16 KB): only to pack a folder (src/upload/yazl.ts).
// - jsdiff (about 15 KB): only to review changes or read a patch (src/review/jsdiff.ts).
// - Review Changes (src/review and most of src/reviewUi, about 30 KB), our own code: at its first
//   command or the first finished run (src/reviewUi/reviewLoader.ts). `shares`: see hostContexts.
// - the run panel (RunPanelManager with the panel, its session and src/runLog, about 57 KB), our
//   own code: at the first panel opened or restored (src/runPanel/runPanelLoader.ts). `shares`.
// - the chat participant's handler (src/chat/chatHandler.ts with chatText.ts): at the first chat
//   request; the participant itself is registered at activation (src/chat/chatLoader.ts). `shares`.
// - the language model tools (src/languageModelTools/toolHandlers.ts with toolSpecs.ts and
//   toolResult.ts): at the first tool call; their names are registered at activation
//   (src/languageModelTools/toolsLoader.ts). `shares`.
// - the project commands' flows (src/projects/projectCommands.ts with what only they use): at the
//   first project command; the commands are registered at activation (src/projects/projectLoader.ts).
//   `shares`.
// - inside undici, llhttp (about 70 KB of base64 WebAssembly each, two variants): undici compiles
//   one on the first connection; bundled, both would be parsed and kept at every activation.
// - inside undici, fetch/body.js (with webidl, FormData and fetch utilities, about 40 KB and
//   node:zlib, node:worker_threads): only for a FormData request body, which we never send. Its
//   copy of the undici helpers it shares is never shared state with undici.js's.
const LAZY_FILES = [
  {
    request: './undiciParts',
    from: 'src/api/network/undici.ts',
    file: 'undici.js',
    entry: 'src/api/network/undiciParts.ts',
  },
  { request: 'yazl', from: 'src/upload/yazl.ts', file: 'yazl.js', entry: 'node_modules/yazl/index.js' },
  { request: 'diff', from: 'src/review/jsdiff.ts', file: 'diff.js', entry: 'node_modules/diff/libcjs/index.js' },
  {
    request: './reviewCommands',
    from: 'src/reviewUi/reviewLoader.ts',
    file: 'review.js',
    entry: 'src/reviewUi/reviewCommands.ts',
    shares: true,
  },
  {
    request: './runPanelManager',
    from: 'src/runPanel/runPanelLoader.ts',
    file: 'runpanel.js',
    entry: 'src/runPanel/runPanelManager.ts',
    shares: true,
  },
  {
    request: './chatHandler',
    from: 'src/chat/chatLoader.ts',
    file: 'chat.js',
    entry: 'src/chat/chatHandler.ts',
    shares: true,
  },
  {
    request: './toolHandlers',
    from: 'src/languageModelTools/toolsLoader.ts',
    file: 'tools.js',
    entry: 'src/languageModelTools/toolHandlers.ts',
    shares: true,
  },
  {
    request: './projectCommands',
    from: 'src/projects/projectLoader.ts',
    file: 'projects.js',
    entry: 'src/projects/projectCommands.ts',
    shares: true,
  },
  {
    request: '../llhttp/llhttp_simd-wasm.js',
    from: 'node_modules/undici/',
    file: 'llhttp/llhttp_simd-wasm.js',
    copy: 'node_modules/undici/lib/llhttp/llhttp_simd-wasm.js',
  },
  {
    request: '../llhttp/llhttp-wasm.js',
    from: 'node_modules/undici/',
    file: 'llhttp/llhttp-wasm.js',
    copy: 'node_modules/undici/lib/llhttp/llhttp-wasm.js',
  },
  {
    request: '../web/fetch/body.js',
    from: 'node_modules/undici/',
    file: 'undici-fetch-body.js',
    entry: 'node_modules/undici/lib/web/fetch/body.js',
  },
];

const UNDICI_FILE = 'undici.js';

/**
 * Modules of ours that activation does not use but two or more `shares` bundles do: extension.js
 * holds them all the same (pass 1 takes them as entries), so each lazy bundle takes the one copy
 * from `__shared` and no module is in two of them (test/unit/build/lazyBundles.test.ts fails on a
 * module missing here). markdownLiteral.ts: chat.js, tools.js and runpanel.js (export); the git
 * access and remote matching of src/projects: projects.js and review.js (apply to a branch).
 */
const HOST_KEEPS = [
  'src/common/markdownLiteral.ts',
  'src/projects/gitAccess.ts',
  'src/projects/gitExec.ts',
  'src/projects/repositoryUrl.ts',
];

/** The guard module for a file beside the bundle: loads it, or says the install is incomplete. */
function guardModule(file) {
  return {
    contents: [
      'let loaded;',
      `try { loaded = require('./lazy-file/${file}'); }`,
      // The code (INCOMPLETE_INSTALL in src/api/errors.ts) keeps the API layer from taking this for a network failure.
      `catch (err) { const e = new Error('The Agent Runtime extension is incomplete: dist/${file} is missing or broken (' + (err && err.message) + '). Reinstall the extension.'); e.code = 'agent_runtime_incomplete'; throw e; }`,
      'module.exports = loaded;',
    ].join('\n'),
    loader: 'js',
  };
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * True when `importer` (an absolute path) is the module `from` names, or is in the folder it
 * names anywhere in the path (esbuild follows node_modules symlinks to their real place).
 */
function isFrom(importer, from) {
  const relative = path.relative(__dirname, importer).split(path.sep).join('/');
  return from.endsWith('/') ? `/${relative}`.includes(`/${from}`) : relative === from;
}

/** Resolves each LAZY_FILES request, made from its `from`, to the guard for its file. */
const lazyFiles = {
  name: 'lazy-files',
  setup(build) {
    for (const lazy of LAZY_FILES) {
      build.onResolve({ filter: new RegExp(`^${escapeRegExp(lazy.request)}$`) }, (args) =>
        isFrom(args.importer, lazy.from) ? { path: lazy.file, namespace: 'lazy-file' } : undefined,
      );
    }
    build.onResolve({ filter: /^\.\/lazy-file\// }, (args) => ({
      path: `./${args.path.slice('./lazy-file/'.length)}`,
      external: true,
    }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-file' }, (args) => guardModule(args.path));
  },
};

/**
 * Makes every `import * as vscode from 'vscode'` of a bundle one module, `export * from 'vscode'`,
 * instead of esbuild's `__toESM(require('vscode'))` in each importing file: each of those copies
 * every property of the vscode module onto a new object as a getter, and with about 50 importing
 * files that was most of the time extension.js took to load (BENCHMARKS.md, "Loading the
 * extension"). The one copy is made the same way (getters, so nothing is read at load).
 */
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-once'
        ? { path: 'vscode', external: true }
        : { path: 'vscode', namespace: 'vscode-once' },
    );
    // `default` as __toESM gave it (the module itself), read without a second copy.
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({
      contents: "export * from 'vscode';\nexport default require('vscode');",
      loader: 'js',
    }));
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

/** Copies the LAZY_FILES that are data (the llhttp modules: a Buffer of WebAssembly) as they are. */
function copyLazyFiles(dir) {
  for (const lazy of LAZY_FILES.filter((l) => l.copy)) {
    const to = path.join(dir, lazy.file);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(path.join(__dirname, lazy.copy), to);
  }
}

/** Writes a bundle's metafile as <outdir>/meta-<name>.json for `npx esbuild --analyze` (see BENCHMARKS.md). */
function metafileWriter(name) {
  return {
    name: `metafile-writer-${name}`,
    setup(build) {
      build.onEnd((result) => {
        if (writeMetafile && result.metafile)
          fs.writeFileSync(path.join(outdir, `meta-${name}.json`), JSON.stringify(result.metafile));
      });
    },
  };
}

const node = {
  ...common,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['vscode'],
  absWorkingDir: __dirname,
  define: { 'process.env.EXTENSION_VERSION': JSON.stringify(require('./package.json').version) },
};

const SKIP_TWIN = Symbol('skip-twin');

/**
 * Web twins: in the web bundle, a relative import of ours that resolves to `x.ts` takes `x.web.ts`
 * when there is one (src/api/platformTransport.web.ts: fetch instead of undici; a leaf that
 * reads this computer's disk says the browser cannot). The twin exports the same names
 * (test/unit/build/webBundle.test.ts checks both, and that no Node built-in reaches the bundle).
 */
const webTwins = {
  name: 'web-twins',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === SKIP_TWIN) return undefined;
      const resolved = await build.resolve(args.path, {
        resolveDir: args.resolveDir,
        importer: args.importer,
        kind: args.kind,
        pluginData: SKIP_TWIN,
      });
      if (resolved.errors.length > 0 || !resolved.path.endsWith('.ts') || resolved.path.endsWith('.web.ts'))
        return undefined;
      const twin = resolved.path.replace(/\.ts$/, '.web.ts');
      return fs.existsSync(twin) ? { path: twin } : undefined;
    });
  },
};

/** The web bundle: one CommonJS file for a web worker, only `vscode` external (see webTwins). */
function webOptions(dir) {
  return {
    ...common,
    entryPoints: ['src/extension.web.ts'],
    outfile: path.join(dir, 'extension.web.js'),
    platform: 'browser',
    target: 'es2022',
    format: 'cjs',
    external: ['vscode'],
    absWorkingDir: __dirname,
    define: node.define,
    plugins: [...common.plugins, vscodeOnce, webTwins, metafileWriter('extension.web')],
    metafile: true,
  };
}

const SKIP_SHARED = Symbol('skip-shared');
const posixRelative = (file) => path.relative(__dirname, file).split(path.sep).join('/');

/**
 * For a lazy bundle of our own code: an import of a module extension.js has (`host.mainInputs`,
 * paths as in its metafile) becomes `require('./extension.js').__shared['<path>']`, so that module
 * is one object at run time (one class for `instanceof`, one singleton). Records the ones used.
 */
function sharedFromExtension(host, used) {
  return {
    name: 'shared-from-extension',
    setup(build) {
      build.onStart(() => used.clear());
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === SKIP_SHARED || args.namespace !== 'file' || args.kind === 'entry-point')
          return undefined;
        const resolved = await build.resolve(args.path, {
          resolveDir: args.resolveDir,
          importer: args.importer,
          kind: args.kind,
          pluginData: SKIP_SHARED,
        });
        if (resolved.errors.length > 0 || resolved.external) return undefined;
        const key = posixRelative(resolved.path);
        if (!host.mainInputs.has(key)) return undefined;
        used.add(key);
        return { path: key, namespace: 'shared' };
      });
      build.onResolve({ filter: /^\.\/extension\.js$/, namespace: 'shared' }, () => ({
        path: './extension.js',
        external: true,
      }));
      build.onLoad({ filter: /.*/, namespace: 'shared' }, (args) => ({
        contents: `module.exports = require('./extension.js').__shared[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
}

/**
 * extension.js and the lazy bundles of our own code (LAZY_FILES `shares`), in three passes:
 * 1. extension.js as it would be, not written (the `first` context): its inputs are the modules
 *    activation loads, and HOST_KEEPS;
 * 2. each sharing bundle (a context of its own), taking those modules from extension.js
 *    (sharedFromExtension);
 * 3. extension.js written from an entry that re-exports src/extension.ts and adds `__shared`:
 *    the namespace objects of exactly the modules the sharing bundles take.
 * Pass 1 ending runs pass 2 with its inputs; each sharing bundle ending runs pass 3. In watch
 * mode every context watches its own inputs, so an edit only inside a sharing bundle rebuilds it
 * and then extension.js (what it takes may have changed), without pass 1.
 */
function hostContexts() {
  const host = { mainInputs: new Set(), version: 0 };
  const sharing = LAZY_FILES.filter((l) => l.shares).map((lazy) => ({
    lazy,
    used: new Set(),
    ok: false,
    context: undefined,
  }));
  let writing = Promise.resolve();

  // Pass 3, one at a time: it reads the source afresh, so only what the sharing bundles take matters.
  const writeHost = () => {
    const next = writing.then(async () => {
      if (sharing.some((s) => !s.ok)) return;
      const shared = [...new Set(sharing.flatMap((s) => [...s.used]))].sort();
      const contents = [
        "export * from './src/extension';",
        ...shared.map((key, i) => `import * as shared${i} from ${JSON.stringify(`./${key}`)};`),
        `export const __shared = { ${shared.map((key, i) => `${JSON.stringify(key)}: shared${i}`).join(', ')} };`,
      ].join('\n');
      await esbuild.build({
        ...node,
        stdin: { contents, resolveDir: __dirname, sourcefile: 'extension-entry.ts', loader: 'ts' },
        outfile: path.join(outdir, 'extension.js'),
        plugins: [...common.plugins, vscodeOnce, lazyFiles, metafileWriter('extension')],
        metafile: true,
      });
    });
    writing = next.catch(() => undefined);
    return next;
  };

  const sharingContext = (s) => {
    let startedAt = 0;
    const afterBuild = {
      name: 'after-sharing-build',
      setup(build) {
        build.onStart(() => {
          startedAt = host.version;
          // sharedFromExtension empties s.used as this build starts: until it ends, another sharing
          // bundle finishing must not write extension.js with this one's __shared missing.
          s.ok = false;
        });
        build.onEnd(async (result) => {
          s.ok = result.errors.length === 0;
          if (!s.ok) return;
          // Built against the inputs of an older pass 1: build again with the new ones.
          if (startedAt !== host.version)
            return void setImmediate(() => void s.context.rebuild().catch(() => undefined));
          await writeHost();
        });
      },
    };
    return esbuild.context({
      ...node,
      entryPoints: [s.lazy.entry],
      outfile: path.join(outdir, s.lazy.file),
      plugins: [
        ...common.plugins,
        vscodeOnce,
        lazyFiles,
        sharedFromExtension(host, s.used),
        metafileWriter(s.lazy.file.replace(/\.js$/, '')),
        afterBuild,
      ],
      metafile: true,
    });
  };

  const firstPass = {
    name: 'finish-host',
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length > 0) return;
        host.mainInputs = new Set(Object.keys(result.metafile.inputs));
        host.version++;
        // Thrown, a failed pass 2 or 3 fails this build too: `npm run compile` must not end well without extension.js.
        if (sharing.length === 0) await writeHost();
        else await Promise.all(sharing.map((s) => s.context.rebuild()));
      });
    },
  };

  return Promise.all(sharing.map(async (s) => (s.context = await sharingContext(s)))).then(async (sharingContexts) => ({
    first: await esbuild.context({
      ...node,
      entryPoints: ['src/extension.ts', ...HOST_KEEPS],
      // Not written: only its inputs count (an outdir, as there are two entries).
      outdir,
      write: false,
      metafile: true,
      plugins: [...common.plugins, vscodeOnce, lazyFiles, firstPass],
    }),
    sharing: sharingContexts,
  }));
}

async function main() {
  fs.rmSync(outdir, { recursive: true, force: true });
  copyCodicons();
  copyApiTypes();
  copyLazyFiles(outdir);
  const [host, ...others] = await Promise.all([
    hostContexts(),
    ...LAZY_FILES.filter((l) => l.entry && !l.shares).map((lazy) =>
      esbuild.context({
        ...node,
        entryPoints: [lazy.entry],
        outfile: path.join(outdir, lazy.file),
        plugins: [...common.plugins, vscodeOnce, lazyFiles, metafileWriter(lazy.file.replace(/\.js$/, ''))],
        metafile: writeMetafile,
      }),
    ),
    esbuild.context(webOptions(outdir)),
    esbuild.context({
      ...common,
      entryPoints: ['src/webview/main.ts'],
      outfile: path.join(outdir, 'webview.js'),
      platform: 'browser',
      target: 'es2022',
      format: 'iife',
    }),
  ]);
  // The first pass builds the sharing bundles itself (they need its inputs), then extension.js.
  const built = [host.first, ...others];
  const rebuilds = await Promise.allSettled(built.map((c) => c.rebuild()));
  if (watch) {
    // Watching starts once every file exists, so a sharing bundle is never built without pass 1's
    // inputs; the price is that watch() builds everything a second time at start.
    await Promise.all([...built, ...host.sharing].map((c) => c.watch()));
    return;
  }
  await Promise.all([...built, ...host.sharing].map((c) => c.dispose()));
  const failed = rebuilds.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

// Required (not run) by the build test, which builds probes with the same cuts.
if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

module.exports = { lazyFiles, vscodeOnce, LAZY_FILES, UNDICI_FILE, copyLazyFiles, webOptions };
