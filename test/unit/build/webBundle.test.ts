// The web bundle (package.json "browser", esbuild.js webOptions): one CommonJS file for VS Code
// for the Web's web worker, where no Node built-in exists. Nothing but `vscode` may be required
// from it, no Node built-in (node:*, undici, child_process...) nor Buffer may reach it, and each
// web twin (x.web.ts) exports the same names as the module it stands in for.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BuildOptions, Metafile } from 'esbuild';
import * as esbuild from 'esbuild';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

interface BuildScript {
  webOptions(dir: string): BuildOptions;
}

const NODE_ONLY = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'undici']);

/** What in a web bundle would fail to load in a web worker, one line each. */
function nodeOnlyParts(metafile: Metafile, text: string): string[] {
  const found: string[] = [];
  for (const [input, info] of Object.entries(metafile.inputs)) {
    // (jsdiff, the `diff` package, is plain JavaScript: Review Changes takes it into the web bundle.)
    if (/(^|\/)node_modules\/(undici|yazl)\//.test(input)) {
      found.push(`${input} (a Node-only package)`);
    }
    for (const imported of info.imports) {
      if (imported.path.startsWith('node:') || NODE_ONLY.has(imported.path.split('/')[0])) {
        found.push(`${input} imports ${imported.path}`);
      } else if (imported.external && imported.path !== 'vscode' && !imported.path.startsWith('.')) {
        // (A relative one marked external is a type-only import esbuild lists and drops.)
        found.push(`${input} leaves ${imported.path} to require()`);
      }
    }
  }
  for (const match of text.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)) {
    if (match[1] !== 'vscode') {
      found.push(`the bundle requires ${match[1]}`);
    }
  }
  if (/\bBuffer\b/.test(text)) {
    found.push('the bundle uses Buffer');
  }
  return found;
}

/** The names a TypeScript module exports (values and types), sorted. */
function exportedNames(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      names.push(...statement.exportClause.elements.map((e) => e.name.text));
    } else if (
      ts.canHaveModifiers(statement) &&
      ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      if (ts.isVariableStatement(statement)) {
        names.push(...statement.declarationList.declarations.map((d) => d.name.getText(source)));
      } else if ('name' in statement && statement.name && ts.isIdentifier(statement.name)) {
        names.push(statement.name.text);
      }
    }
  }
  return names.sort();
}

async function buildWeb(
  script: BuildScript,
  dir: string,
  entry?: string,
): Promise<{ metafile: Metafile; text: string }> {
  const options = script.webOptions(dir);
  const result = await esbuild.build({
    ...options,
    ...(entry
      ? { entryPoints: undefined, stdin: { contents: entry, resolveDir: ROOT, sourcefile: 'probe.ts', loader: 'ts' } }
      : {}),
    // A Node built-in is left for the check below to name, instead of failing the build.
    external: ['vscode', ...NODE_ONLY],
    sourcemap: false,
    logLevel: 'silent',
  });
  assert.ok(result.metafile);
  return { metafile: result.metafile, text: fs.readFileSync(path.join(dir, 'extension.web.js'), 'utf8') };
}

describe('build: the web bundle', function () {
  this.timeout(120_000);
  let script: BuildScript;
  let dir: string;
  before(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild.js is a CommonJS script without types
    script = require(path.join(ROOT, 'esbuild.js')) as BuildScript;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-bundle-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('requires nothing but vscode and holds no Node built-in, undici or Buffer', async () => {
    const { metafile, text } = await buildWeb(script, dir);
    assert.deepEqual(nodeOnlyParts(metafile, text), []);
    // The twins are in, their Node originals are not.
    const inputs = Object.keys(metafile.inputs);
    assert.ok(inputs.includes('src/api/fetchTransport.ts'), 'the fetch transport is in');
    assert.ok(!inputs.some((i) => i.includes('undiciTransport')), 'the undici transport is not');
    // Review Changes is in, on workspace.fs; the disk's target check and git are not.
    assert.ok(inputs.includes('src/reviewUi/workspaceTarget.web.ts'), 'the review target check is in');
    for (const left of ['src/review/safeTarget.ts', 'src/projects/gitExec.ts', 'src/projects/patchAtBase.ts']) {
      assert.ok(!inputs.includes(left), `${left} is not`);
    }
  });

  it('names a Node built-in that reaches the bundle (the check above can fail)', async () => {
    const probe = [
      "export * from './src/extension.web';",
      "export { undiciTransport } from './src/api/network/undiciTransport';",
      "import { randomBytes } from 'node:crypto';",
      'export const bytes = randomBytes(1);',
    ].join('\n');
    const built = await buildWeb(script, dir, probe);
    const found = nodeOnlyParts(built.metafile, built.text);
    assert.ok(
      found.some((line) => line.includes('imports node:crypto')),
      found.join('\n'),
    );
    assert.ok(
      found.some((line) => line.includes('imports node:tls')),
      found.join('\n'),
    );
  });

  it('has each web twin export the names of the module it stands in for', () => {
    const twins: string[] = [];
    const walk = (folder: string): void => {
      for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
        const full = path.join(folder, entry.name);
        if (entry.isDirectory()) {
          walk(full);
        } else if (entry.name.endsWith('.web.ts') && entry.name !== 'extension.web.ts') {
          twins.push(full);
        }
      }
    };
    walk(path.join(ROOT, 'src'));
    assert.ok(twins.length >= 5, twins.join(', '));
    for (const twin of twins) {
      // Read from the source (types too), not by requiring the module: a twin may import vscode.
      const original = exportedNames(twin.replace(/\.web\.ts$/, '.ts'));
      assert.deepEqual(exportedNames(twin), original, path.relative(ROOT, twin));
    }
  });
});
