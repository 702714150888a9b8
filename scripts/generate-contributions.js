// `npm run contributions`: writes what the features declare (src/contributions.ts lists them) into
// package.json's `contributes` (commands, menus, keybindings, viewsContainers, views, viewsWelcome),
// the English of package.nls.json and src/common/commandIds.generated.ts.
// `--check` (npm run compile, npm run build, .ci/run) writes nothing and fails, saying what to
// declare where, when any of the three differs from what the declarations make.
// The declarations are TypeScript; esbuild bundles them for Node here (a vscode import fails).
// A command package.json has that no declaration makes is never dropped without `--force`.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const esbuild = require('esbuild');

// `--root <dir>` works on another tree laid out like this one (the unit tests use a copy).
const rootAt = process.argv.indexOf('--root');
const ROOT = path.resolve(rootAt >= 0 ? process.argv[rootAt + 1] : path.join(__dirname, '..'));
const FILES = {
  manifest: path.join(ROOT, 'package.json'),
  nls: path.join(ROOT, 'package.nls.json'),
  nlsDe: path.join(ROOT, 'package.nls.de.json'),
  ids: path.join(ROOT, 'src', 'common', 'commandIds.generated.ts'),
};

/** src/contributions.ts and the builder, bundled and loaded as one CommonJS module. */
function loadDeclarations() {
  const result = esbuild.buildSync({
    stdin: {
      contents: "export * from './src/contributions'; export * from './src/common/buildContributions';",
      resolveDir: ROOT,
      loader: 'ts',
      sourcefile: 'contributions-entry.ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  const loaded = new Module(path.join(ROOT, 'contributions-entry.js'));
  loaded.paths = Module._nodeModulePaths(ROOT);
  loaded._compile(result.outputFiles[0].text, loaded.id);
  return loaded.exports;
}

/** The folder of src/ whose code names a command (`Commands.<name>` or its id), for a hint. */
function whereRegistered(id) {
  const name = id.replace(/^agentRuntime\./, '');
  const pattern = new RegExp(`(Commands\\.${name}\\b|['\`"]${id.replace(/\./g, '\\.')}['\`"])`);
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = walk(full);
        if (found) return found;
      } else if (
        path.basename(dir) !== 'common' &&
        /\.ts$/.test(entry.name) &&
        !/(contributions|\.generated)\.ts$/.test(entry.name)
      ) {
        if (pattern.test(fs.readFileSync(full, 'utf8')))
          return path.relative(path.join(ROOT, 'src'), dir).split(path.sep)[0];
      }
    }
    return undefined;
  };
  return walk(path.join(ROOT, 'src'));
}

function read(file) {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

function main() {
  const check = process.argv.includes('--check');
  const force = process.argv.includes('--force');
  let lib;
  try {
    lib = loadDeclarations();
  } catch (err) {
    console.error(`The contributions cannot be loaded (plain data only, no vscode import):\n${err.message ?? err}`);
    return 1;
  }
  const built = lib.declaredContributions();
  if (built.problems.length > 0) {
    console.error(`The declarations have mistakes:\n${built.problems.map((p) => `  ${p}`).join('\n')}`);
    return 1;
  }
  const manifestText = read(FILES.manifest);
  const manifest = JSON.parse(manifestText);
  const differences = lib.manifestDifferences(manifest, built, whereRegistered);
  const want = {
    manifest: lib.applyToManifest(manifestText, built),
    nls: lib.applyToNls(read(FILES.nls), built),
    ids: lib.commandIdsModule(built),
  };
  const stale = Object.keys(want).filter((key) => read(FILES[key]) !== want[key]);

  if (check) {
    if (stale.length === 0) return 0;
    const lines = [];
    if (stale.includes('manifest')) {
      lines.push("package.json's contributes differs from the declarations:");
      lines.push(
        ...(differences.length ? differences : ['its formatting differs: run npm run contributions']).map(
          (d) => `  ${d}`,
        ),
      );
    }
    if (stale.includes('nls')) {
      const have = JSON.parse(read(FILES.nls) || '{}');
      const next = JSON.parse(want.nls);
      const keys = [...new Set([...Object.keys(have), ...Object.keys(next)])].filter((k) => have[k] !== next[k]);
      lines.push(
        `package.nls.json differs from the declarations' English (${keys.join(', ') || 'order or format'}): change the title in its contributions.ts, or run npm run contributions`,
      );
    }
    if (stale.includes('ids')) {
      lines.push('src/common/commandIds.generated.ts is out of date: run npm run contributions');
    }
    console.error(lines.join('\n'));
    return 1;
  }

  const undeclared = differences.filter((d) => d.includes(': package.json has '));
  if (undeclared.length > 0 && !force) {
    console.error(
      "package.json's contributes has entries the declarations do not make; writing would drop them:\n" +
        `${undeclared.map((d) => `  ${d}`).join('\n')}\n(declare them first, or run with --force to drop them)`,
    );
    return 1;
  }
  for (const key of stale) {
    fs.writeFileSync(FILES[key], want[key]);
    console.log(`wrote ${path.relative(ROOT, FILES[key])}`);
  }
  const german = JSON.parse(read(FILES.nlsDe) || '{}');
  const untranslated = Object.keys(built.nls).filter((key) => typeof german[key] !== 'string' || german[key] === '');
  if (untranslated.length > 0) {
    console.log(
      `package.nls.de.json needs the German of: ${untranslated.join(', ')} (npm run l10n:check lists them too)`,
    );
  }
  return 0;
}

process.exitCode = main();
