// Builds the two bundles: the extension host (Node, CommonJS, `vscode` external) and the
// run panel's webview script (browser). `--production` minifies and drops source maps;
// `--watch` rebuilds on change.
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Copies the codicon font and stylesheet next to the webview bundle (nothing from the network). */
function copyCodicons() {
  const from = path.join(__dirname, 'node_modules', '@vscode', 'codicons', 'dist');
  const to = path.join(__dirname, 'dist', 'codicons');
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

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: production ? 'none' : 'inline',
  plugins: [problemMatcher],
};

async function main() {
  fs.rmSync(path.join(__dirname, 'dist'), { recursive: true, force: true });
  copyCodicons();
  const contexts = await Promise.all([
    esbuild.context({
      ...common,
      entryPoints: ['src/extension.ts'],
      outfile: 'dist/extension.js',
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      external: ['vscode'],
      define: { 'process.env.EXTENSION_VERSION': JSON.stringify(require('./package.json').version) },
    }),
    esbuild.context({
      ...common,
      entryPoints: ['src/webview/main.ts'],
      outfile: 'dist/webview.js',
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

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
